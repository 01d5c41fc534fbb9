"""The local extractor on messages that are not English: the self-statements they make, kept as
written (the embedding model is English-first, so nothing here is scored).

A message is cleared of code blocks and quoted text (a letter to polish is not its writer
speaking), then read sentence by sentence. A sentence that reads as a self-statement in one of the
languages of `LANGUAGES` (their patterns per family in memories/extraction/languages/: a
first-person word, no request, question, state of the moment or hypothetical) is kept whole.
Otherwise its comma- and dash-parts are read: "Je suis diabétique de type 1, est-ce que je peux
courir le marathon ?" keeps "Je suis diabétique de type 1", "Schreib mir ein Rezept ohne Koriander,
ich mag ihn nicht" keeps "ich mag ihn nicht"; consecutive parts that ask nothing stay together,
kept when one of them speaks of the writer.

Written from bench/data/extraction_multilingual.txt's and extraction_fresh.txt's dev parts,
tests/memories/data/extraction_recall.txt (issue 38, item 3) and the dev parts of the later sets
there (voices, threads, asides, ml2), each written before the rules read from it.
"""

from __future__ import annotations

import re

from memories.extraction.languages.cjk import CHINESE, JAPANESE
from memories.extraction.languages.germanic import DUTCH, GERMAN
from memories.extraction.languages.language import Language
from memories.extraction.languages.romance import FRENCH, ITALIAN, PORTUGUESE, SPANISH
from memories.extraction.languages.slavic import RUSSIAN
from memories.extraction.local_paste import CODE_FENCE, drop_code
from memories.extraction.local_rules import is_roleplay

LANGUAGES: tuple[Language, ...] = (
    SPANISH,
    FRENCH,
    GERMAN,
    ITALIAN,
    PORTUGUESE,
    DUTCH,
    RUSSIAN,
    CHINESE,
    JAPANESE,
)

_QUESTION_MARKS = re.compile(r"[?¿\uff1f؟]")
_MAX_CHARS = 600  # longer (once code and quotes are gone) is pasted material
# Quoted text, closed or running to the end: «...», "...", „...“, 「...」, 『...』.
_QUOTED = re.compile(
    r"«[^»]*(?:»|\Z)|\"[^\"]*(?:\"|\Z)|“[^”]*(?:”|\Z)|„[^“”]*(?:[“”]|\Z)|「[^」]*(?:」|\Z)|"
    r"『[^』]*(?:』|\Z)",
    re.S,
)
_SENTENCE = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s*|\n+|\s*(?=[\u00bf\u00a1])")
_PART = re.compile(r"(?<=[,;\uff0c\u3001\uff1b])\s*|\s+[\u2013\u2014-]\s+")


def is_aside(text: str) -> bool:
    """Asks, requests, holds only for now, or imagines, in some language."""
    if _QUESTION_MARKS.search(text):
        return True
    return any(
        language.request.search(text)
        or language.temporary.search(text)
        or language.hypothetical.search(text)
        for language in LANGUAGES
    )


def _is_game(message: str) -> bool:
    return is_roleplay(message) or any(language.roleplay.search(message) for language in LANGUAGES)


def _someone_else(text: str) -> bool:
    return any(lang.someone_else and lang.someone_else.search(text) for lang in LANGUAGES)


def _speaks_of_the_writer(text: str) -> bool:
    if _someone_else(text):
        return False
    return any(
        language.self_statement.search(text)
        or (language.pro_drop is not None and language.pro_drop.search(text))
        for language in LANGUAGES
    )


def foreign_verdict(message: str) -> bool:
    """Keep a non-English text whole? Only a self-statement in a language we know that asks
    nothing."""
    text = message.strip()
    if len(text) > _MAX_CHARS or _is_game(text) or is_aside(text):
        return False
    return _speaks_of_the_writer(text)


