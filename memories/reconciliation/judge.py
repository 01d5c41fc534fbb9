"""One new text against one stored text: restate, update, unsure or distinct."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from memories.reconciliation import scorer, wording
from memories.reconciliation.lexicon import (
    ADDITIVE_CUES,
    CHANGE_CUES,
    COMMON_CJK,
    COMMON_WORDS,
    NEW_CUES,
    PAST,
    PEOPLE,
    SLOTS,
    entries,
)
from memories.reconciliation.thresholds import Cosines

RESTATE, UPDATE, UNSURE, DISTINCT = "restate", "update", "unsure", "distinct"
# People who are a slot of the speaker's life: one at a time, so a new one replaces the old.
ROLES = frozenset({"boss", "coach", "team lead", "landlord", "therapist"})
# Below the floor cosine, a pair saying the same in other words names at least this many keys, or
# only meanings of the lexicon ("teetotal" ~ "I don't drink alcohol").
LEXICAL_KEYS = 2

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_IDEOGRAPH = re.compile(r"[\u30a0-\u30ff\u3400-\u9fff]")  # kanji, hanzi, katakana: not kana
_NAME = re.compile(r"(?<![\w'])([A-Z\u00c0-\u00de\u0410-\u042f][\w'-]*|\w*\d[\w.:,]*)")
_WORD = re.compile(r"\w+")
# Capitalised words that name no one: the start of a sentence is skipped already.
_GERMAN = re.compile(r"(?<!\w)(ich|mein|meine|ist|und|der|die|das|wir|unser|bin|habe)(?!\w)")
_NOT_NAMES = frozenset({"I", "I'm", "I've", "I'd", "I'll", "Mum", "Mom", "Dad", "Ich", "Je", "Я"})


@dataclass(frozen=True)
class Verdict:
    kind: str  # RESTATE, UPDATE, UNSURE or DISTINCT
    why: str  # a few words for the owner and the tests


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


@cache  # entries come from the lexicon only (a few hundred)
def _pattern(entry: str) -> re.Pattern[str]:
    prefix = entry.endswith("*")
    word = re.escape(entry.rstrip("*"))
    return re.compile(rf"(?<!\w){word}" + ("" if prefix else r"(?!\w)"))


def has(text: str, entry: str) -> bool:
    """Whether the folded text holds the lexicon entry (see `lexicon`)."""
    if _CJK.search(entry):
        return entry in text
    return _pattern(entry).search(text) is not None


class _Index:
    """Lexicon entries by concept, looked up by a text's words: a whole-word entry by its word, a
    prefix entry ("сестр*") by the words' beginnings, the rest (several words, a hyphen, Chinese
    or Japanese) as `has` reads them. One pass over a text's words, not a pattern per entry: the
    judge reads every text of a batch (`bench add`)."""

    def __init__(self, groups: dict[str, tuple[str, ...]]) -> None:
        self.words: dict[str, set[str]] = {}
        self.prefixes: dict[str, list[tuple[str, str]]] = {}
        self.others: list[tuple[str, str]] = []
        self.cjk: list[tuple[str, str]] = []  # read only in a text with Chinese or Japanese
        for concept, group in groups.items():
            for entry in group:
                word = entry.rstrip("*")
                if _CJK.search(entry):
                    self.cjk.append((entry, concept))
                elif not re.fullmatch(r"\w+", word):
                    self.others.append((entry, concept))
                elif entry.endswith("*"):
                    self.prefixes.setdefault(word[:2], []).append((word, concept))
                else:
                    self.words.setdefault(word, set()).add(concept)

    def concepts(self, folded: str) -> frozenset[str]:
        found: set[str] = set()
        for word in _WORD.findall(folded):
            found |= self.words.get(word, set())
            found.update(c for p, c in self.prefixes.get(word[:2], ()) if word.startswith(p))
        found.update(c for entry, c in self.others if c not in found and has(folded, entry))
        if self.cjk and _CJK.search(folded):
            found.update(c for entry, c in self.cjk if c not in found and entry in folded)
        return frozenset(found)


@cache
def _index(groups: tuple[tuple[str, tuple[str, ...]], ...]) -> _Index:
    return _Index(dict(groups))


def concepts(folded: str, groups: dict[str, tuple[str, ...]]) -> frozenset[str]:
    """Which groups of lexicon entries the folded text holds an entry of."""
    return _index(tuple(groups.items())).concepts(folded)


def has_any(folded: str, entries: tuple[str, ...]) -> bool:
    """Whether the folded text holds any of the lexicon entries."""
    return bool(concepts(folded, {"": entries}))


def matched(text: str, entries: Iterable[str]) -> frozenset[str]:
    return _matched(text, tuple(entries))


@lru_cache(maxsize=4096)
def _matched(text: str, entries: tuple[str, ...]) -> frozenset[str]:
    folded = _fold(text)
    return frozenset(e.rstrip("*") for e in concepts(folded, {e: (e,) for e in entries}))


def _additive(text: str) -> bool:
    folded = _fold(text).replace("もう", "")  # "no longer" in Japanese, not "also"
    return has_any(folded, ADDITIVE_CUES)


@lru_cache(maxsize=4096)
def people(text: str) -> frozenset[str]:
    """The people a text names, as concepts (mum and mother are one)."""
    return concepts(wording.untangled(_fold(text)), PEOPLE)


@lru_cache(maxsize=4096)
def names(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Proper names and numbers: (sure, all). Sure: capitalised words past a sentence's start
    (German capitalises every noun: there only digits are sure), and digits; all adds the
    capitalised words that start a sentence, which match but never conflict."""
    german = _GERMAN.search(_fold(text)) is not None
    sure: set[str] = set()
    maybe: set[str] = set()
    for sentence in re.split(r"(?<=[!?;])\s+|(?<=\w\w\w[.])\s+", text.strip()):
        for match in _NAME.finditer(sentence):
            word = _fold(match.group(1).strip(".,:;'"))
            if not word or match.group(1) in _NOT_NAMES:
                continue
            digits = any(c.isdigit() for c in word)
            (sure if digits or (match.start() > 0 and not german) else maybe).add(word)
    return frozenset(sure), frozenset(sure | maybe)


