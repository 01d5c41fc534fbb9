"""Sentences and clauses of the person's own words (after memories/extraction/local_paste.py),
tidied into the clauses the local extractor judges: sentence and clause splitting that keeps
abbreviations and parentheticals whole, leading fillers and handovers cut, and the first person
found."""

from __future__ import annotations

import re

from memories.extraction.local_paste import QUOTED_SPAN
from memories.extraction.local_rules import clause_verdict, has_first_person

_ABBREVIATIONS = {
    "dr",
    "mr",
    "mrs",
    "ms",
    "st",
    "vs",
    "etc",
    "e.g",
    "i.e",
    "approx",
    "jr",
    "sr",
    "prof",
    "no",
    "u.s",
    "u.k",
    "mt",
}
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+")
_PARENTHETICAL = re.compile(r"\(([^()]{3,})\)")
# Where a fact-bearing clause hands over to a request or a question. Only the separator is
# consumed: the next clause keeps its first words ("can you ...", "is it ..."), so the request or
# question is recognised as one.
_HANDOVER = re.compile(
    r"""(?:
        [,;:\u2014\u2013]\s*(?:so\s+|and\s+|but\s+)?(?=(?:can|could|would|will)\s+you\b)|
        \s(?:so|and)\s+(?=(?:can|could|would)\s+you\b)|
        [,;]\s*(?=(?:please|pls|plz|thx|thanks)\b)|
        ,\s*(?=(?:what|how|which|where|when|why|who|is\s+it|is\s+there|are\s+there|should\s+i|
              can\s+i|do\s+you|does\s+it|any|anything|anyone)\b)|
        ,\s*(?=(?:is|are|was|does|do|did|can|could|should|would|will|am|has|have)\s+
              (?:[\w'-]+\s+){0,6}?[\w'-]+\s*\?)|
        ,\s*(?=(?:is|are|does|do|did|can|could|should|would|will|am)\s+(?:i|it|there|this|that|
              they|we|my|you)\b)|
        ,\s*(?=(?:is|are|does|do|can|could|should|would|will)\s+[^,?]{1,120}\?\s*$)|
        ,\s*(?=(?:it's|it\s+is|that's)\s+(?:[\w'-]+\s+){0,5}?(?:i|i've|we|my|our)\b)|
        ,\s*so\s+|\s+so\s+(?=(?:i|i'm|im|we|my|our|can|could|would|please|pls|no|don't|keep|
              make|any|what|how|if|it)\b)|
        ,?\s+and\s+(?=i\s*(?:need|want|have\s+to|'d\s+like|would\s+like|am\s+trying|'m\s+trying|
              must)\b)|
        ,\s*(?=(?:please\s+)?(?:tell|give|make|write|talk|help|show|explain|list|suggest|recommend|
              keep|use|send|find)\b)|
        ,\s*(?=(?:i|i'm|im|i've|ive|i'd|my)\b)|
        ;\s*|\s[\u2014\u2013-]\s|:\s+
    )""",
    re.I | re.X,
)
_LEADING_FILLER = re.compile(
    r"^(?:and|but|so|also|oh|btw|by the way|fyi|ps|p\.s\.|anyway|anyways|ok|okay|well|hey|hi|"
    r"hello|um|uh|plus|though|actually|basically|honestly|alright|right|yeah|yes|no|lol|haha|"
    r"quick one|quick question|for context|context|some context|background|a bit about me|"
    r"details|for reference|for the record)\b[\s,:!.-]*",
    re.I,
)


def _masked(text: str) -> str:
    """The text with quoted spans blanked out, same length: nothing is cut inside a quotation."""
    return QUOTED_SPAN.sub(lambda m: "Q" * len(m.group(0)), text)


