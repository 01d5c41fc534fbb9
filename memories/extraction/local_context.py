"""Reading a message in its conversation: what "her", "it" and "that" stand for.

A person tells an assistant things across sentences and messages: "My partner just started a
new job. Her name is Sara." or "I sell ceramics on Etsy. I earn maybe 8k a year from it." A
clause read alone either says nothing about the writer ("Her name is Sara") or loses what it is
about ("I earn maybe 8k a year from it"). Here a clause led by "she/he/her/his" takes the person
it refers to from the earlier sentences of the message or conversation ("My partner is called
Sara"), and a first-person clause that points back ("from it", "about that", "It's my ...")
is kept joined to the last clause kept before it, in this message or an earlier one of the
conversation ("I sell ceramics on Etsy; I earn maybe 8k a year from it"), as is a clause about
"the soil" or "one of them" after one; with nothing kept to lean on, it is dropped rather than
kept as a fragment.

The rules that judge a clause on its own are in `local_rules.py`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memories.extraction.local_answers import english_answer
from memories.extraction.local_clauses import clause_parts, sentences, tidy
from memories.extraction.local_paste import QUOTED_SPAN, own_words
from memories.extraction.local_rules import asks, clause_verdict, has_first_person, is_roleplay

_FEMALE = (
    r"wife|girlfriend|daughter|step-?daughter|mother|mum|mom|mama|sister|grandmother|grandma|"
    r"granny|aunt|niece|fianc[ée]e|stepmom|stepmum|ex-wife"
)
_MALE = (
    r"husband|boyfriend|son|step-?son|father|dad|papa|brother|grandfather|grandpa|uncle|nephew|"
    r"fianc[ée]|stepdad|ex-husband"
)
_EITHER = (
    r"partner|spouse|kid|child|baby|toddler|teen|teenager|boss|manager|friend|colleague|"
    r"co-?worker|roommate|flatmate|housemate|neighbou?r|therapist|doctor|cousin|mentor|"
    r"little\s+one|youngest|eldest|oldest|"
    r"dog|puppy|cat|kitten|rabbit|bunny|horse|parrot|hamster|tortoise|pony"
)
_PETS = r"dog|puppy|cat|kitten|rabbit|bunny|horse|parrot|hamster|tortoise|pony"


def _relation(nouns: str) -> re.Pattern[str]:
    return re.compile(
        rf"\b(?P<det>my|our)\s+(?P<noun>(?:(?:new|little|older|younger|oldest|youngest|"
        rf"eldest|best|[\w-]+-year-old|\d+-year-old)\s+)?(?:{nouns}))\b"
        rf"|\b(?P<adet>a|an)\s+(?P<pet>(?:[\w-]+\s+){{0,2}}?(?:{_PETS}))\b",
        re.I,
    )


_ANTECEDENT = {"f": _relation(f"{_FEMALE}|{_EITHER}"), "m": _relation(f"{_MALE}|{_EITHER}")}
_PRONOUN_LEAD = re.compile(
    r"^(?P<name>(?:her|his)\s+name\s+is\s+|(?:she|he)(?:'s|\s+is)\s+called\s+)"
    r"|^(?P<poss>her|his)\s+|^(?P<is>she's|he's|she\s+is|he\s+is)\s+|^(?P<subj>she|he)\s+",
    re.I,
)
# A clause that leans on what came before: "It's my main income", "I earn 8k a year from it"
# (unless the clause names something "it" can be: "I drive a Civic with 140k miles on it").
_LEANS_BACK = re.compile(
    r"^(?:it|it's|that|that's|this|this\s+is|they|they're|these|those|the\s+one|one\s+of)\b|"
    # "the short ones", "a budget of 5000 euros" (for what?)
    r"\bthe\s+(?:[\w-]+\s+){0,2}ones\b|\b(?:a|the|our|my)\s+budget\s+(?:of|is)\b(?!.*\bfor\b)",
    re.I,
)
_POINTS_BACK = re.compile(
    r"\b(?:of|about|with|for|on|to|from|in|into|at|by|without|do|doing|did|love|like|hate|"
    r"enjoy|use|using)\s+(?:it|this|that|these|those|them)\b(?!\s+(?:is|was|are|i|we)\b)",
    re.I,
)
_NAMES_A_THING = re.compile(
    r"\b(?:a|an|my|our|the|some|two|three|several)\s+(?!(?:year|month|week|day|lot|bit|few|"
    r"little|couple|while|time|side|ton|way)\b)\w[\w-]*",
    re.I,
)


# Said of something named before, without a first person: "The soil is heavy clay", "It's my
# daily driver", "One of them got varroa".
_THE_ONE_BEFORE = re.compile(
    r"^(?:it|it's|its|they|they're|their|that|that's|this|these|those|one\s+of\s+them|"
    r"both\s+of\s+them|the\s+[\w-]+)\b",
    re.I,
)


# "this is what HR sent": introduces what someone else wrote, not a fact.
_HANDS_OVER = re.compile(
    r"\b(?:sent|wrote|said|says|replied|posted|texted)\b|\bwhat\s+i\s+(?:have|'ve\s+got|got)\b|"
    # thanks, not a fact: "that means a lot", "that's really helpful"
    r"^(?:that|this|it)(?:'s|\s+is)?\s+(?:means|meant|helps|helped|(?:so\s+|really\s+|very\s+)?"
    r"(?:helpful|kind|great|perfect|amazing|lovely|sweet|useful))\b",
    re.I,
)


# "I've been on it since January", "I take it daily": a first-person clause whose "it" is the
# thing a question just before it named.
_LEANS_ON_IT = re.compile(
    r"^(?:i|i've|i'm|we|we've|we're)\b.*\b(?:on|with|take|taking|use|using|have|had|own)\s+"
    r"(?:it|them)\b",
    re.I,
)


# A clause that names its own subject is a new fact, never a fragment of the one before:
# "This is my cat Miso", "That's my sister Lena", "These are my twins", "This is Pepper, my
# greyhound" (someone introduced, by relation or by name, not "It's my sister's wedding"), "my
# dog Biscuit" (named).
_INTRODUCES = re.compile(
    rf"^(?:this|that|these|those|it|they)(?:'s|'re|\s+is|\s+are|\s+was|\s+were)\s+"
    rf"(?:(?:my|our)\s+(?:[\w-]+\s+)?(?:{_FEMALE}|{_MALE}|{_EITHER}|kids|children|twins|"
    rf"parents|in-laws)\b(?!['\u2019]s)|(?-i:(?!I\b)[A-Z][a-z]+)\b)"
    rf"|\b(?:my|our)\s+(?:[\w-]+\s+)?(?:{_FEMALE}|{_MALE}|{_EITHER})\s+(?-i:(?!I\b)[A-Z][a-z]+)\b",
    re.I,
)
# After "about this", "with that", the word a determiner or "that" opening a clause would take:
# "I sing with this choir", "I love that my commute is short" (their own object, not a lean).
_OWN_OBJECT = re.compile(
    r"^(?:my|our|your|his|her|their|the|a|an|you|he|she|they|it|someone|people|[\w-]+'s)\b"
    r"|^(?!(?:for|to|in|on|at|with|from|by|since|every|each|all|now|too|as|so|and|but|or|"
    r"because|when|until|after|before|again|anymore|much|more|most|very|still|already|though|"
    r"here|there|once|twice|enough|either|over|up|down|out|off|back|around|about|instead|"
    r"anyway|yet|if|than|one|ones|way|kind|sort|stuff|is|was|are|were|i|we|lol|haha)\b)"
    r"[a-z][\w-]*(?<!ly)\b",
)


def _points_back(text: str) -> bool:
    if _INTRODUCES.search(text):
        return False
    if _LEANS_BACK.search(text):
        return True
    found = _POINTS_BACK.search(text)
    if found is None:
        return False
    if found.group(0).split()[-1].lower() not in ("it", "them") and _OWN_OBJECT.match(
        text[found.end() :].lstrip()
    ):
        return False
    before = text[: found.start()]
    # "I sell vintage vinyl on Discogs as a side thing, been doing it since 2021": a long
    # statement names what its "it" is.
    return not _NAMES_A_THING.search(before) and len(before.split()) < 8


# "Baby is 4 months", "Wife works nights": a terse writer's "my" left out.
_BARE_RELATION = re.compile(
    rf"^(?:{_FEMALE}|{_MALE}|{_EITHER}|kids|children|twins|parents|in-laws)\s+"
    r"(?=(?:is|'s|are|was|works|has|have|turned|turns|started|goes|attends|loves|hates|"
    r"just)\b)",
    re.I,
)


def _bare_relation(text: str) -> str:
    if _THE_KIDS.match(text):  # "The kids (9 and 6) both swim": a parent's own
        return f"My {text[4:]}"
    return f"My {text[0].lower()}{text[1:]}" if _BARE_RELATION.match(text) else text


_THE_KIDS = re.compile(r"^the\s+(?=(?:kids|children|twins)\b)", re.I)
# "They're 3 and 5" after "a long drive with the kids": the writer's children, named just before.
_CHILDREN = re.compile(
    r"\b(?:my|our|the)\s+(?P<who>kids|children|twins|boys|girls|sons|daughters|little\s+ones)\b",
    re.I,
)
_THEY_LEAD = re.compile(r"^(?:they're|they\s+are|they)\s+", re.I)
_THEY_VERB = {"they're": "are", "they are": "are", "they": ""}

# A message that only goes on about what the person's previous message said: "Mostly easy runs
# during the week.", "South-facing, mostly clay soil." — short, no verb of its own, no one else
# as its subject, no "it" to resolve, and not a reply to the assistant ("fair enough", "thanks").
_FRAGMENT_STOP = re.compile(
    r"\b(?:it|it's|its|this|that|that's|these|those|them|he|she|they|he's|she's|they're|you|"
    r"your|you're|there|here|is|are|was|were|has|have|had|does|did|will|would|can|could|"
    r"should|thanks|thank|thx|ok|okay|lol|haha|yes|yeah|yep|no|nope|sure|great|perfect|cool|"
    r"nice|fair|enough|sounds|exactly|agreed|true|wow|hmm|please|pls|again|more|less|instead|"
    r"version|answer|reply|draft|option|one|bad|good|better|worse|fine|wrong|keep|go|going|"
    r"let|let's|continue|stop|done|start|"
    # a question without its mark: "what tyres for ice then", "cargo or cabin then"
    r"what|how|which|why|when|where|who|whose|should|or|then|"
    # what someone or something else said: "wp-cli says:"
    r"says|said|wrote|replied|sent|error)\b|[?:\"“]",
    re.I,
)
_FRAGMENT_WORDS = (4, 14)  # fewer is a reply ("nerd high five"), more a statement of its own


# What a question says of its writer on the way: "explain to my 5 year old ..." (a child of
# that age), "grow as a manager" (the writer's role), "the rent on my studio in Dublin" (where
# the writer's home, office or school is).
_MY_AGED = re.compile(
    r"\bmy\s+(?P<who>\d{1,2}[- ]?(?:year|yr|month)s?[- ]?old(?:\s+(?:son|daughter|kid|child|boy|"
    r"girl|baby|twins|dog|cat))?)\b",
    re.I,
)
_AS_A = re.compile(
    r"\b(?<!such\s)as\s+(?P<role>an?\s+(?:(?!(?:for|of|to|in|on|at|with|from)\b)[\w-]+\s+){0,2}?"
    r"[\w-]+)(?=\s*(?:$|[,.?!]|\s+(?:and|but|who|how|what|should|can|could|is|do)\b))",
    re.I,
)
_MY_THING_IN = re.compile(r"\bmy\s+(?P<thing>[a-z][\w-]+)\s+in\s+(?P<place>[A-Z][\w-]+)")
# "raise the rent on a flat I've lived in since 2018": how long the writer has had a thing.
_HAD_SINCE = re.compile(
    r"\b(?P<det>a|an|the|my|our)\s+(?P<thing>(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:that\s+|which\s+)?"
    r"(?P<who>i|we)(?:'ve|\s+have)\s+(?P<verb>\w+ed|been|had|owned|run|driven|worn|kept)"
    r"(?P<prep>\s+(?:in|at|for|with|on|to))?\s+(?P<time>since\s+(?:[\w-]+\s+){0,3}?"
    r"(?:\d{4}|(?-i:[A-Z])\w+|school|uni|college|birth|then)|for\s+(?:[\w-]+\s+){0,2}?"
    r"(?:years?|months?|decades?|ages|a\s+while))(?![\w-])",
    re.I,
)


# "a weekend trip from Lyon, where we live": the place the writer lives, works or grew up in.
_WHERE_I = re.compile(
    r"\b(?:in|from|near|around|to|at)\s+(?P<place>(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)"
    r",?\s+where\s+(?P<who>i|we)(?:'ve|\s+have)?\s+(?P<verb>live|lived|work|worked|study|"
    r"grew\s+up|was\s+born|were\s+born)\b",
    re.I,
)


def _inside(question: str) -> str | None:
    """A statement a question or request makes of its writer on the way, or None."""
    if not has_first_person(question):
        return None
    if aged := _MY_AGED.search(question):
        return f"I have a {aged.group('who')}"
    if (as_a := _AS_A.search(question)) and re.search(r"\b(?:i|i'm|me|my)\b", question, re.I):
        return f"I'm {as_a.group('role')}"
    if had := _HAD_SINCE.search(question):
        who = "I" if had.group("who").lower() == "i" else "We"
        prep = had.group("prep") or ""
        return (
            f"{who} have {had.group('verb')}{prep} {had.group('det').lower()} "
            f"{had.group('thing')} {had.group('time').strip()}"
        )
    if where := _WHERE_I.search(question):
        who = "I" if where.group("who").lower() == "i" else "We"
        return f"{who} {where.group('verb').lower()} in {where.group('place')}"
    if thing := _MY_THING_IN.search(question):
        return f"My {thing.group('thing')} is in {thing.group('place')}"
    return None


# "a good first bike for someone who's 5'2", "stretches for someone who sits at a desk all day":
# in a question or request, the writer described in the third person (not a gift's recipient).
_SOMEONE_LIKE_ME = re.compile(
    r"\bfor\s+(?:someone|somebody|a\s+(?:person|beginner))\s+(?P<who>(?:who|with)\b[^?!.]*)",
    re.I,
)
_FOR_SOMEONE_ELSE = re.compile(
    r"\b(?:gift|present|buy|buying|birthday|christmas|my|his|her|their)\b", re.I
)


def _someone_like_me(text: str) -> str | None:
    """ "What's a good bike for someone who's 5'2 and never rode" -> "I'm someone who's 5'2 and
    never rode"; None when the someone may be another person."""
    found = _SOMEONE_LIKE_ME.search(text)
    if found is None or _FOR_SOMEONE_ELSE.search(text):
        return None
    return f"I'm someone {found.group('who').strip(' ,')}"