@lru_cache(maxsize=4096)
def slots(text: str) -> frozenset[str]:
    folded = _fold(text)
    return concepts(folded, SLOTS)


# Words that open a subject but name no one: determiners, possessives, the speaker's pronouns.
_OPENERS = frozenset(
    entries(
        "my|our|the|a|an|his|her|their|your|mein|meine|meiner|unser|unsere|der|die|das|ein|eine",
        "mi|mis|nuestro|nuestra|el|la|los|las|un|una|mon|ma|mes|notre|nos|le|les|une",
        "meu|minha|meus|minhas|nosso|nossa|o|os|as|um|uma|мой|моя|мои|моего|моей|наш|наша|наши",
    )
)
_SPEAKER = frozenset(
    entries("i|i'm|i've|i'd|we|we're|ich|wir|yo|je|j'ai|on|nous|eu|nós|я|мы|me|moi|mir|mich")
)


# After a name opening a sentence, a third person's verb: "Lena works …", "Lucía trabaja …". A
# capitalised first word followed by anything else is likely a verb of a language that drops the
# pronoun ("Soy alérgica", "Moro em Curitiba", "Живу в Казани"), not a name.
_THIRD_PERSON = frozenset(
    entries(
        "is|was|works|lives|has|had|now|just|still|will|turns|got|moved|left|started|plays|runs",
        "ist|war|arbeitet|wohnt|lebt|hat|spielt|jetzt|es|está|trabaja|vive|tiene|juega|ahora",
        "est|travaille|habite|vit|a|joue|é|trabalha|mora|tem|joga|agora|работает|живёт|живет|",
        "играет|учится|теперь",
    )
)