def sentences(text: str) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        line = line.strip().lstrip("-*•·>").strip()
        if not line:
            continue
        start = 0
        for match in _SENTENCE_END.finditer(_masked(line)):
            head = line[start : match.start()].rstrip("\"')]")
            last_word = re.split(r"\s", head)[-1].rstrip(".!?…").lower() if head else ""
            if last_word in _ABBREVIATIONS or re.fullmatch(r"[a-z]", last_word):
                continue
            out.append(line[start : match.start()])
            start = match.end()
        out.append(line[start:])
    return [s.strip() for s in out if s.strip()]


def clause_parts(sentence: str) -> list[str]:
    """A sentence cut where the person hands over to a request or a question, with first-person
    parentheticals ("(I'm doing a master's at TU Delft)") as clauses of their own."""
    asides = [m.group(1) for m in _PARENTHETICAL.finditer(sentence) if has_first_person(m.group(1))]
    for aside in asides:
        sentence = sentence.replace(f"({aside})", " ")
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _HANDOVER.finditer(_masked(sentence)):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(sentence)))
    kept = spans[:1]
    for begin, end in spans[1:]:
        part = sentence[begin:end]
        before = sentence[kept[-1][0] : kept[-1][1]]
        if _WHO.match(part) and sentence[kept[-1][1] : begin].strip() in ("\u2014", "\u2013", "-"):
            kept[-1] = (kept[-1][0], end)  # "two of them are coeliac - my brother and my niece"
            continue
        if re.match(r"\s*where\s+(?:i|we)\b", part, re.I) and re.search(
            r"\b(?-i:[A-Z])[\w-]+\s*,?\s*$", before
        ):
            kept[-1] = (kept[-1][0], end)  # "from Bristol, where we live": the place is hers
            continue
        quoted = part.lstrip()[:1] in "\"\u201c'"  # "my intro: \"The French ...\"": a paste
        if _LABEL.match(before) and sentence[kept[-1][1] :].lstrip().startswith(":") and not quoted:
            kept[-1] = (kept[-1][0], end)  # "My homelab: Proxmox on a Dell R720": one fact
            continue
        # "..., I can't stand them": a statement that needs what came before it keeps it (one
        # that would be dropped anyway, "..., so I'm nervous about it", is left to be dropped).
        if SPEAKS_OF_THE_ABOVE.search(part) and clause_verdict(tidy(part)) == "keep":
            kept[-1] = (kept[-1][0], end)
        else:
            kept.append((begin, end))
    parts = [sentence[begin:end] for begin, end in kept]
    return [p for part in (*parts, *asides) for p in _and_i(part) if p.strip()]


# "my brother and my niece": who a dash hands the clause before it to, not a clause of its own.
_WHO = re.compile(
    r"^\s*(?:(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?\s*(?:,|\band\b|&)?\s*)+[.!]?\s*$", re.I
)
# "My homelab", "Our setup", "My stack": a label its colon hands to what follows.
_LABEL = re.compile(r"^\s*(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?\s*$", re.I)
# Clauses kept whatever the embedding model makes of them: a preference or dislike of the
# writer's own ("I prefer trains to planes", "I hate being asked follow-up questions"), an age,
# a milestone ("Finally handed in my thesis"). Only clauses `clause_verdict` keeps get here.
SURE_LASTING = re.compile(
    r"^(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|definitely\s+|generally\s+|usually\s+|"
    r"always\s+|actually\s+|honestly\s+|absolutely\s+|still\s+)?(?:prefer|hate|can't\s+stand|"
    r"cannot\s+stand|dislike|don't\s+like|do\s+not\s+like|detest|loathe|love|adore|enjoy)\s+"
    r"(?!(?:it|this|that|these|those|them|you|your|how|when|what|the\s+(?:idea|answer|way|first|"
    r"second|last|other))\b)|"
    r"^i(?:'m|\s+am)\s+\d{1,2}(?:\s+years?\s+old)?\s*[.!]*(?:\s+and\b|,|$)|"
    r"^(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:finally|officially)\s+(?:\w+ed|got|bought|passed|"
    r"became|quit|paid\s+off)\b.*\b(?:my|our)\b|^i\s+(?:finally|officially)\s+quit\s+\w+ing\b",
    re.I,
)
# A first-person clause that points back at what came before it.
SPEAKS_OF_THE_ABOVE = re.compile(
    r"^\s*(?:i|i'm|im|i've|i'd|we|we're|my)\b.*(?:\b(?:them|it|this|that|these|those)\s*[.!]*\s*$|"
    r"\b(?:of|about|with|for|on|to)\s+(?:them|it|this|that|these|those)\b)",
    re.I,
)


