"""Pasted material in a chat message, cut before the local extractor reads it: code blocks and
code lines, logs and chat logs, quoted paragraphs, letters and drafts to polish, attachments, and
long material ahead of a closing request. None of it is the person speaking of themselves
(`own_words` keeps what is)."""

from __future__ import annotations

import re

from memories.extraction.local_rules import IMPERATIVE, PASTE_NOUNS, REQUEST, has_first_person

# The Claude parser appends attachments as "\n\n[file name]\n<extracted text>": never the
# person speaking.
_ATTACHMENT = re.compile(r"\n\n\[[^\]\n]{1,255}\]\n")
CODE_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_GREETING_LINE = re.compile(
    r"^\s*(?:dear|hi|hello|hey|hiya|good (?:morning|afternoon|evening)|to whom)\s+"
    r"(?!(?:claude|chatgpt|gpt|assistant|there|bot)\b)[^\n]{1,50},\s*$",
    re.I,
)
_SIGN_OFF = re.compile(
    r"^\s*(?:best|best wishes|kind regards|warm regards|best regards|regards|sincerely|"
    r"yours (?:sincerely|faithfully|truly)|thanks|thank you|many thanks|cheers|all the best|"
    r"love|xo+)\b[^\n]{0,40}$",
    re.I,
)
_PASTE_VERBS = (
    r"translate|proofread|rewrite|re-write|edit|fix|improve|shorten|summari[sz]e|tighten|polish|"
    r"check|rate|review|correct|paraphrase|simplify|format|convert|reword|critique|grade"
)
_PASTE_INTRO = re.compile(
    rf"\b(?:this|these|following|below|here's|here is|here are|here it is|as follows|"
    rf"{PASTE_NOUNS}|{_PASTE_VERBS})\b"
    r"[^\n]*:\s*$",
    re.I,
)
_PASTE_INLINE = re.compile(
    rf"^(.*\b(?:here's|here\s+is|here\s+are|below\s+is|this\s+is|pasting|pasted|attached|"
    rf"{_PASTE_VERBS})\s+(?:\w+\s+){{0,3}}(?:{PASTE_NOUNS})\b[^:\n]{{0,60}}:)\s*\S.{{40,}}$",
    re.I,
)
# A paragraph after pasted material that is the person again: context or the request.
_PASTE_QUESTION = re.compile(
    rf"\b(?:this|these|my|the\s+following)\s+(?:[\w-]+\s+){{0,2}}(?:{PASTE_NOUNS})\b[^\n]*\?\s*$",
    re.I,
)
_OWN_VOICE = re.compile(
    r"^\s*(?:for context|context|some context|background|a bit about me|about me|fyi|btw|"
    r"p\.?s\.?|also|can you|could you|would you|please|pls|make it|thanks|thank you|"
    r"what|how|why|is|are|does|do)\b",
    re.I,
)
_QUOTED_PARAGRAPH = re.compile(r'^\s*["“”«].*["“”»]\s*$', re.S)
QUOTED_SPAN = re.compile(r'"[^"\n]{2,}"|“[^”\n]{2,}”|(?<![\w])\'[^\'\n]{3,}\'(?![\w])')
_CODE_LINE = re.compile(
    r"""^\s*(?:
        def\s|class\s|import\s|from\s\S+\simport|return\b|const\s|let\s|var\s|function\b|
        public\s|private\s|func\s|fn\s|void\s|\#include|\#!|
        (?:select|insert|update|delete|create|alter|drop)\s.+|
        curl\s|git\s|npm\s|pip\s|sudo\s|echo\s|printf|puts\s|print\(|console\.|assert\s|
        System\.|Serial\.|Threads\.|
        if\s*\(|if\s.*(?:==|!=|\(|<|>).*[:{]\s*$|if\s+\w+\s*:\s*$|
        for\s*\(|for\s+\w+(?:,\s*\w+)*\s+in\s.*[:{]\s*$|
        while\s*\(|while\s.*:\s*$|else\b|elif\b|try:|except\b|
        catch\b|end\s*$|[{}\]\[]|</?[a-zA-Z!]|\$\s|>>>|\.\.\.\s|@\w|
        traceback\b|file\s".*",\sline|\w*(?:error|exception):|npm\sERR|error:|warn(?:ing)?:|
        fatal:|!\s*\[rejected\]|at\s[\w.$]+\(
    )""",
    re.I | re.X,
)
_CODE_TAIL = re.compile(r"(?:;|\{|\}|\)\s*:|=>|==|!=|\+=|-=|\w\([^()\s]*\)\s*;?|\)\s*\{)\s*$")
_CODE_INSIDE = re.compile(r"(?:\w\(.*\)|==|!=|=>|\+=|\$\{|\bf\"|\w+\.\w+\()")
_CHAT_LOG_LINE = re.compile(
    r"^\[?\d{1,2}[:.]\d{2}(?::\d{2})?\s*(?:am|pm)?\]?\s*[-\u2013]?\s*[\w .'-]{1,30}:\s", re.I
)
_CSV_LINE = re.compile(r"^[\w:./ -]*(?:,[\w:./ -]*){2,}$")


_ASSIGNMENT = re.compile(r"^[A-Za-z_][\w.\[\]'\"]*\s*(?:[+\-*/]|\|\|)?=\s*\S")
_OPENS = re.compile(r"[(\[{,]\s*$")