# A letter's salutation or sign-off: the paragraph is a letter to polish, not its writer
# speaking to the assistant.
_LETTER = re.compile(
    r"^\s*(?:sehr geehrte|liebe[rs]? (?:frau|herr)|estimad[oa]s?|querid[oa] (?:señor|señora)|"
    r"prezad[oa]s?|caro senhor|cara senhora|madame|monsieur|chère|cher|уважаем\w+|尊敬的|"
    r"お世話になっております|拝啓)(?![\w'’])"
    r"|(?<![\w'’])(?:mit freundlichen grüßen|atentamente|saludos cordiales|atenciosamente|"
    r"cordialement|bien à vous|с уважением)(?![\w'’])|此致|敬具",
    re.I | re.M,
)


def _cleared(message: str) -> str:
    """Without code blocks, code lines, quoted text and letters; a line ending in a colon
    introduced what followed, and so does a first line that asks for work on a text ("Kannst
    du den Text korrigieren?\nSehr geehrte…")."""
    text = _QUOTED.sub(" ", drop_code(CODE_FENCE.sub(" ", message)))
    text = re.sub(r"(?<=[:\uff1a])\s*\n.*", "", text, flags=re.S).strip()
    first, _, rest = text.partition("\n")
    if rest.strip() and is_aside(first) and _A_TASK.search(first):
        return first.strip()
    paragraphs = re.split(r"\n\s*\n", text)
    return "\n\n".join(p for p in paragraphs if not _LETTER.search(p)).strip()


def _parts_kept(sentence: str) -> list[str]:
    """The runs of consecutive parts of a sentence that ask nothing, when one speaks of the
    writer; none when the sentence holds for now only."""
    parts = _PART.split(sentence)
    if any(
        language.temporary.search(part)
        for part in parts
        if not _asks(part)
        for language in LANGUAGES
    ):
        # "Der Zug hat Verspätung, ich dreh durch": the whole sentence is of the moment; a
        # request's own time ("ideas for dinner this week, no coriander, I hate it") is not
        return []
    out: list[str] = []
    run: list[str] = []
    for part in [*parts, ""]:
        if part.strip() and not is_aside(part):
            run.append(part.strip())
            continue
        joined = _joined(run).strip(" ,;\uff0c\u3001\uff1b-\u2013\u2014")
        speaks = _speaks_of_the_writer(joined) or (
            not _someone_else(joined)
            and any(_speaks_of_the_writer(p.strip(" ,;\uff0c\u3001\uff1b")) for p in run[1:])
        )
        if len(joined) >= 4 and (speaks or _AS_WHAT_I_AM.match(joined)):
            out.append(joined)
        run = []
    return out


def _joined(parts: list[str]) -> str:
    """Parts put back together: with a space, but none after Chinese or Japanese."""
    out = ""
    for part in parts:
        out += part if not out or _CJK_END.search(out) else f" {part}"
    return out


_CJK_END = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]$")


def _asks(text: str) -> bool:
    return bool(_QUESTION_MARKS.search(text)) or any(
        language.request.search(text) for language in LANGUAGES
    )


# What the writer is, said before what they ask: "Como hipertenso, posso tomar café?",
# "Como madre de dos…", "作为一个刚搬到广州的北方人，我应该…" (a part of its own; French
# "étant" / "en tant que" is its pro_drop).
_AS_WHAT_I_AM = re.compile(
    r"^(?:como|enquanto)\s+(?:(?:una?|um|uma)\s+)?(?!(?:siempre|sempre|te|le|lo|la|se|ya|já|"
    r"dije|disse|dijiste|sabes|sabe|você|usted|tú|ti|yo|eu|de|en|em|no|não|cuando|quando|"
    r"todo|tudo|el|o|os|los|las|as|a|esto|isso|isto)(?![\w'’]))\w+(?:\s+\w+){0,4}$"
    r"|^作为一?(?:个|名|位)?(?!.*(?:AI|助手|专家|顾问|模型|机器人|老师，))\S{2,}$",
    re.I,
)


# Around a paste, a sentence that says what the pasted text is speaks of the text, not of its
# writer: "C'est un extrait de roman pour mon cours", "Das ist mein Entwurf", "这是我写的".
_THE_PASTE_IS = re.compile(
    r"^(?:c['’]est|ce sont|das ist|dies ist|das sind|es (?:un|una|el|la|mi)|esto es|eso es|"
    r"isso é|isto é|é (?:um|uma|o|a|meu|minha)|это)(?![\w'’])|^(?:这是|这段|以上是|これは)",
    re.I,
)


