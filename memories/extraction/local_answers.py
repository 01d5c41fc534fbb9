"""A short answer read with the question it answers.

Asked "What do you do for a living?", a person writes "nurse, mostly night shifts"; asked "Do
you have any pets?", "Yes, two cats." Read alone, neither says what it is about. Here the
assistant's question just before the message (an import's previous message) is turned into the
person's own words ("What do you do" -> "What I do", "Do you have any pets" + yes -> "I have
pets") and the answer's leading fragment is joined to it: "What I do for a living: nurse, mostly
night shifts". Nothing is taken from the assistant's message but the subject of its last
question; its statements are never kept. A question about the task at hand ("Would you like it
shorter?", "Which option fits best?") or one that does not ask about the person (no "you") gives
nothing, nor does an answer that decides nothing ("not sure yet", "sure, go ahead").

Questions in every language the product claims are read: English ones in full (the answer's
leading fragment, the rest of the message read as usual), the others whole (a short answer, kept
as "question in the person's words: answer", the answer's words as written so that what makes a
fact sensitive, "diabetes", stays in it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memories.extraction.local_clauses import sentences
from memories.extraction.local_paste import CODE_FENCE
from memories.extraction.local_rules import has_first_person, looks_english
from memories.language import detect

_MAX_ANSWER_WORDS = 25
_MAX_QUESTION_CHARS = 240


def last_question(previous: str) -> str | None:
    """The question the assistant's message ends on: its last sentence with a question mark,
    when that is one of its last two sentences (a question early in a long answer is not what
    the next message answers)."""
    said = [
        part
        for sentence in sentences(previous.strip()[-1500:])
        for part in re.split(r"(?<=[\u3002\uff01\uff1f])", sentence)  # Chinese sentence ends
        if part.strip()
    ]
    for sentence in reversed(said[-2:]):
        if re.search(r"[?\uff1f]\s*$", sentence) and len(sentence) <= _MAX_QUESTION_CHARS:
            return sentence.strip()
    return None


# --- English --------------------------------------------------------------------------------

# About the task in hand, not the person: "Would you like it shorter?", "Which of the three do you
# like?", "Did you mean the 2019 report?", "Are you still getting the error?".
_ABOUT_THE_TASK = re.compile(
    r"\b(?:would\s+you\s+(?:like|prefer|want)|do\s+you\s+want|want\s+me|should\s+i|shall\s+i|"
    r"can\s+i|may\s+i|me\s+to|which\s+(?:one|option|version|draft|of|format|style|tone|layout)|did\s+you\s+mean|"
    r"are\s+you\s+still|still\s+(?:getting|seeing|having)|did\s+(?:that|this|it)|"
    r"does\s+(?:that|this|it)|is\s+(?:that|this|it)\b|(?:this|that|the)\s+(?:error|bug|code|"
    r"draft|version|email|letter|essay|script|query|function|list|plan)\b|"
    r"can\s+you\s+(?:share|paste|send|show|tell|give|clarify|confirm))",
    re.I,
)
_ALTERNATIVES = re.compile(r",\s*(?:or|and)\s+|\s+or\s+(?=should|shall|would|do\s+you\s+want)")
_YOU = re.compile(r"\b(?:you|your|you're|yours|yourself)\b", re.I)
_SWAPS = (
    (r"\bare\s+you\b", "am I"),
    (r"\bwere\s+you\b", "was I"),
    (r"\byou\s+are\b", "I am"),
    (r"\byou\s+were\b", "I was"),
    (r"\byou're\b", "I'm"),
    (r"\byou've\b", "I've"),
    (r"\byou'd\b", "I'd"),
    (r"\byou'll\b", "I'll"),
    (r"\byourself\b", "myself"),
    (r"\byours\b", "mine"),
    (r"\byour\b", "my"),
    (r"\byou\b", "I"),
)
# "What do you do", "Where are you based": a question word, then the verb before "you".
_WH = re.compile(
    r"^(?P<wh>(?:what|which|where|how|who|when|why)\b(?:\s+(?!(?:do|does|are|is|have|has)\b)"
    r"[\w'-]+){0,4}?)\s+(?P<aux>do|does|are|have)\s+you\b(?P<rest>.*)$",
    re.I,
)
_WHATS_YOUR = re.compile(r"^(?:what|who)(?:'s|\s+is|\s+are)\s+(?=your\b)", re.I)
_YES_NO = re.compile(
    r"^(?P<aux>do|are|have|can|is|was|were|did)\s+(?P<who>you|your\b)(?P<rest>.*)$", re.I
)
_AFFIRMATIVE = {"do": "I", "are": "I'm", "have": "I have", "can": "I can", "were": "I was"}
_NEGATIVE = {"do": "I don't", "are": "I'm not", "have": "I haven't", "can": "I can't"}
_YES = re.compile(
    r"^(?:yes|yeah|yep|yup|ya|yea|sure\s+do|i\s+do|definitely|absolutely|of\s+course)\b[\s,.!:;-]*",
    re.I,
)
_NO = re.compile(
    r"^(?:no|nope|nah|not\s+(?:really|anymore|any\s+more|at\s+all)|never)\b(?=$|[\s,.!:;-])"
    r"[\s,.!:;-]*",
    re.I,
)
# An answer that decides nothing, or says yes to the task.
_NO_ANSWER = re.compile(
    r"^(?:not\s+sure|unsure|idk|i\s+don't\s+know|dunno|no\s+idea|depends|it\s+depends|maybe|"
    r"haven't\s+decided|not\s+decided|undecided|whatever|either|any|both|doesn't\s+matter|"
    r"no\s+preference|sure|ok|okay|thanks|thank\s+you|thx|go\s+ahead|please|pls|great|perfect|"
    r"sounds\s+good|same|still|kind\s+of|sort\s+of)\b",
    re.I,
)
_PRONOUN_LEAD = re.compile(r"^(?:he|she|it|they|he's|she's|it's|they're|this|that)\b", re.I)


def _first_person(question: str) -> str:
    text = question
    for pattern, said in _SWAPS:
        text = re.sub(pattern, said, text, flags=re.I)
    return text


def _english_frame(question: str, answer: str) -> str | None:
    """The question in the person's words, completed by the answer's polarity: "Do you smoke?"
    and "No, quit in 2019" -> ("I don't smoke", "quit in 2019")."""
    q = re.sub(r"^(?:and|so|also|ok|okay|great|thanks)\b[\s,!]*", "", question, flags=re.I)
    # "Do you eat meat, or should I keep it vegetarian?": the part that asks about the person
    parts = [
        p
        for p in re.split(r",\s*(?:or|and)\s+|\s+or\s+(?=should|shall|would|do\s+you\s+want)", q)
        if p
    ]
    kept = [p.strip(" ?\uff1f") for p in parts if _YOU.search(p) and not _ABOUT_THE_TASK.search(p)]
    if not kept:
        return None
    q = ", and ".join(kept)
    yes = _YES.match(answer)
    no = None if yes else _NO.match(answer)
    polarity = yes or no
    rest = answer[polarity.end() :] if polarity else answer
    yes_no = _YES_NO.match(q)
    if yes_no and (yes or no) and yes_no.group("who").lower() == "you":
        aux = yes_no.group("aux").lower()
        table = _AFFIRMATIVE if yes else _NEGATIVE
        if aux in table:
            said = _first_person(yes_no.group("rest")).strip()
            said = re.sub(r"\bany\s+", "", said, flags=re.I) if yes else said
            frame = f"{table[aux]} {said}".strip()
            return f"{frame}: {rest}" if rest.strip(" .!") else f"{frame}."
    if yes_no and yes_no.group("who").lower() == "your" and yes_no.group("aux").lower() == "is":
        frame = f"Is {_first_person(yes_no.group('who') + yes_no.group('rest')).strip()}"
    else:
        wh = _WH.match(q)
        whats = _WHATS_YOUR.match(q)
        if whats:
            frame = _first_person(q[whats.end() :])
        elif wh:
            aux = {"do": "", "does": "", "are": " am", "have": " have"}[wh.group("aux").lower()]
            frame = f"{wh.group('wh')} I{aux}{_first_person(wh.group('rest'))}"
        else:
            frame = _first_person(q)
    frame = frame.strip()
    frame = frame[0].upper() + frame[1:]
    return f"{frame}: {answer}"


def _answer_head(message: str) -> tuple[str, str]:
    """The message's leading fragment (its first sentences and comma-parts without a first
    person) and what follows it: "61, I walk the dog daily" -> ("61", "I walk the dog daily")."""
    text = message.strip()
    head: list[str] = []
    words = 0
    position = 0
    for match in re.finditer(r"[^,.;!?\n]+[,.;!?\n]*", text):
        part = match.group(0)
        if (has_first_person(part) and not _NO_ANSWER.match(part.strip())) or (
            head and _PRONOUN_LEAD.match(part.strip())
        ):
            break
        words += len(part.split())
        if words > _MAX_ANSWER_WORDS:
            return "", text
        head.append(part)
        position = match.end()
    return "".join(head).strip(), text[position:].strip()


@dataclass(frozen=True)
class Answer:
    """A short answer completed from the question before it, and the rest of the message."""

    text: str
    rest: str


def reads_as_english(message: str, previous: str) -> bool:
    """English by its words (code blocks aside), or a short answer to an English question
    ("Yes, two cats.", whose words alone are too few to tell); a few words after a question in
    another language ("52 ans") are English only when the language identifier says so."""
    question = last_question(previous) if previous else None
    if question is not None and not looks_english(question) and len(message.split()) <= 8:
        return detect(message).code == "en"  # "Em Curitiba, perto do centro": "do" is English
    if looks_english(CODE_FENCE.sub(" ", message)):
        return True
    return (
        question is not None
        and len(message.split()) <= _MAX_ANSWER_WORDS
        and looks_english(question)
        and looks_english(f"{question} {message}")
    )


def english_answer(previous: str, message: str) -> Answer | None:
    """The message's leading fragment as a statement about the person, joined to the question
    it answers; None when the message does not open with one or the question is not about the
    person."""
    question = last_question(previous) if previous else None
    if question is None or not looks_english(question):
        return None
    head, rest = _answer_head(message)
    if not head or _PRONOUN_LEAD.match(head) or (_NO_ANSWER.match(head) and not _NO.match(head)):
        return None
    if not re.search(r"\w", head):
        return None
    completed = _english_frame(question, head.rstrip(" ,;"))
    if completed is None:
        return None
    return Answer(re.sub(r"\s+", " ", completed).strip(), rest)


# --- German and Chinese ---------------------------------------------------------------------

_DE_ABOUT_THE_TASK = re.compile(
    r"\b(?:soll\s+ich|sollen\s+wir|kann\s+ich|darf\s+ich|dass\s+ich|möchtest\s+du|möchten\s+Sie|"
    r"willst\s+du|wollen\s+Sie|hat\s+(?:das|es)|funktioniert|welche[rsn]?\s+(?:Variante|Version|"
    r"Option|davon))\b",
    re.I,
)
_DE_YOU = re.compile(r"\b(?:Sie|Ihr\w*|Ihnen|du|dein\w*|dir|dich)\b")
_DE_VERBS = {
    "bist": "bin",
    "sind": "bin",
    "hast": "habe",
    "haben": "habe",
    "kannst": "kann",
    "können": "kann",
    "willst": "will",
    "wollen": "will",
    "magst": "mag",
    "mögen": "mag",
    "weißt": "weiß",
    "wissen": "weiß",
    "isst": "esse",
    "essen": "esse",
    "liest": "lese",
    "lesen": "lese",
}
_DE_NO_ANSWER = re.compile(
    r"^(?:ja,?\s+bitte|nein,?\s+danke|danke|gerne|gern|okay|ok|weiß\s+(?:ich\s+)?nicht|"
    r"keine\s+Ahnung|egal|vielleicht|mal\s+sehen|noch\s+nicht\s+(?:sicher|entschieden))\b",
    re.I,
)
_ZH_ABOUT_THE_TASK = re.compile(
    r"要我|需要我|我(?:可以|应该|来)|帮你|这个|那个|哪个版本|哪一个|想要|语气|格式|风格|版本"
)
_ZH_NO_ANSWER = re.compile(r"^(?:好的?|行|可以|谢谢|不知道|随便|都行|还没(?:想好|决定)|不确定|嗯)")


def _german_verb(match: re.Match[str]) -> str:
    verb, pronoun = match.group(1), match.group(2)
    low = verb.lower()
    if low in _DE_VERBS:
        said = _DE_VERBS[low]
    elif pronoun == "du" and low.endswith("est"):
        said = low[:-3] + "e"
    elif pronoun == "du" and low.endswith("st"):
        said = low[:-2] + "e"
    elif pronoun == "Sie" and low.endswith("en"):
        said = low[:-1]
    else:
        return match.group(0)
    return f"{said.capitalize() if verb[0].isupper() else said} ich"


def _german_first_person(question: str) -> str:
    text = re.sub(r"\b(\w+)\s+(du|Sie)\b", _german_verb, question)
    text = re.sub(r"\b(?:dein|Ihr)(\w*)", r"mein\1", text)
    text = re.sub(r"\b(?:Ihnen|dir)\b", "mir", text)
    text = re.sub(r"\bdich\b", "mich", text)
    return re.sub(r"\b(?:du|Sie)\b", "ich", text)


# --- Spanish, French, Portuguese, Russian, Japanese ------------------------------------------


@dataclass(frozen=True)
class _Asking:
    """How a language asks about the person: the words that say "you", a question about the
    task at hand, an answer that decides nothing, and the swaps that put the question in the
    person's words ("¿A qué te dedicas?" -> "A qué me dedico")."""

    you: re.Pattern[str]
    about_the_task: re.Pattern[str]
    no_answer: re.Pattern[str]
    swaps: tuple[tuple[str, str], ...]