@lru_cache(maxsize=4096)
def lead_names(text: str) -> frozenset[str]:
    """The names a text opens with, as its subject: "Anna is a nurse" → anna, "My flatmate Jo
    is a vet" → jo, "Jo, my flatmate, …" → jo; none when the speaker opens it ("I work at
    Acme": a name later in the sentence is an object, not who the fact is about). A capitalised
    word right after "my", "mein" … is a noun (German), not a name."""
    first = re.split(r"[,;:()\u3001\uff0c]|(?<=\w\w\w[.!?])\s", text.strip(), maxsplit=1)[0]
    words = re.findall(r"[\w'-]+", first)
    out: set[str] = set()
    after_opener = False
    for n, word in enumerate(words):
        folded = _fold(word)
        if folded in _SPEAKER and not out:
            return frozenset()
        if folded in _OPENERS:
            after_opener = True
            continue
        if word[:1].isupper() and not word[:1].isdigit():
            following = words[n + 1] if n + 1 < len(words) else None
            if after_opener:
                pass
            elif (
                n > 0
                or following is None
                or following[:1].isupper()
                or _fold(following) in _THIRD_PERSON
            ):
                out.add(folded)
            else:
                return frozenset()  # a verb whose subject is the speaker: "Живу в Казани"
        elif out or n >= 3:
            break
        after_opener = False
    return frozenset(out)


def _same_name(x: str, y: str) -> bool:
    """One name in two forms: a prefix (VW's ~ VW), or a Cyrillic name's ending (Маша ~ Маше)."""
    if x.startswith(y) or y.startswith(x):
        return True
    cyrillic = bool(re.match("[\u0400-\u04ff]", x))
    common = next(
        (i for i, (a, b) in enumerate(zip(x, y, strict=False)) if a != b), min(len(x), len(y))
    )
    return cyrillic and common >= 3 and common >= max(len(x), len(y)) - 2


def _different_subjects(new: str, old: str) -> bool:
    """Each text opens with a name the other never mentions: "Lena is a nurse" / "Sofia is a
    nurse", two people however alike the rest."""
    lead_new, lead_old = lead_names(new), lead_names(old)
    if not lead_new or not lead_old:
        return False
    words_new = {_fold(w) for w in re.findall(r"[\w'-]+", new)}
    words_old = {_fold(w) for w in re.findall(r"[\w'-]+", old)}
    return not any(_same_name(x, y) for x in lead_new for y in words_old) and not any(
        _same_name(x, y) for x in lead_old for y in words_new
    )


def _alone(x: str, other: frozenset[str]) -> bool:
    """No match for x in other (a prefix or a digits' suffix counts: VW ~ VW's, 1988 ~ '88)."""
    return not any(
        x.startswith(y) or y.startswith(x) or x.endswith(y) or y.endswith(x) for y in other
    )


def names_clash(new: str, old: str) -> bool:
    """Each side names something the other does not (Thai / Vietnamese, 3 May / 3 March, Paula /
    Paulo), one name in two languages being one (Wien ~ Vienna, `wording`'s meanings)."""
    (sure_a, all_a), (sure_b, all_b) = names(new), names(old)
    all_a, all_b = all_a | _meant(all_a), all_b | _meant(all_b)
    return any(_unmatched(x, all_b) for x in sure_a) and any(_unmatched(y, all_a) for y in sure_b)


def _unmatched(name: str, other: frozenset[str]) -> bool:
    """No form of the name among the other's: a prefix, a digits' tail, the lexicon's meaning,
    a Cyrillic name's ending (Маша ~ Маше)."""
    meant = _meant_one(name)
    return (
        _alone(name, other)
        and _alone(meant, other)
        and not any(_same_name(name, y) for y in other if not name.isdigit())
    )


def _meant_one(name: str) -> str:
    """The name as the lexicon's meaning when it is one (sevilla → seville), else itself."""
    keys = wording.said(name).keys
    return next(iter(keys)) if len(keys) == 1 else name


def _meant(found: frozenset[str]) -> frozenset[str]:
    return frozenset(_meant_one(n) for n in found)