def foreign_statements(message: str) -> list[str]:
    """The self-statements of a non-English message, as written: the whole message when it is
    one, else its sentences and parts that are (see the module's docstring)."""
    if _is_game(message):
        return []
    text = _cleared(message)
    if not text or len(text) > _MAX_CHARS:
        return []
    pasted = bool(_QUOTED.search(message) or CODE_FENCE.search(message))
    if foreign_verdict(text) and not (pasted and _THE_PASTE_IS.match(text)):
        return [text]
    out: list[str] = []
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip()
        if not sentence or (pasted and _THE_PASTE_IS.match(sentence)):
            continue
        if foreign_verdict(sentence) or standing_preference(sentence):
            out.append(sentence.rstrip(" ,;\uff0c\u3001\uff1b"))
        else:
            out.extend(_parts_kept(sentence))
    return out


# How the writer wants to be answered, asked once for good: the form of address ("Bitte duz
# mich", "Tutoie-moi", "Háblame de tú", "Говори со мной на ты"), emojis, or an order meant to
# last ("from now on", "always", "never"). English has its own (`local_rules._STANDING`).
_STANDING_WAY = re.compile(
    r"(?<![\w'’])(?:duz\w*|siez\w*|tutoie\w*|tutoy\w+|vouvoie\w*|vouvoy\w+|de tú|de usted|"
    r"на ты|на вы|emojis?|émojis?|smileys?|smilies|смайлик\w*|эмодзи|ab jetzt|künftig|"
    r"in zukunft|immer|nie|niemals|всегда|никогда|впредь|siempre|nunca|de ahora en adelante|"
    r"toujours|jamais|désormais|à l['’]avenir|sempre|a partir de agora|daqui pra frente|"
    r"de agora em diante)(?![\w'’])"
    r"|タメ口|絵文字|今後|これから(?:は)?|いつも|以后|今后|永远|总是|表情",
    re.I,
)
# The request is about the assistant's answers or its way of speaking to the writer.
_TO_ME = re.compile(
    r"(?<![\w'’])(?:mich|mir|me|moi|-moi|mí|мне|меня|со мной|mim|comigo|conmigo|antworte\w*|"
    r"schreib\w*|réponds|répond\w*|écris|responde\w*|escrib\w*|escreva|пиши\w*|отвеча\w*|"
    r"говори\w*|обращайся)(?![\w'’])|我|私に|回答|返事|答え",
    re.I,
)


# Something to write for the writer: the request is a task ("Напиши мне пост с эмодзи").
_A_TASK = re.compile(
    r"(?<![\w'’])(?:e-?mails?|mails?|brief|briefe|text|texte?s?|texto|post|posts|artikel|"
    r"gedicht|rede|lettre|poème|discours|carta|correo|artículo|poema|discurso|legenda|artigo|"
    r"mensagem|mensaje|message|пост|письмо|текст|статью|стих|речь|поздравление|сообщение|"
    r"code|código|код)(?![\w'’])|邮件|文章|帖子|文案|メール|文章|投稿|手紙",
    re.I,
)


def standing_preference(sentence: str) -> bool:
    """A request of how the writer wants to be answered from now on, not a task: kept like a
    statement ("Bitte duz mich einfach", "Пиши мне без смайликов, пожалуйста")."""
    if _QUESTION_MARKS.search(sentence) or any(
        language.temporary.search(sentence) or language.hypothetical.search(sentence)
        for language in LANGUAGES
    ):
        return False
    if _A_TASK.search(sentence):
        return False
    return bool(_STANDING_WAY.search(sentence) and _TO_ME.search(sentence))