def _said_in_passing(request: str) -> str | None:
    """A request's later comma-part that speaks of the writer, with the part it qualifies:
    "Give me dinner ideas, but no coriander, tastes like soap to me" -> "No coriander, tastes
    like soap to me"; "Recommend a thriller, something like Tana French, she's my favourite"."""
    parts = [p.strip() for p in request.split(",")]
    for index in range(1, len(parts)):
        if not has_first_person(parts[index]) or clause_verdict(tidy(parts[index])) == "request":
            continue
        qualifies = index > 1 or len(parts[0].split()) <= 3  # "(No) museums please, I ..."
        start = index - 1 if qualifies and not has_first_person(parts[index - 1]) else index
        # "No museums please, I get bored in them": the "please" asked, the rest is said
        said = tidy(_PLEASE.sub("", ", ".join(parts[start:])))
        return said if said and has_first_person(said) else None
    return None


_PLEASE = re.compile(r"\s*\b(?:please|pls|plz|thanks|thank\s+you)\b", re.I)


def _continued(text: str) -> str:
    """A clause as the second half of a joined memory: "It's" -> "it's", "I" stays."""
    return text if re.match(r"I\b", text) else text[0].lower() + text[1:]


def joined(anchor: str, text: str) -> str:
    """A clause that leans on an earlier one, written after it as one memory."""
    return f"{anchor.rstrip('.!;, ')}; {_continued(text)}"