def _same_subject(new: str, old: str) -> bool:
    """The new text names again something the old one is about: a name (I left Shopify / I work
    at Shopify), a longer word's stem (smoker / smoking), or a Chinese or Japanese pair of
    characters (朗逸)."""
    (_, all_old), (_, all_new) = names(old), names(new)
    if any(not _alone(x, all_new) for x in all_old if not x.isdigit()):
        return True
    if _CJK.search(old) and _CJK.search(new):
        a = re.sub(r"\W", "", old)
        pairs = {a[i : i + 2] for i in range(len(a) - 1)} - COMMON_CJK
        return any(p in new for p in pairs if _IDEOGRAPH.search(p))
    stems_old = {w[:4] for w in _WORD.findall(_fold(old)) if _telling(w) and not _generic(w)}
    return any(
        w[:4] in stems_old for w in _WORD.findall(_fold(new)) if _telling(w) and not _generic(w)
    )


# Verbs of many things at once: learning French and learning German, playing tennis and golf.
_GENERIC_VERBS = frozenset({"learn", "play", "like", "hate", "attend", "drink"})


def _generic(word: str) -> bool:
    """Whether the word is a verb said of many things ("I started learning German" names no
    subject of "I'm learning French"): its object is the subject."""
    return bool(wording.said(word).keys & _GENERIC_VERBS)


def _telling(word: str) -> bool:
    """A word that can tell what a text is about: four letters or more and not common, or a
    three-letter noun (gym, car, job) that is neither filler nor a change cue."""
    if len(word) >= 4:
        return word not in COMMON_WORDS
    return len(word) == 3 and not wording.filler(word) and word not in CHANGE_CUES


def _swapped(new: str, old: str) -> bool:
    """The same sentence with a short part swapped: "I love Thai food" / "I love Vietnamese
    food", 和食が好き / 韓国料理が好き. A look-alike: never merged on its cosine alone."""
    cjk = bool(_CJK.search(new) and _CJK.search(old))
    a: list[str] = list(re.sub(r"\W", "", new)) if cjk else _WORD.findall(_fold(new))
    b: list[str] = list(re.sub(r"\W", "", old)) if cjk else _WORD.findall(_fold(old))
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    rest_a, rest_b = len(a) - head - tail, len(b) - head - tail
    most = 4 if cjk else 3
    if not (0 < rest_a <= most and 0 < rest_b <= most and head + tail >= max(rest_a, rest_b)):
        return False
    if cjk:
        return True
    # One word in two forms is no swap (Brazilian / Brazil, alérgica / alergia).
    left = {_bare(w)[:5] for w in a[head : len(a) - tail] if len(w) >= 5}
    return not any(_bare(w)[:5] in left for w in b[head : len(b) - tail] if len(w) >= 5)