def _is_code(line: str) -> bool:
    stripped = line.strip()
    if not stripped:
        return False
    if _CODE_LINE.match(stripped) or _CODE_TAIL.search(stripped):
        return True
    if _ASSIGNMENT.match(stripped) or (_OPENS.search(stripped) and _CODE_INSIDE.search(stripped)):
        return True
    if _CHAT_LOG_LINE.match(stripped):  # a pasted chat transcript: "[10:32] Sam: I'm on my way"
        return True
    if line.startswith(("    ", "\t")) and _CODE_INSIDE.search(stripped):
        return True
    if _CSV_LINE.match(stripped) and any(ch.isdigit() for ch in stripped):
        # "We have two cats, Pixel and Byte, both rescues, about 4 years old": a sentence.
        fields = [f.split() for f in stripped.split(",")]
        if has_first_person(stripped) and max(len(f) for f in fields) >= 3:
            return False
        return " " not in stripped or stripped.count(",") >= 3
    # Mostly symbols: a config line, a JSON fragment, a stack trace.
    letters = sum(ch.isalpha() for ch in stripped)
    return len(stripped) >= 8 and letters / len(stripped) < 0.5


def drop_code(paragraph: str) -> str:
    """Code lines go, and so do lines sandwiched between them (program output, a REPL)."""
    lines = paragraph.split("\n")
    code = [_is_code(line) for line in lines]
    if not any(code):
        return paragraph
    for index in range(1, len(lines)):  # the indented body of a code line is code
        indent = len(lines[index]) - len(lines[index].lstrip())
        previous = len(lines[index - 1]) - len(lines[index - 1].lstrip())
        if code[index - 1] and lines[index].strip() and indent > previous:
            code[index] = True
    kept = []
    for index, line in enumerate(lines):
        if code[index]:
            continue
        before = index > 0 and code[index - 1]
        after = index + 1 < len(lines) and code[index + 1]
        if before and after:
            continue
        kept.append(line)
    return "\n".join(kept)


def _drop_letters(paragraphs: list[str]) -> list[str]:
    """A letter (greeting line ... sign-off and name) is pasted, even when it says "I am"."""
    out: list[str] = []
    in_letter = False
    for paragraph in paragraphs:
        lines = paragraph.split("\n")
        kept: list[str] = []
        skip_name = False
        for line in lines:
            if skip_name:
                skip_name = False
                if len(line.split()) <= 4:
                    continue
            if not in_letter and _GREETING_LINE.match(line):
                in_letter = True
                continue
            if in_letter:
                if _SIGN_OFF.match(line):
                    in_letter = False
                    skip_name = not re.search(r",\s*\w", line)  # "Best, Nina" holds the name
                continue
            kept.append(line)
        out.append("\n".join(kept))
    return out


_POINTS_BACK = re.compile(r"\b(?:this|these|the\s+above|above|that\s+text|this\s+text|it)\b", re.I)
_LONG_PASTE = 600
_SHORT_INTRO = 300


def _drop_material_before_a_closing_request(paragraphs: list[str]) -> list[str]:
    """ "<a long pasted text>\n\nsummarise this": what comes before the closing request is the
    material it points back to. A short first paragraph is kept: it is usually the person
    introducing the paste ("I'm a nurse; this is our rota")."""
    if len(paragraphs) < 2:
        return paragraphs
    last = paragraphs[-1]
    closing = _POINTS_BACK.search(last) and (
        IMPERATIVE.match(last.strip()) or REQUEST.search(last) or "?" in last
    )
    if not closing or sum(len(p) for p in paragraphs[:-1]) <= _LONG_PASTE:
        return paragraphs
    first = paragraphs[0]
    keep_first = len(paragraphs) >= 3 and len(first) <= _SHORT_INTRO
    return [first, last] if keep_first else [last]


def own_words(message: str) -> str:
    """The message without what the person pasted into it: attachments, code, logs, letters,
    quoted text and whatever follows a "fix this:"-style introduction."""
    text = message.replace("\r\n", "\n").replace("\u2019", "'").replace("\u2018", "'")
    cut = _ATTACHMENT.search(text)
    if cut:
        text = text[: cut.start()]
    text = CODE_FENCE.sub("\n\n", text)
    text = _INLINE_CODE.sub(" code ", text)
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    paragraphs = _drop_letters([p for p in paragraphs if p.strip()])
    paragraphs = _drop_material_before_a_closing_request([p for p in paragraphs if p.strip()])
    out: list[str] = []
    pasting = False
    for paragraph in paragraphs:
        if pasting and not (_OWN_VOICE.match(paragraph) and len(paragraph) <= _SHORT_INTRO):
            continue
        pasting = False
        if _QUOTED_PARAGRAPH.match(paragraph) or paragraph.lstrip().startswith(">"):
            continue
        paragraph = drop_code(paragraph)
        lines = paragraph.split("\n")
        for index, line in enumerate(lines):
            inline = _PASTE_INLINE.match(line)
            if inline:  # "here's my essay: I have always ...": the rest of the line is the paste
                lines[index] = inline.group(1)
                line = lines[index]
            if _PASTE_INTRO.search(line) or (
                index == len(lines) - 1 and _PASTE_QUESTION.search(line)
            ):
                # The intro's own line stays (it may say "for my college essay"); the rest of
                # this paragraph and the following ones are pasted, until the person speaks again.
                paragraph = "\n".join(lines[: index + 1])
                pasting = True
                break
        out.append(paragraph)
    return "\n\n".join(p for p in out if p.strip())