# A sentence that opens on someone or somewhere already named: "Ella só pega sol de manhã", "Der
# Boden dort ist lehmig", "Там глина", "她已经学了一年古筝了", "Le tiene pánico a los petardos".
_REFERS_BACK = re.compile(
    r"^(?:(?:ella|él|ellos|ellas|le|les|allí|allá|ahí|ela|ele|elas|eles|lá|ali|elle|il|elles|"
    r"ils|là-bas|sie|er|dort|da|он|она|оно|они|ему|ей|им|там)(?![\w'’])|"
    r"(?:der|die|das|el|la|los|las|le|les|o|a|os|as)\s+\w+\s+(?:dort|allí|ahí|lá|là-bas)\b|"
    r"她|他|它|那里|那边|彼女|彼|そこ|"
    # or on how often or how much, going on about what the writer said before: "Meistens mit
    # dem Rad", "Même quand il pleut", "Quase na metade já", "В основном по приложению",
    # "だいたい週に三回", "一般周末去"; "Se llama Lupo" names what was named before
    r"(?:meistens|meist|hauptsächlich|vor allem|normalerweise|fast immer|immer|fast|"
    r"même|surtout|presque|toujours|d['’]habitude|souvent|principalement|"
    r"casi|sobre todo|principalmente|normalmente|siempre|quase|sempre|geralmente|"
    r"в основном|обычно|всегда|почти|чаще всего|даже)(?![\w'’])|"
    r"(?:se llama|se llaman|se chama|chama-se|s['’]appelle|heißt|heisst|зовут)(?![\w'’])|"
    r"大概|一般|通常|基本上|主要|平时|几乎|差不多|叫|"
    r"だいたい|たいてい|いつも|主に|普段|ほとんど|ほぼ|名前は|"
    # or adds to it ("Auch im Winter", "Y tampoco tomo gluten", "还有芒果，也不能碰"), says how
    # often ("Jeden Samstag", "毎週土曜日の午前中です", "每周两次") or where it is ("Fica em
    # Ubatuba", "Liegt am See", "Находится в центре")
    r"(?:auch|außerdem|ausserdem|aussi|également|también|tampoco|además|também|além disso|"
    r"тоже|также|ещё|еще|а ещё|а еще|jeden|jede|jedes|zweimal|dreimal|chaque|tous les|"
    r"toutes les|deux fois|trois fois|cada|todos los|todas las|dos veces|tres veces|"
    r"todos os|todas as|duas vezes|três vezes|каждый|каждую|каждое|каждые|раз в|два раза|"
    r"три раза|по (?:выходным|субботам|воскресеньям|утрам|вечерам)|fica|ficam|queda|quedan|"
    r"se encuentra|se trouve|liegt|находится)(?![\w'’])|"
    r"还有|也|另外|每(?:天|周|个|月|年|晚|早)|位于|"
    r"それに|あと|また|毎(?:日|週|朝|晩|月|年)|週に|月に|"
    # Russian drops the subject named before: "Очень любит плавать", "Живёт с нами с щенка"
    r"(?:(?:очень|тоже|уже|всегда|обычно|часто)\s+)?(?!(?:кажется|считается|получается|"
    r"зависит|стоит|значит|следует|хватит|говорит|пишет|спрашивает|ответ)(?!\w))"
    r"\w{2,}(?:ает|яет|ует|ит|ёт)(?:ся)?(?!\w))",
    re.I,
)


def foreign_followups(message: str) -> list[str]:
    """In a conversation where the writer has spoken of themselves, the sentences of a later
    non-English message that go on about someone or somewhere already named and ask nothing:
    "Ela só pega sol de manhã." after "Tenho uma varanda pequena"; kept as written."""
    if _is_game(message):
        return []
    text = _cleared(message)
    if not text or len(text) > _MAX_CHARS:
        return []
    out: list[str] = []
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip()
        if not _REFERS_BACK.match(sentence):
            continue
        if _someone_else(sentence):
            continue
        parts = [part for part in _PART.split(sentence) if part.strip()]
        kept = [part.strip() for part in parts if not is_aside(part)]
        if kept and kept[0] == parts[0].strip() and not _is_aside_in_whole(sentence):
            out.append(_joined(kept).strip(" ,;\uff0c\u3001\uff1b"))
    return out


def _is_aside_in_whole(sentence: str) -> bool:
    """Of the moment or imagined, anywhere in the sentence (a question after a comma is not)."""
    return any(
        language.temporary.search(sentence) or language.hypothetical.search(sentence)
        for language in LANGUAGES
    )
