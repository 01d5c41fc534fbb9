"""The rule half of the local extractor: what a clause cannot be.

A message a person typed into an assistant is mostly a request, often with pasted material (code,
logs, an email to polish, a draft) and sometimes with a lasting fact about them, anywhere in it.
Pasted material is cut first (`local_paste.py`), the rest split into sentences and clauses
(`local_clauses.py`); these rules drop the clauses that cannot be a lasting self-statement: no
first person, questions, requests, hypotheticals, meta-talk about the conversation, states of the
moment. Role-play drops the whole message. What survives is scored by the embedding half
(`memories/extraction/local.py`).

Messages that are not English are read by `local_foreign.py` (the model is English-first);
`looks_english` tells which is which.
"""

from __future__ import annotations

import re

from memories.language import CLAIMED, detect

# --- What a clause cannot be -----------------------------------------------------------------

_FIRST_PERSON_WORD = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|we've|our|ours)\b", re.I
)
_US = re.compile(r"\bus\b")  # "us", not "US"
# What is pasted: the nouns a person names material by (memories/extraction/local_paste.py).
PASTE_NOUNS = (
    r"email|e-mail|mail|text|message|paragraph|essay|letter|draft|bio|summary|review|poem|code|"
    r"error|errors|log|logs|output|query|article|story|speech|post|caption|description|cv|"
    r"resume|profile|copy|page|intro|introduction|abstract|proposal|toast|reply|script|function|"
    r"snippet|dockerfile|sql|sentence|note|statement|report|section|chapter|lyrics|song|notes"
)


def has_first_person(text: str) -> bool:
    return bool(_FIRST_PERSON_WORD.search(text) or _US.search(text))