def _w(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w'’-])(?:" + "|".join(alternatives) + r")(?![\w'’])", re.I)


_ASKING = {
    "es": _Asking(
        _w(
            "tú",
            "tu",
            "tus",
            "te",
            "ti",
            "usted",
            "ustedes",
            "tienes",
            "eres",
            "estás",
            "vives",
            "trabajas",
            "haces",
            "usas",
            "comes",
            "hablas",
            "juegas",
            "practicas",
            "sueles",
            "tomas",
        ),
        _w(
            "quieres que",
            "prefieres que",
            "lo hago",
            "lo haga",
            "te parece",
            r"versi[óo]n",
            "formato",
            "debo",
            "puedo",
            "añado",
            "algo más",
            "otra cosa",
            "te ayudo",
        ),
        re.compile(
            r"^(?:s[ií],?\s+(?:por\s+favor|gracias|claro|vale)|gracias|vale|claro|no\s+s[ée]|"
            r"da\s+igual|quiz[áa]s?|tal\s+vez|ok|de\s+acuerdo|perfecto|genial)\b",
            re.I,
        ),
        (
            (r"¿", ""),
            (r"\btienes\b", "tengo"),
            (r"\beres\b", "soy"),
            (r"\bestás\b", "estoy"),
            (r"\bvives\b", "vivo"),
            (r"\btrabajas\b", "trabajo"),
            (r"\bhaces\b", "hago"),
            (r"\busas\b", "uso"),
            (r"\bcomes\b", "como"),
            (r"\bhablas\b", "hablo"),
            (r"\bjuegas\b", "juego"),
            (r"\bpracticas\b", "practico"),
            (r"\bsueles\b", "suelo"),
            (r"\btomas\b", "tomo"),
            (r"\btus\b", "mis"),
            (r"\btu\b", "mi"),
            (r"\btú\b", "yo"),
            (r"\bte (\w+)(?:as|es)\b", r"me \1o"),  # "te dedicas" -> "me dedico"
            (r"\bte\b", "me"),
            (r"\bti\b", "mí"),
            (r"\busted\b", "yo"),
        ),
    ),
    "fr": _Asking(
        re.compile(r"\b(?:vous|tu|te|toi|votre|vos|ton|ta|tes)\b|-(?:vous|tu)\b", re.I),
        _w(
            "voulez-vous",
            "veux-tu",
            "souhaitez-vous",
            "tu veux que",
            "vous voulez que",
            r"je (?:peux|dois|reformule|fais)",
            "version",
            "format",
            "reformule",
            "autre chose",
            "ça vous convient",
            "ça te va",
            r"préférez-vous (?:la|le|une|un)",
        ),
        re.compile(
            r"^(?:oui,?\s+(?:merci|s'il\s+vous\s+plaît|stp|svp)|merci|d'accord|ok|"
            r"je\s+ne\s+sais\s+pas|aucune\s+idée|peu\s+importe|peut-être|pas\s+sûr|parfait|"
            r"super)\b",
            re.I,
        ),
        (
            (r"\b(?:avez-vous|as-tu|vous avez|tu as)\b", "j'ai"),
            (r"\b(?:êtes-vous|es-tu|vous êtes|tu es)\b", "je suis"),
            (r"\b(\w+)ez-vous\b", r"je \1e"),
            (r"\bvous (\w+)ez\b", r"je \1e"),
            (r"\b(\w+)es-tu\b", r"je \1e"),
            (r"\btu (\w+)es\b", r"je \1e"),
            (r"\bvotre\b", "mon"),
            (r"\bvos\b", "mes"),
            (r"\bton\b", "mon"),
            (r"\bta\b", "ma"),
            (r"\btes\b", "mes"),
            (r"\bvous\b", "moi"),
            (r"\btoi\b", "moi"),
            (r"\btu\b", "je"),
            (r"\bte\b", "me"),
            (r"\bje ([aeéèiouh])", r"j'\1"),
        ),
    ),
    "pt": _Asking(
        _w("você", "vocês", "voce", "tu", "te", "teu", "tua", "seu", "sua", "seus", "suas"),
        _w(
            "quer que",
            r"prefere (?:a|o) (?:versão|formato)",
            "versão",
            "formato",
            "posso",
            "devo",
            "mais alguma",
            "algo mais",
        ),
        re.compile(
            r"^(?:sim,?\s+(?:por\s+favor|obrigad[oa])|obrigad[oa]|valeu|n[ãa]o\s+sei|tanto\s+faz|"
            r"talvez|ok|beleza|pode\s+ser|perfeito)\b",
            re.I,
        ),
        (
            (r"\bvocê tem\b", "eu tenho"),
            (r"\bvocê é\b", "eu sou"),
            (r"\bvocê está\b", "eu estou"),
            (r"\bvocê mora\b", "eu moro"),
            (r"\bvocê trabalha\b", "eu trabalho"),
            (r"\bvocê faz\b", "eu faço"),
            (r"\bvocê usa\b", "eu uso"),
            (r"\bvocê\b", "eu"),
            (r"\bseus\b", "meus"),
            (r"\bsuas\b", "minhas"),
            (r"\bseu\b", "meu"),
            (r"\bsua\b", "minha"),
            (r"\bteu\b", "meu"),
            (r"\btua\b", "minha"),
            (r"\bte\b", "me"),
            (r"\btu\b", "eu"),
        ),
    ),
    "ru": _Asking(
        _w("вы", "вас", "вам", r"ваш\w*", "ты", "тебя", "тебе", r"тво\w+"),
        _w(
            r"хотите,? чтобы",
            r"хочешь,? чтобы",
            r"мне (?:сократить|переписать|добавить)",
            "могу ли я",
            r"вариант\w*",
            r"верси\w+",
            "формат",
            r"сократил\w*",
            r"переписал\w*",
            "ещё что-нибудь",
        ),
        re.compile(
            r"^(?:да,?\s+пожалуйста|спасибо|не\s+знаю|неважно|может\s+быть|ок|хорошо|ладно|"
            r"без\s+разницы)",
            re.I,
        ),
        (
            (r"\bу (?:вас|тебя)\b", "у меня"),
            (r"\b(?:вам|тебе)\b", "мне"),
            (r"\b(?:вас|тебя)\b", "меня"),
            (r"\b(?:ваш|твой)\b", "мой"),
            (r"\b(?:ваша|твоя)\b", "моя"),
            (r"\b(?:ваше|твоё|твое)\b", "моё"),
            (r"\b(?:ваши|твои)\b", "мои"),
            (r"\b(?:вашей|твоей)\b", "моей"),
            (r"\b(?:вашего|твоего)\b", "моего"),
            (r"\b(\w+)етесь\b", r"\1юсь"),
            (r"\b(\w+)ешься\b", r"\1юсь"),
            (r"\b(\w+)ете\b", r"\1ю"),
            (r"\b(\w+)ешь\b", r"\1ю"),
            (r"\b(?:вы|ты)\b", "я"),
        ),
    ),
}
# A Japanese question rarely says "you": it asks about the person with these words.
_JA_ABOUT_YOU = re.compile(
    r"あなた|お仕事|ご職業|お住まい|お名前|おいくつ|何歳|ご家族|お子さん|ペット|アレルギー|"
    r"食べられない|苦手|されて|趣味|出身|飼って|お持ち"
)
_JA_ABOUT_THE_TASK = re.compile(
    r"しましょうか|しますか|いかがでしょうか|よろしいですか|どちらが|この文|修正|短く|長く|形式|"
    r"バージョン|他に"
)
_JA_NO_ANSWER = re.compile(
    r"^(?:はい、?お願いします|お願いします|ありがとう|わかりません|分かりません|どちらでも|"
    r"大丈夫です|結構です|はい$)"
)
_KANA = re.compile(r"[\u3040-\u30ff]")