_AND_I = re.compile(r"\s+and\s+(?=(?:i|i'm|im|i've|ive)\b)", re.I)


def _and_i(clause: str) -> list[str]:
    """ "I'm a pescatarian and I'm lactose intolerant": two facts, two memories. Not when the
    left side is too short to stand alone ("My wife and I have two kids")."""
    parts: list[str] = []
    start = 0
    for match in _AND_I.finditer(_masked(clause)):
        if len(clause[start : match.start()].split()) >= 3:
            parts.append(clause[start : match.start()])
            start = match.end()
    return [*parts, clause[start:]]


# "Been stuck at V4 for two months", "Officially retired after 38 years": the "I" left out.
_NO_SUBJECT_AS = {
    "been": "I've been",
    "got": "I got",
    "started": "I started",
    "retired": "I retired",
    "moved": "I moved",
    "grew": "I grew",
    "born": "I was born",
    "raised": "I was raised",
    "loved": "I loved",
    "love": "I love",
    "hate": "I hate",
    "prefer": "I prefer",
    "want": "I want",
    "working": "I'm working",
    "living": "I'm living",
    "studying": "I'm studying",
    "used": "I used",
    "retiring": "I'm retiring",
    "moving": "I'm moving",
    "relocating": "I'm relocating",
    "have": "I have",
    "own": "I own",
    "can't": "I can't",
    "cannot": "I cannot",
}
_NO_SUBJECT = re.compile(
    r"^(?:(?:officially|finally|just|recently|mostly|really|always|still|also|only)\s+)?"
    rf"(?P<verb>{'|'.join(_NO_SUBJECT_AS)})\b(?!\s+(?:you|it|this|that)\b)",
    re.I,
)
# "Usually cycle to work", "Honestly can't eat anything spicy", "Always wanted to learn the
# cello": an adverb of habit or stance, then a verb with its "I" left out. Only after such an
# adverb: a bare "Work is busy" or "Cycle lanes here…" opens on a noun.
_ADVERB_LED = re.compile(
    r"^(?P<adverb>(?:usually|normally|generally|typically|currently|honestly|never|always|"
    r"often|sometimes|rarely|seldom|mostly|mainly|only|still|already|finally|actually|"
    r"basically|definitely|literally|barely|hardly)\s+)+"
    r"(?P<verb>(?:can't|cannot|can|don't|didn't|won't|couldn't|do|did|was|am|cycle|bike|ride|"
    r"drive|walk|run|swim|eat|ate|drink|drank|cook|work|worked|live|lived|speak|spoke|play|"
    r"teach|study|train|go|went|take|took|use|wear|sleep|get|read|watch|listen|write|have|"
    r"had|need|like|love|hate|prefer|enjoy|feel|felt|struggle|avoid|try|tried|bought|sold|"
    r"made|grew|knew|know|think|thought|wanted|liked|loved|hated|enjoyed|struggled|"
    r"avoided|preferred|owned|own))\b(?!\s+(?:you|it|this|that)\b)",
    re.I,
)
# "was a project manager in construction for 12 years": what the writer was, the "I" left out.
# The writer as a subject ("my stomach hates it" still leaves "Can't eat anything spicy" without
# one).
_SUBJECT_I = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|we|we're|we've|we'd)\b", re.I)
_WAS_A = re.compile(r"^was\s+(?:an?|the)\s+\w", re.I)
# "Since two years living in Dublin": a non-native "seit zwei Jahren" / "depuis deux ans" with
# the "I" left out; said as "I have been living in Dublin for two years".
_SINCE_YEARS = re.compile(
    r"^since\s+(?P<time>(?:[\w-]+\s+){0,2}?(?:years?|months?|decades?))\s*,?\s+"
    r"(?P<what>(?:i\s+(?:am|'m)\s+|i'm\s+|am\s+)?(?:living|working|studying|learning|playing|"
    r"teaching|running|doing|married|vegetarian|vegan)\b.*)$",
    re.I,
)
_GUESS_WHO = re.compile(r"^guess\s+who(?:('s|\s+is)|\s+(?=\w))\s*", re.I)
# "Officially a grandma!", "Now a dad of two": an announcement with the "I'm" left out.
_NOW_A = re.compile(r"^(?:officially|now|finally|proudly|newly)\s+(?:a|an)\s+\w", re.I)
# "Since I'm lactose intolerant, what ...": the reason is a statement of its own.
_BECAUSE = re.compile(
    r"^(?:since|because|cause|cos|as|given\s+that|now\s+that|seeing\s+as|considering)\s+"
    r"(?=(?:i|i'm|im|i've|ive|we|we're|we've|my|our)\b)",
    re.I,
)