def extended(texts: Sequence[str], text: str) -> int | None:
    """The index of the memory among `texts` that `text` holds whole, a clause joined to it
    (`joined`): an import keeps `text` in its place rather than beside it."""
    return next((i for i, t in enumerate(texts) if text.startswith(f"{t.rstrip('.!;, ')}; ")), None)


def _judged(text: str) -> tuple[str, str, str | None]:
    """A clause's verdict (`clause_verdict`), on the self-statement said inside it when it is a
    request, question or report that carries one: the text judged, its verdict, and the aside
    said in passing in a request, if any."""
    # Quoted words are someone else's (or a sample): judged without them.
    verdict = clause_verdict(QUOTED_SPAN.sub(" it ", text))
    aside = _said_in_passing(text) if verdict == "request" else None
    if aside:  # it carries what its "them" is
        return aside, clause_verdict(QUOTED_SPAN.sub(" it ", aside)), aside
    if verdict in ("question", "request", "reported") and (inside := _inside(text)):
        return inside, clause_verdict(inside), aside
    if verdict in ("question", "request", "not-first-person") and (like := _someone_like_me(text)):
        return like, clause_verdict(like), aside
    return text, verdict, aside


class Reading:
    """One conversation read in order: each message's clauses worth scoring, with what the
    earlier sentences say about who "she" is and what "it" is."""

    def __init__(self, title: str = "") -> None:
        self.title = title
        self._said: list[str] = []  # earlier sentences of the conversation, in order
        self._anchor: str | None = None  # the last clause kept, which "it" may lean on
        self._kept_last = False  # whether the person's previous message kept something

    def clauses(self, message: str, previous: str = "") -> list[str]:
        """The clauses of an English message that may state a lasting fact about the writer;
        `previous`, the assistant's message before it, completes a short answer's subject."""
        if is_roleplay(message):
            return []
        out: list[str] = []
        seen: set[str] = set()
        words = own_words(message)
        answer = english_answer(previous, words) if previous else None
        going_on = self._going_on(words) if answer is None and self._kept_last else None
        self._kept_last = False
        if going_on is not None:
            self._said.extend(sentences(words))
            self._kept_last = True
            return [going_on]
        if answer is not None:
            out.append(answer.text)
            seen.add(answer.text.lower())
            self._anchor = answer.text
            words = answer.rest
        asked: str | None = None  # this message's last question, what a later "it" may be
        for sentence in sentences(words):
            for clause in clause_parts(sentence):
                text = self._resolved(_bare_relation(tidy(clause)))
                if not text or text.lower() in seen:
                    continue
                text, verdict, aside = _judged(text)
                if (
                    verdict == "keep"
                    and self._anchor is None
                    and asked is not None
                    and _LEANS_ON_IT.search(text)
                ):
                    # "Does metformin interact with alcohol? I've been on it since January."
                    text = f"{asked} {text}"
                    seen.add(text.lower())
                    out.append(text)
                    self._anchor = text
                elif (verdict == "keep" and not aside and _points_back(text)) or (
                    verdict == "not-first-person"
                    and _THE_ONE_BEFORE.match(text)
                    and not _INTRODUCES.search(text)
                ):
                    self._lean(text, out)
                elif verdict == "keep":
                    seen.add(text.lower())
                    out.append(text)
                    self._anchor = text
            if sentence.rstrip().endswith("?"):
                asked = sentence.strip()
            self._said.append(sentence)
        self._kept_last = bool(out)
        return out

    def _going_on(self, words: str) -> str | None:
        """A whole message that only goes on about the person's previous one ("Mostly easy
        runs during the week."): joined to what that message kept; the anchor stays, so a
        second such message joins it too."""
        text = tidy(words)
        count = len(text.split())
        if (
            self._anchor is None
            or not _FRAGMENT_WORDS[0] <= count <= _FRAGMENT_WORDS[1]
            or has_first_person(text)
            or _FRAGMENT_STOP.search(text)
            or asks(text)
        ):
            return None
        whole = joined(self._anchor, text)
        return whole if clause_verdict(QUOTED_SPAN.sub(" it ", whole)) == "keep" else None

    def _lean(self, text: str, out: list[str]) -> None:
        """A clause that needs what came before: joined to the last clause kept, in this message
        or an earlier one; dropped when there is none."""
        anchor = self._anchor
        if anchor is None or _HANDS_OVER.search(text):
            return
        whole = joined(anchor, text)
        if clause_verdict(QUOTED_SPAN.sub(" it ", whole)) != "keep":
            return
        if out and out[-1] == anchor:
            out[-1] = whole
        else:
            out.append(whole)
        self._anchor = whole

    def _resolved(self, text: str) -> str:
        """ "Her name is Sara" after "my partner ..." -> "My partner is called Sara"; "They're
        3 and 5" after "with the kids" -> "My kids are 3 and 5"."""
        they = _THEY_LEAD.match(text)
        if they:
            who = self._children()
            if who is None:
                return text
            verb = _THEY_VERB[re.sub(r"\s+", " ", they.group(0).strip().lower())]
            return re.sub(r"\s+", " ", f"{who} {verb} {text[they.end() :]}")
        lead = _PRONOUN_LEAD.match(text)
        if not lead:
            return text
        gender = "f" if lead.group(0).lower().startswith(("she", "her")) else "m"
        who = self._antecedent(gender)
        if who is None:
            return text
        rest = text[lead.end() :]
        if lead.group("name"):
            return f"{who} is called {rest}"
        if lead.group("poss"):
            return f"{who}'s {rest}"
        if lead.group("is"):
            return f"{who} is {rest}"
        return f"{who} {rest}"

    def _children(self) -> str | None:
        """The writer's children, when the sentence just before names them."""
        for sentence in self._said[-1:]:
            found = list(_CHILDREN.finditer(sentence))
            if found:
                who = found[-1].group("who").lower()
                we = re.search(r"\b(?:we|our|us)\b", sentence, re.I)
                return f"{'Our' if we else 'My'} {who}"
        return None

    def _antecedent(self, gender: str) -> str | None:
        """The nearest earlier "my <relation>" (or "a <pet>") the pronoun can stand for."""
        for sentence in reversed(self._said[-6:]):
            found = list(_ANTECEDENT[gender].finditer(sentence))
            if not found:
                continue
            match = found[-1]
            if match.group("noun"):
                return f"{match.group('det').capitalize()} {match.group('noun').lower()}"
            we = re.search(r"\b(?:we|we've|we're|our|us)\b", sentence, re.I)
            return f"{'Our' if we else 'My'} {match.group('pet').lower()}"
        return None