def _asked_in(question: str, answer: str) -> str | None:
    """A Spanish, French, Portuguese, Russian or Japanese question about the person, in the
    person's words and joined to the answer; None when it is about the task or is answered by
    nothing."""
    if _KANA.search(question):
        if not _JA_ABOUT_YOU.search(question) or _JA_ABOUT_THE_TASK.search(question):
            return None
        if _JA_NO_ANSWER.match(answer):
            return None
        frame = re.sub(r"か?\s*[?\uff1f]\s*$", "", question)
        return f"{frame}\uff1a{answer}"
    asking = _ASKING.get(detect(question).code)
    if asking is None or not asking.you.search(question):
        # a short question is told apart better with its answer ("Tu as des allergies ?" alone
        # reads as English)
        asking = _ASKING.get(detect(f"{question} {answer}").code)
    if asking is None or not asking.you.search(question):
        return None
    if asking.about_the_task.search(question) or asking.no_answer.match(answer):
        return None
    frame = question
    for pattern, said in asking.swaps:
        frame = re.sub(pattern, said, frame, flags=re.I)
    frame = frame.strip().rstrip("?").strip()
    return f"{frame[:1].upper()}{frame[1:]}: {answer}"


def foreign_answer(previous: str, message: str) -> str | None:
    """A short answer in another language joined to the question it answers, in the person's
    words: "Haben Sie Haustiere?" / "Ja, zwei Katzen." -> "Habe ich Haustiere: Ja, zwei
    Katzen."; "¿A qué te dedicas?" / "enfermera" -> "A qué me dedico: enfermera"; None when
    the question is not one about the person."""
    question = last_question(previous) if previous else None
    answer = message.strip()
    if question is None or not answer or len(answer) > 120:
        return None
    if re.search(r"[\u4e00-\u9fff]", question) and not _KANA.search(question):
        if "你" not in question and "您" not in question:
            return None
        if _ZH_ABOUT_THE_TASK.search(question) or _ZH_NO_ANSWER.match(answer):
            return None
        if answer.startswith(("我", "我们")):
            return None  # a statement of its own
        frame = re.sub(r"[你您]", "我", question)
        frame = re.sub(r"[吗呢吧]?\s*[?\uff1f]\s*$", "", frame)
        return f"{frame}\uff1a{answer}"
    if detect(question).code != "de":
        return _asked_in(question, answer)
    if not _DE_YOU.search(question) or _DE_ABOUT_THE_TASK.search(question):
        return None
    if _DE_NO_ANSWER.match(answer):
        return None
    if re.match(r"(?:ich|wir|mein\w*|unser\w*)\b", answer, re.I):
        return None
    frame = _german_first_person(question).strip().rstrip("?").strip()
    return f"{frame}: {answer}"