_ROLEPLAY = re.compile(
    r"""(?:
        \blets?'?\s+role-?\s?play|^\s*role-?\s?play\b|\brole-?\s?play\s+(?:with\s+me|as\b|:)|
        \bin\s+this\s+role-?\s?play|\blet'?s\s+play\b|\bstay\s+in\s+character|\bmy\s+character\b|
        \byour\s+character\b|\byou\s+are\s+now\b|\byou'?re\s+now\b|\bfrom\s+now\s+on\s+you'?(?:re|\s+are)\b|
        \bpretend\s+(?:you'?re|you\s+are|to\s+be|you\b)|\byou(?:'ll|\s+will)?\s+play\b|\bimprov\b|
        \bcontinue\s+the\s+story|\bwriting\s+a\s+story\s+together|\blet(?:'|\u2019)?s\s+role-?\s?play|
        \b(?:be|as|you're|you\s+are)\s+(?:the|my|our)\s+dungeon\s+master|
        \bi\s+will\s+type\b|\bmy\s+first\s+(?:command|question|sentence|request)\s+is\b|
        \byou(?:\s+are|'re)\s+(?:a|an|the|my)?\s*[\w' -]{2,40}(?:,|\s+and|;)\s+(?:i\s+am|i'm)\b|
        # "You are a grumpy innkeeper. I walk in ...", "you are a pirate. speak only in pirate"
        ^\s*you\s+are\s+(?:a|an)\s+(?:[\w'-]+\s+){0,3}[\w'-]+[.!]\s+(?:i\s+(?:walk|enter|approach|
        say|ask|look|sit|open|draw|hand|step|knock|run|come|arrive)|speak|talk|answer|reply|respond|
        stay)\b
    )""",
    re.I | re.X,
)
# "*draws sword*": an action of three words or more in asterisks, in lower case ("*really*" is
# emphasis, not a scene).
_STAGE_ACTION = re.compile(r"(?:^|\s)\*[a-z]+\s+[a-z]+\s+[^*\n]+\*")
# "I'll be the knight" is a casting only next to "you'll be / you play / you are ...".
_I_PLAY = re.compile(r"\bi'?(?:ll|\s+will)\s+(?:be|play)\s+(?:the|a|an|captain)\b", re.I)
_YOU_PLAY = re.compile(r"\byou(?:'ll|\s+will)?\s+(?:be|play|are)\b|\byou're\b", re.I)
_QUESTION_START = re.compile(
    r"^(?:how|what|what's|whats|why|when|where|which|who|whom|whose|is|are|am|was|were|do|does|"
    r"did|can|could|would|will|shall|should|may|might|must|have|has|had|isn't|aren't|don't|"
    r"doesn't|won't|wouldn't|shouldn't|couldn't|any\s+(?:idea|ideas|tips|suggestions|thoughts)|"
    r"anyone|anybody)\b",
    re.I,
)
IMPERATIVE = re.compile(
    r"^(?:please\s+|pls\s+|plz\s+|kindly\s+|now\s+|just\s+|then\s+)*(?:write|make|give|list|create|"
    r"explain|fix|help|tell|show|generate|translate|summari[sz]e|rewrite|draft|suggest|recommend|"
    r"find|convert|compare|describe|add|remove|change|update|check|review|edit|proofread|"
    r"improve|continue|outline|brainstorm|plan|design|build|calculate|compute|solve|answer|"
    r"define|name|rate|rank|shorten|expand|simplify|tighten|polish|format|sort|count|analy[sz]e|"
    r"debug|refactor|optimi[sz]e|implement|teach|remind|keep|use|do|don't|do not|stop|never|"
    r"always|avoid|try|let's|lets|imagine|pretend|act|assume|suppose|consider|go|read|look|"
    r"search|send|reply|respond|play|be|talk|say|repeat|provide|prepare|put|turn|cut|mention|"
    r"note|include|skip|ignore|focus|start|finish|tidy|clean|sum|walk|guide|break|split|"
    r"organi[sz]e|proceed|redo|elaborate|clarify|cite|quote|recap|dig|think)\b",
    re.I,
)
# "From now on ...", "never suggest ...": an instruction meant to last is a preference.
_STANDING = re.compile(
    r"\b(?:from\s+now\s+on|going\s+forward|in\s+future|ever\s+again|every\s+(?:response|answer|"
    r"reply|time|message)|all\s+your\s+(?:answers|responses|replies)|always|never|in\s+everything|"
    r"stop\s+(?:recommending|suggesting|giving|using|adding|including)|only\s+ever|"
    r"any\s+(?:response|answer))\b",
    re.I,
)
REQUEST = re.compile(
    r"\b(?:can|could|would|will)\s+you\b|\bi\s+(?:need|want|would\s+like|'d\s+like)\s+you\b|"
    r"\bi'd\s+like\s+you\b|\bhelp\s+me\b|\bplease\b|\bpls\b|\bplz\b",
    re.I,
)
_REQUEST_AS_STATEMENT = re.compile(
    r"^(?:i|we)\s*(?:(?:really\s+|just\s+)?(?:need|want|would\s+like|'d\s+like|am\s+looking\s+for|"
    r"'m\s+looking\s+for|m\s+looking\s+for)\s+(?:a|an|some|help|to\s+(?:write|make|create|"
    r"draft|plan|put|build|find|know|figure|learn\s+how|understand|get)|ideas|advice|tips|"
    r"suggestions|you)|(?:need|have)\s+to\s+\w+|(?:am|'m|m)\s+trying\s+to\s+(?:figure|find|decide|work\s+out|write|"
    r"understand|get|fix|make|put))\b",
    re.I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if\s+(?:i|we)\s+(?:were|was|had|could|won|wanted|bought|quit|moved|lived|told|became|"
    r"got|went|didn't|did|took|left|sold|switched|stopped|started|changed|\w+ed)\b|"
    # "If I ever have kids…", "if we one day move abroad": a life not (yet) lived
    r"if\s+(?:i|we)\s+(?:ever|one\s+day|someday|some\s+day)\b|imagine|suppose|supposing|let'?s\s+say|say\s+i\b|hypothetically|"
    r"what\s+if|pretend|in\s+a\s+world\s+where|would\s+i\b|if\s+i\s+had\s+to|i\s+would\s+be\b|"
    r"i'd\s+probably|i\s+would\s+probably)",
    re.I,
)
_META = re.compile(
    r"^(?:ok\s+|okay\s+|hmm+,?\s+|so\s+)?(?:i|i've|i'd)\s+(?:just\s+|already\s+|still\s+|never\s+|"
    r"really\s+)?(?:tried(?!\s+[\w-]+\s+(?:but|before|and\s+it|and\s+they)\b)|"
    r"read\s+(?:that|somewhere|an?\s+article)|heard\s+that|saw\s+(?:that|somewhere)|asked|said|meant|mean|told\s+you|did\s+that|don't\s+understand|"
    r"do\s+not\s+understand|don't\s+get|dont\s+get|didn't\s+ask|did\s+not\s+ask|don't\s+think\s+you|"
    r"attached|uploaded|shared|included|thinking\s+out\s+loud|"
    r"dont\s+think\s+you|get\s+an?\s+error|got\s+an?\s+error|keep\s+getting|am\s+getting|"
    r"see\s+(?:an?|the|what)|wonder|was\s+wondering|wanted\s+to\s+ask|have\s+a\s+question|agree|"
    r"disagree|copied|pasted|followed|installed|used\s+your|like\s+(?:it|this|that|these|those|"
    # ("I love that my commute is short" is about the writer's own: "that" opens a clause)
    r"the|your|option|both)(?!\s+(?:my|our|we|i)\b)|love\s+(?:it|this|that|the|your)"
    r"(?!\s+(?:my|our|we|i)\b)|hate\s+(?:it|this|that)|"
    r"prefer\s+(?:the\s+(?:first|second|third|last|other|former|latter)|option|version|this|that|"
    r"it)|think\s+(?:you|it|this|that|the\s+(?:first|second|answer|code)|so|there)|guess|"
    r"need\s+(?:it|this|that)|want\s+(?:it|this|that)|appreciate|didn't\s+mean|was\s+asking|"
    r"am\s+asking|'m\s+asking|'m\s+not\s+sure|am\s+not\s+sure|m\s+not\s+sure|can't\s+get\s+it|"
    r"can't\s+figure|cannot\s+figure|'m\s+confused|am\s+confused|'m\s+getting|'m\s+still)\b",
    re.I,
)
# Said with a time of the moment, still lasting: a birth, a lease, a citizenship, a habit.
_LASTING_NEWS = re.compile(
    r"\b(?:was\s+born|born\s+on|signed\s+(?:the|a|my|our)\s+(?:lease|contract|papers)|"
    r"first\s+(?:job|house|home|flat|child|baby)|citizen|pregnant|expecting|engaged|married|"
    r"retired|graduated|promoted|diagnosed|adopted|since\s+(?:[A-Z]\w+|\d{4}|I\s+was)|"
    r"always\s+have\s+been|most\s+(?:days|weeks|mornings|evenings|nights|weekends)|"
    r"every\s+(?:day|week|morning|evening|night|weekend|\w+day)|usually|scared\s+of|afraid\s+of|"
    # A child's new school, a birth, a first car or phone: news that stays true.
    r"(?:start|starts|starting|started)\s+(?:at\s+)?(?:nursery|school|kindergarten|daycare|preschool|reception|college|"
    r"university|uni|high\s+school|secondary|year\s+\d+|grade\s+\d+|(?:a|my|her|his|their)\s+new\s+"
    r"(?:job|school|role|position)|working\s+(?:at|as|for))|"
    r"had\s+(?:twins|triplets|a\s+baby|a\s+(?:baby\s+)?(?:boy|girl))|"
    r"(?:got|bought|adopted)\s+(?:a|an|my|our)\s+first|"
    r"finally\s+(?:quit|paid\s+off|passed|got\s+(?:my|our|a|an)|bought|became|handed\s+in|finished\s+my))\b",
    re.I,
)
# "We just adopted a puppy", "I just got a new job": news that lasts, not a state of the moment.
_LIFE_EVENT = (
    r"(?:started|moved|relocated|turned|graduated|joined|retired|adopted|rescued|welcomed|"
    r"enrolled|signed\s+up|launched|opened|founded|became|switched|converted|quit\s+my|"
    r"left\s+my|changed\s+(?:jobs|careers)|handed\s+in\s+(?:my|our)\s+(?:notice|resignation|thesis|"
    r"dissertation)|paid\s+off|had\s+(?:a|our|my)\s+(?:baby|son|daughter|first|"
    r"second|third)|bought\s+(?:a|our|my)\s+(?:first\s+)?(?:house|home|flat|apartment|condo|"
    r"place|car|farm)|signed|got\s+(?:into\s+(?:(?-i:[A-Z]\w+)|uni|university|college|med\s+school|law\s+school|grad\s+school)|"
    r"accepted|married|engaged|divorced|promoted|hired|diagnosed|"
    r"(?:a|an|my|our|his|her|their)\s+(?:new\s+|first\s+)?(?:job|position|role|dog|puppy|cat|kitten|rabbit|horse|"
    r"tortoise|place|house|flat|apartment|diagnosis|degree|license|licence|phd|master's|phone|"
    r"smartphone|laptop|car|bike|passport|visa|green\s+card)))\b"
)
_TEMPORARY = re.compile(
    rf"""(?:
        \b(?:right\s+now|rn|atm|at\s+the\s+moment|today|tonight|this\s+(?:morning|afternoon|
        evening|week|weekend)|yesterday|tomorrow|last\s+night|just\s+now|later\s+today|so\s+far\s+today|
        in\s+(?:an|\d+)\s+(?:hour|hours|minutes|mins)|next\s+week|coming\s+down\s+with|
        (?:this|next|on)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)
        (?!s|\s+(?:evenings|mornings|nights|afternoons)))\b|
        \b(?:fly|flying|leave|leaving|travel|travelling)\s+(?:on\s+)?(?:mon|tues|wednes|thurs|fri|
        satur|sun)day\b|\bpower\s+(?:cut|outage)\b|\bnose\s*bleed\b|
        \bmy\s+\w+\s+(?:is|are)\s+(?:freezing|killing\s+me|numb|aching|sore)\b|
        (?<!when\s)(?<!whenever\s)(?<!if\s)
        \b(?:i'm|im|i\s+am|i\s+feel|feeling|i'm\s+feeling|i\s+was|i\s+got|got)\s+
        (?:so\s+|really\s+|very\s+|super\s+|kind\s+of\s+|kinda\s+|a\s+bit\s+|a\s+little\s+|pretty\s+|
        too\s+|totally\s+|completely\s+|quite\s+|absolutely\s+)*
        (?:tired|exhausted|hungry|thirsty|starving|bored|sick|ill|stressed|nervous|excited|sleepy|drunk|
        hungover|cold|sad|down|upset|angry|fuming|annoyed|frustrated|overwhelmed|stuck|confused|
        lost|late|busy|soaked|gutted|free|awake|worried|scared|panicking|freaking|back|home|here|
        ready|done|finished|off\s+work|on\s+my\s+way|almost\s+there)\b|
        \b(?:i'm|im|i\s+am)\s+(?:currently\s+)?(?:sitting|standing|waiting|lying|stuck|at\s+the\s+
        (?:airport|station|gym|office|doctor|dentist|vet)|in\s+(?:a|the)\s+(?:meeting|queue|line|
        car|train|taxi|waiting\s+room|hospital))\b|
        \bi\s+(?:just\s+)?(?:forgot|spilled|spilt|locked\s+myself|dropped\s+my|burnt\s+my|burned\s+my)\b|
        \bjust\s+(?!{_LIFE_EVENT})
        (?:\w+ed|got|ate|threw|broke|saw|made|did|went|came|took|lost|found|left|sent|spent|fell|
        ran|hit|had|heard|bought|burnt|spilt|woke|forgot)\b|
        \b(?:can't|cannot|couldn't|can\s+not)\s+sleep\b|\bit's\s+\d{{1,2}}(?::\d\d)?\s?(?:am|pm)\b|
        \bgoing\s+to\s+(?:miss|be\s+late)\b|
        \b(?:have|got|with)\s+(?:a|an|the)\s+(?:bad\s+|terrible\s+|awful\s+|splitting\s+)?
        (?:headache|cold|fever|hangover|sore\s+throat|cough|stomach\s*ache|tummy\s+ache|flu|
        mouth\s+ulcer|cold\s+sore|rash|nose\s*bleed|blister)\b|
        \ball\s+(?:afternoon|morning|day|evening|week)\b|\bon\s+hold\b|
        ^(?:stuck|stranded|sitting|waiting|queuing|queueing)\b|
        ^(?:just\s+)?(?:forgot|spilled|spilt|dropped|missed|lost)\s+my\b|
        \bit's\s+(?:pouring|raining|snowing|bucketing|freezing\s+out)\b|
        ^(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?!s)
    )""",
    re.I | re.X,
)
_PASTE_POINTER = re.compile(
    r"^(?:here's|here\s+is|here\s+are|here\s+it\s+is|below\s+is|attached\s+is|this\s+is\s+(?:my|the|our)\s+"
    rf"(?:\w+\s+){{0,2}}(?:{PASTE_NOUNS}))\b",
    re.I,
)
_ABOUT_ASSISTANT = re.compile(
    r"^(?:you|you're|youre|your|that's\s+not\s+what|this\s+is\s+not\s+what|it's\s+not\s+what|"
    r"sorry|i'm\s+sorry|im\s+sorry|i\s+am\s+sorry)\b|"
    r"\bwhat\s+i\s+(?:asked|meant|said|wanted)\b|\bi\s+(?:love|hate|like)\s+you\b|"
    r"\bi\s+have\s+(?:a|another|one\s+more)\s+(?:quick\s+|small\s+|follow-?up\s+)?"
    r"(?:question|request|follow-?up)\b",
    re.I,
)
_TOWARDS_ANSWERS = re.compile(
    r"\b(?:you|your|me|my|answers?|responses?|replies|reply|explanations?|suggest|recipes?|"
    r"charts?|code|emojis?|words?|recommend\w*|suggestions?)\b",
    re.I,
)
# Someone else's opinion or doing, reported: about them, not the writer.
_REPORTED = re.compile(
    # "A woman in my town got arrested", "A publisher offered me ...", "Mette says ...": about
    # someone else.
    r"^(?:a|an)\s+(?:woman|man|guy|girl|boy|lady|person|kid|couple|family|stranger|[\w-]+er)\b"
    r"(?:\s+(?:in|at|from|on)\s+(?:my|our|the)\s+[\w-]+)?\s+(?:\w+ed|got|gave|sent|told|"
    r"said|says|asked|wants|is|was)\b|"
    r"^(?!(?:i|we|you|it|they|he|she)\b)[A-Z][\w-]+\s+(?:says|said|thinks|reckons)\b|"
    r"^(?:my|our)\s+(?:[\w'-]+\s+){0,2}?(?:says|said|thinks|thought|believes|claims|wants|wanted|"
    r"told|asked|keeps|kept|is\s+(?:refusing|asking|making|being|trying|threatening))\b|"
    # what someone at work or next door does ("my neighbour's kid plays drums", "my manager always
    # schedules ..."): about them; who they are ("my manager is called Priya") stays.
    r"^(?:the|my)\s+(?:guy|man|woman|lady|girl|people|family|kids?)\s+(?:next\s+door|upstairs|"
    r"downstairs|across\s+the\s+(?:street|road|hall))\b|"
    r"^(?:my|our)\s+(?:new\s+|old\s+)?(?:boss|manager|colleague|co-?worker|neighbou?r|landlord|"
    r"landlady|teacher|professor|roommate|flatmate|friend|client|customer)(?:'s\s+[\w-]+|s)?\s+"
    r"(?!(?:is|was)\s+(?:called|named)\b|name\b|'s\s+name\b|is\s+(?:also\s+)?my\b)"
    r"(?:always\s+|never\s+|keeps\s+|still\s+|just\s+)?(?:\w+s|\w+ed|is\s+\w+ing|are\s+\w+ing|"
    r"write|do|got|had)\b",
    re.I,
)
_MAX_WORDS = 60
# Code in running text: "i.price for i in items", "user_id", "x = 3", "items[0]".
_CODE_WORDS = re.compile(
    r"""\bfor\s+\w+\s+in\s+[\w.]+\s*(?:[:)\]]|if\b|$)|
        \w\.\w+\s+for\s+\w+\s+in\b|
        \b[A-Za-z_]\w*\.(?!(?:com|org|net|io|js|ts|py|ai|co|uk|de|fr|nl|es|it|eu|me|app|dev|
        edu|gov|jp|cn|ru|ch|at|se|no|dk|fi|pl|be|ca|au|nz|in|us|md|txt|pdf|csv|json|html|css|
        docx?|xlsx?|pptx?|png|jpe?g|gif|mp3|mp4|m|d|e|g)\b)[a-z_]{2,}\b|
        \b[a-z]+_[a-z_]+\b|\b\w+\[\w*\]|(?:^|\s)[a-z_]\w*\s*[+\-*/]?=\s*\S
    """,
    re.X,
)


def is_roleplay(message: str) -> bool:
    if _ROLEPLAY.search(message) or _STAGE_ACTION.search(message):
        return True
    return bool(_I_PLAY.search(message) and _YOU_PLAY.search(message))


def asks(clause: str) -> bool:
    """An order or a request ("Add more examples", "could you shorten it")."""
    return bool(IMPERATIVE.match(clause) or REQUEST.search(clause))


def clause_verdict(clause: str) -> str:
    """'keep' (worth scoring) or the reason it cannot be a lasting self-statement."""
    words = clause.split()
    if len(words) < 2 or (len(words) == 2 and not re.match(r"(?:i'm|im|i've|ive)\b", clause, re.I)):
        return "short"
    if len(words) > _MAX_WORDS:
        return "long"
    standing = bool(_STANDING.search(clause)) and bool(_TOWARDS_ANSWERS.search(clause))
    asks = bool(IMPERATIVE.match(clause) or REQUEST.search(clause))
    if (
        standing
        and asks
        and not re.match(r"^(?:how|what|why|when|where|which|who)\b", clause, re.I)
    ):
        return "keep"  # "please never suggest mushrooms": an instruction meant to last
    if not has_first_person(clause):
        return "not-first-person"
    if re.search(r"[{}<>|\\]|\$\w|[A-Za-z_]\(", clause) or _CODE_WORDS.search(clause):
        return "code"
    if clause.rstrip().endswith("?") or _QUESTION_START.match(clause):
        return "question"
    if _PASTE_POINTER.match(clause):
        return "pasted"
    if _ABOUT_ASSISTANT.search(clause):
        return "about-the-assistant"
    if _HYPOTHETICAL.search(clause):
        return "hypothetical"
    if _META.match(clause):
        return "meta"
    if _TEMPORARY.search(clause) and not _LASTING_NEWS.search(clause):
        return "temporary"
    if _REPORTED.match(clause):
        return "reported"
    if asks:
        return "request"
    if _REQUEST_AS_STATEMENT.match(clause):
        return "request"
    return "keep"


# --- Other languages -------------------------------------------------------------------------

_ENGLISH_WORDS = """
a about after all also am an and any are as at be because been but by can could did do does
don't for from get got had has have he her here him his how i i'm if in into is it it's its
just know like make me more my no not now of on one or our out please so some than that the
their them then there they this to up us very want was we well were what when where which
who why will with would you your
"""
_ENGLISH = frozenset(_ENGLISH_WORDS.split())


# From this share of common English words a text is English whatever the identifier says; below
# it, a claimed language the identifier gives at least _SURE_OTHER wins (on the dev sets, English
# messages with few function words came out German or Spanish at .82-.83 at most, other
# languages' short messages at .92-.99).
_SURELY_ENGLISH = 0.4
_SURE_OTHER = 0.9


def looks_english(message: str) -> bool:
    """Most words are common English ones (or the text is too short to tell), or the language
    identifier (`memories.language`) reads it as English."""
    letters = [ch for ch in message if ch.isalpha()]
    if not letters:
        return True
    latin = sum(1 for ch in letters if ch.isascii() or "\u00c0" <= ch <= "\u024f")
    if latin / len(letters) < 0.5:
        return False
    words = re.findall(r"[a-zà-ÿ']+", message.lower())
    if len(words) < 3:
        return True
    share = sum(1 for w in words if w in _ENGLISH) / len(words)
    if share >= _SURELY_ENGLISH:
        return True
    if share >= 0.2:
        # "Passei no concurso do INSS!!! Começo em janeiro.": "no" and "do" are English words
        # too; a language identifier sure of another claimed language overrules a few of them.
        found = detect(message)
        return not (
            found.code in CLAIMED and found.code != "en" and found.confidence >= _SURE_OTHER
        )
    # Few function words ("Grandma turned 95 last week, still sharp as ever."): the language
    # identifier decides.
    return detect(message).code == "en"