def tidy(clause: str) -> str:
    """The clause as a memory: no leading filler, no dangling punctuation; the words are kept."""
    text = re.sub(r"\s+", " ", clause).strip()
    previous = None
    while previous != text:
        previous = text
        text = _LEADING_FILLER.sub("", text).strip()
    text = re.sub(r"\s*\(+[!?.]*$", "", text).strip(" ,;:-\u2014\u2013")
    text = _BECAUSE.sub("", text)
    guess = _GUESS_WHO.match(text)
    if guess:  # "Guess who finally quit smoking?": an announcement, not a question
        text = ("I'm " if guess.group(1) else "I ") + text[guess.end() :].rstrip("?! ")
    as_a = re.match(r"^as (a|an|someone who|someone with|someone)\b\s*(.+)$", text, re.I)
    being = re.match(r"^being\s+(?:an?\s+)?(\w[\w -]{2,40})$", text, re.I)
    dropped = _NO_SUBJECT.match(text)
    a_now = _NOW_A.match(text)
    led = _ADVERB_LED.match(text)
    since = _SINCE_YEARS.match(text)
    if since:
        what = re.sub(r"^(?:i\s+am|i'm|am)\s+", "", since.group("what"), flags=re.I)
        cut = re.match(r"([^,;.!]*)(.*)$", what)
        head, tail = (cut.group(1), cut.group(2)) if cut else (what, "")
        text = f"I have been {head.strip()} for {since.group('time')}{tail}"
    elif ((led and not dropped) or _WAS_A.match(text)) and not _SUBJECT_I.search(text):
        text = f"I {text[0].lower()}{text[1:]}"
    elif a_now and not has_first_person(text):
        text = f"I'm {text[0].lower()}{text[1:]}"
    elif as_a and not has_first_person(text):
        text = f"I'm {as_a.group(1)} {as_a.group(2)}"
    elif being and not has_first_person(text):
        text = f"I'm {text[len('being ') :]}"
    elif dropped and not _SUBJECT_I.search(text):
        subject = _NO_SUBJECT_AS[dropped.group("verb").lower()]
        adverb = text[: dropped.start("verb")].strip().lower()
        rest = text[dropped.end("verb") :]
        text = (
            f"{subject.split()[0]} {adverb + ' ' if adverb else ''}{' '.join(subject.split()[1:])}"
        )
        text = re.sub(r"\s+", " ", f"{text}{rest}").strip()
    if text and text[0].islower() and text[:2] not in ("i ", "i'"):
        text = text[0].upper() + text[1:]
    text = re.sub(r"^i(?=\b|')", "I", text)
    return text