def _bare(word: str) -> str:
    """The word without accents (alérgica → alergica)."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


_HAVE_GOT = re.compile(r"(?:(?<!\w)have|(?<!\w)has|'ve|'s)\s+got(?!\w)")


def _cues(text: str) -> frozenset[str]:
    """The change cues the text holds ("I've got a brother" is having one, not "got a")."""
    return matched(_HAVE_GOT.sub("have", _fold(text)), CHANGE_CUES)


# "I have lived here since 2015", "she's worked there for years": still true, not a past state.
_PERFECT = re.compile(
    r"(?:(?<!\w)have|(?<!\w)has|'ve|'s)\s+(?:\w+\s+)?(?=lived|worked|studied|owned|had)\w+"
)


def _past(text: str) -> bool:
    """Whether the text tells a past state ("I had a cat as a child"), the present perfect not."""
    return bool(matched(_PERFECT.sub("", _fold(text)), PAST))


_EVENTS = frozenset({"born", "marri"})  # wording keys of events, past by nature


def _event(new: str, old: str) -> bool:
    """Both tell one event, whatever the tense ("I was born in 1988" / "I'm born in '88", "We got
    married in 2019" / "Our wedding was in 2019")."""
    return bool(_EVENTS & wording.said(new).keys & wording.said(old).keys)


def _named(said: wording.Comparison, new: str, old: str) -> bool:
    """Whether the one key a side lacks may be a name: capitalised in either text and no meaning
    of the lexicon ("Greenfield Primary School": a school), or Chinese or Japanese (where a name
    is not told from other words): "Tom is a nurse" / "I'm a nurse"."""
    written = names(new)[1] | names(old)[1]
    return any(
        _CJK.search(key)
        or (not wording.meaning(key) and any(not _alone(key, frozenset({n})) for n in written))
        for key in said.missing
    )


_AND = re.compile(r"(?<!\w)(and|und|y|e|et|и|as well as)(?!\w)|[和与及]")


def _adds_detail(said: wording.Comparison, new: str, old: str) -> bool:
    """The one key the new text adds is a detail of its own, not a wording: a name or place
    ("I work at Google" / "… at Google in Zurich"; a word that goes on a name both share,
    "Greenfield Primary" / "Greenfield Primary School", is the same name), or one more item of
    a list the old text did not have ("allergic to shellfish" / "shellfish and peanuts")."""
    if not said.added:
        return False
    if _AND.search(_fold(new)) and not _AND.search(_fold(old)):
        return True
    shared = names(old)[1]
    words = re.findall(r"[\w'-]+", new)
    for n, word in enumerate(words):
        if n == 0 or not word[:1].isupper() or word in _NOT_NAMES:
            continue
        if _fold(words[n - 1]) in shared and words[n - 1][:1].isupper():
            continue
        if any(k in said.added for k in wording.said(word).keys):
            return True
    return False


def _slotted_change(new: str, old: str) -> bool:
    """The new text says the fact of the old one's slot changed: a change cue, and both in the
    same slot (job, home, car, phone, diet, relationship): "My phone is an iPhone 12" / "I got
    a Pixel 9 last week", "We rent a flat" / "We bought a house"; or both name the same role,
    which is the slot ("My landlord is Mr. Huber" / "our landlord is Vonovia now")."""
    same = slots(new) & slots(old) or people(new) & people(old) & ROLES
    return bool(same) and bool(_cues(new) - _cues(old))


def _older(new: str, old: str) -> Verdict | None:
    """Two ages of the same one, nothing else said differently (the judge has checked people
    and names first): a few years more is
    the age now ("My son is 8." / "My son just turned 9."); less, or many more, waits for the
    owner (another child? a typo?). None when either text states no age."""
    age_new, age_old = wording.age(new), wording.age(old)
    if age_new is None or age_old is None or age_new == age_old:
        return None
    # Nothing else differs but a word or two of the change ("just turned", "yesterday", "уже"):
    # "Vivo aquí desde hace 5 años" / "Trabajo aquí desde hace 6 años" are two facts.
    keys_new = frozenset(k for k in wording.said(new).keys if not k.isdigit())
    keys_old = frozenset(k for k in wording.said(old).keys if not k.isdigit())
    added = wording.uncovered(keys_new, keys_old)
    if wording.uncovered(keys_old, keys_new) or len(added) > 2 or any(map(wording.meaning, added)):
        return None
    if 0 < age_new - age_old <= 5:
        return Verdict(UPDATE, f"older: {age_old} → {age_new}")
    return Verdict(UNSURE, f"another age: {age_old} → {age_new}")


def _extends(said: wording.Comparison) -> bool:
    """The new text says all the old one says and more ("I work at Spotify" / "… on the payments
    team", "I have a dog" / "My dog is called 旺财", "Tengo un gato" / "Mi gato tiene cinco
    años"): more than the stored fact, so never merged into it on the cosine (the merge would
    serve the old text and lose the new detail)."""
    old_only = said.missing - said.added
    return not old_only and wording.words(said.added) >= 1


def _few_shared(said: wording.Comparison) -> bool:
    """The new text shares fewer words with the old one than it adds, and fewer than two: not
    the same fact however close the cosine (我在华为工作 / 我30岁了 at .83 in MiniLM's space; "Wir
    planen eine Reise nach Norwegen" / "Wir wollen in Norwegen Wale beobachten" at .94 in e5's)."""
    return said.shared < 1 or (said.shared < 2 and said.shared < len(said.added))


def judge(new: str, old: str, cosine: float, cut: Cosines) -> Verdict:
    """What the new text does to the stored one: the rules' verdict (`rules`), except that a pair
    the rules leave beside each other for no hard reason goes to the owner's Review when the
    model's pair scorer (`scorer`, fitted on the dev splits) finds it likely one fact: "when
    unsure, the change goes to the owner's Review", not stored beside as a second memory."""
    verdict = rules(new, old, cosine, cut)
    if verdict.why != DIFFERENT or cut.fitted is None or not scorer_may_ask(new, old):
        return verdict
    found = scorer.probability(new, old, cosine, cut, (slots(new), slots(old)), cut.fitted)
    if found >= cut.fitted.review:
        return Verdict(UNSURE, f"may be the same fact ({found:.2f})")
    return verdict


DIFFERENT = "different"  # close enough to judge, and neither the same nor a change by the rules


def scorer_may_ask(new: str, old: str) -> bool:
    """Whether the pair scorer may be asked: no name or number differs, and no third person is on
    one side only ("我是护士" / "她是护士": two people, stored side by side, never the owner's
    question)."""
    return not names_clash(new, old) and not wording.compare(new, old).someone_else


def _apart(new: str, old: str, cosine: float, cut: Cosines, *, lexical: bool) -> Verdict | None:
    """The rules' first step: the verdict when the two are not close enough to compare, are about
    different people or subjects, the new one adds to the old, or one is the other's older age."""
    if cosine < cut.floor and not (
        lexical or (cosine >= cut.slot_update and _slotted_change(new, old))
    ):
        return Verdict(DISTINCT, "not similar")
    if people(new) != people(old):
        return Verdict(DISTINCT, "about different people")
    if _different_subjects(new, old):
        return Verdict(DISTINCT, "about someone else")
    if _additive(new):
        return Verdict(DISTINCT, "adds to it")
    return _older(new, old)


def rules(new: str, old: str, cosine: float, cut: Cosines) -> Verdict:
    """What the new text does to the stored one by the rules alone. Never a merge or a supersede
    across different people (kinship and role words: a coach is not a team lead, a mother not a
    mother-in-law; someone else is not the speaker), nor across subjects named differently
    ("Lena …" / "Sofia …"), and never a merge across different names or numbers."""
    said = wording.compare(new, old)
    lexical = said.same and (
        said.keys >= LEXICAL_KEYS or cosine >= cut.floor or wording.all_meanings(new)
    )
    apart = _apart(new, old, cosine, cut, lexical=lexical)
    if apart is not None:
        return apart
    past = _past(new) != _past(old) and not _event(new, old)
    cues = _cues(new) - _cues(old)
    if (
        not past
        and not names_clash(new, old)
        and (
            lexical
            or (
                not cues
                and said.near
                and cosine >= cut.unsure
                and not _named(said, new, old)
                and not _adds_detail(said, new, old)
            )
        )
    ):
        return Verdict(RESTATE, "says the same in other words")
    slot_new, slot_old = slots(new), slots(old)
    same_slot = bool(slot_new & slot_old)
    if cues:
        if said.someone_else:  # "Ich wohne in Wien" / "Er wohnt jetzt in Wien": who moved?
            return Verdict(UNSURE, "may be about someone else: " + ", ".join(sorted(cues)))
        subject = not (cues <= NEW_CUES) and _same_subject(new, old)
        if (cosine >= cut.update and (same_slot or subject)) or (
            cosine >= cut.slot_update and _slotted_change(new, old)
        ):
            return Verdict(UPDATE, "changed: " + ", ".join(sorted(cues)))
        return Verdict(UNSURE, "may have changed: " + ", ".join(sorted(cues)))
    conflict = (
        names_clash(new, old)
        or _swapped(new, old)
        or past
        or said.opposed
        or (said.said_not and not said.same)
        or (bool(slot_new) and bool(slot_old) and not same_slot)
        or wording.adds_meaning(said)
        or _few_shared(said)
        or _extends(said)
        or _adds_detail(said, new, old)
    )
    if not conflict and cosine >= cut.restate:
        return Verdict(RESTATE, "says the same")
    if cosine >= cut.unsure and (same_slot or not conflict):
        return Verdict(UNSURE, "close, not the same")
    return Verdict(DISTINCT, DIFFERENT)
