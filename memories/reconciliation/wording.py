"""What a text says, as content keys, so a restatement is recognised below the cosine at which
the embedding alone is sure ("I'm 34" / "I am thirty-four years old", "Ich bin allergisch gegen
Penicillin" / "Ich habe eine Penicillinallergie", "Tengo dos gatos" / "I have two cats").

A text's keys: its words, folded and without accents, after one wording of a meaning replaced
every other (`lexicon.WORDINGS`: "teetotal" ~ "don't drink alcohol" ~ "不喝酒"; people words
as their concept, `lexicon.PEOPLE`: "Tochter" ~ "daughter"), filler dropped (pronouns,
articles, auxiliaries, "the user", naming verbs), number words read as numbers, Chinese and
Japanese as the lexical search arm segments them (character bigrams, `search.lexical.segment`)
once kana and filler characters are gone. Two texts say the same when each one's keys are all
found in the other's (a stem-lite match: "lives" ~ "live", "Маша" ~ "Маше", a compound holds
its parts) and a negation is on both sides or neither.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from memories.language import UNSPACED
from memories.reconciliation.lexicon import (
    AGE_WORDS,
    DROPPED_OPENERS,
    FILLER,
    FILLER_CJK,
    NEGATIONS,
    NUMBERS,
    PEOPLE,
    TENS,
    THIRD_PERSON_VERBS,
    WORDINGS,
)
from memories.search.lexical import segment

_CJK_RUN = re.compile(f"[{UNSPACED}]+")
_HIRAGANA = re.compile("[\u3040-\u309f]+")
_CJK_NUMERAL = re.compile("[〇零一二两三四五六七八九十]+")
_CJK_DIGITS = {c: n for n, c in enumerate("〇一二三四五六七八九")} | {"零": 0, "两": 2}
_TOKEN = re.compile(r"[a-z]+(?:_[a-z]+)+|[^\W_]+(?:'[^\W_]+)*")
_GERMAN_COMPOUND = re.compile(r"(\w+)und(\w+)")
_ONES = frozenset({"one", "un", "une", "uno", "una", "um", "uma", "один", "одна"})


SOMEONE = "someone"  # the key of a third person's pronoun: he, sie, elle, он, 他, 彼女 …
_CAPITALISED = re.compile(r"(?<![\w'])[A-ZÀ-ÞА-Я][\w'-]*")


@dataclass(frozen=True)
class Said:
    """A text's content keys and whether it is negated."""

    keys: frozenset[str]
    negated: bool  # once its wordings are read ("don't eat meat" is "vegetarian", not negated)
    said_not: bool  # as written


def plain(text: str) -> str:
    """Folded (NFKC, casefold, one apostrophe) and without Latin or Cyrillic accents; Chinese and
    Japanese untouched (a decomposed kana would lose its voicing mark)."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    return folded if folded.isascii() else "".join(map(_bare, folded))


@lru_cache(maxsize=2048)
def _bare(char: str) -> str:
    if ord(char) >= 0x0530:
        return char
    return "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))


def _key(phrase: str) -> str:
    return re.sub(r"[ /-]", "_", phrase)


@cache
def _people() -> frozenset[str]:
    """The keys of people words (`lexicon.PEOPLE`: daughter, in_law, team_lead …)."""
    return frozenset(_key(concept) for concept in PEOPLE)


@cache
def _wordings() -> tuple[re.Pattern[str], dict[str, str], list[tuple[str, str]]]:
    """One pattern for every phrase to replace (longest first), the whole phrases' replacement
    by phrase and the prefix phrases' by stem. People and multi-word filler become nothing."""
    whole: dict[str, str] = {}
    prefixes: list[tuple[str, str]] = []
    groups = [(line.split("|")[0], line.split("|")[1:]) for line in WORDINGS]
    groups += [(concept, [plain(e) for e in group]) for concept, group in PEOPLE.items()]
    groups += [("", [e for e in FILLER if " " in e or "-" in e or _CJK_RUN.search(e)])]
    for key, phrases in groups:
        for phrase in phrases:
            phrase = plain(phrase.strip())
            if not phrase or (key in PEOPLE and len(phrase) == 1):  # 姐, 母: to the bigrams
                continue
            if phrase.endswith("*"):
                prefixes.append((phrase[:-1], _key(key)))
            else:
                whole.setdefault(phrase, _key(key))
    cjk = sorted((p for p in whole if _CJK_RUN.search(p)), key=len, reverse=True)
    spaced = sorted((p for p in whole if not _CJK_RUN.search(p)), key=len, reverse=True)
    stems = sorted({p for p, _ in prefixes}, key=len, reverse=True)
    prefixes.sort(key=lambda pair: -len(pair[0]))
    pattern = rf"(?<!\w)(?:{_trie(spaced)})(?!\w)|(?<!\w)(?:{_trie(stems)})\w*|(?:{_trie(cjk)})"
    return re.compile(pattern), whole, prefixes


def _trie(phrases: list[str]) -> str:
    """The phrases as one pattern shaped as a trie of their characters ("ab|abc|ad" as
    "a(?:b(?:c)?|d)"): `re` tries an alternation's branches one by one at every position, a trie
    one character at a time, and its greedy optional tails still match the longest phrase first."""
    root: dict[str, Any] = {}
    for phrase in phrases:
        node = root
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        branches = [re.escape(c) + pattern(child) for c, child in node.items() if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return pattern(root)


def _replace(match: re.Match[str]) -> str:
    _, whole, prefixes = _wordings()
    found = match.group()
    key = whole.get(found)
    if key is None:
        key = next((k for stem, k in prefixes if found.startswith(stem)), "")
    return f" {key} "


@cache
def _numbers() -> dict[str, int]:
    values: dict[str, int] = {}
    for line in NUMBERS:
        for n, word in enumerate(line.split("|")):
            if word != "-":
                values.setdefault(word, n)
    for line in TENS:
        for n, word in enumerate(line.split("|")):
            values.setdefault(word, 30 + 10 * n)
    return values


def _cjk_number(match: re.Match[str]) -> str:
    run = match.group()
    if run == "一":
        return run  # "a", "one": filler
    if "十" not in run:
        return " " + "".join(str(_CJK_DIGITS[c]) for c in run if c in _CJK_DIGITS) + " "
    tens, _, units = run.partition("十")
    value = (_CJK_DIGITS.get(tens[-1], 1) if tens else 1) * 10 + (
        _CJK_DIGITS.get(units[0], 0) if units else 0
    )
    return f" {value} "


@cache
def _filler() -> frozenset[str]:
    return frozenset(plain(word) for word in FILLER)


@cache
def _cjk_negations() -> tuple[str, ...]:
    return tuple(n for n in NEGATIONS if _CJK_RUN.match(n))


@cache
def _negations() -> frozenset[str]:
    return frozenset(plain(word) for word in NEGATIONS)


def _number(word: str) -> int | None:
    values = _numbers()
    if word in values:
        return values[word]
    compound = _GERMAN_COMPOUND.fullmatch(word)  # vierunddreissig, einundvierzig
    if compound and compound.group(2) in values:
        ones = 1 if compound.group(1) == "ein" else values.get(compound.group(1))
        if ones is not None:
            return ones + values[compound.group(2)]
    return None


def filler(word: str) -> bool:
    """Whether the folded word is filler (see `lexicon.FILLER`)."""
    return plain(word) in _filler()


def _negated(folded: str) -> bool:
    if any(n in folded for n in _cjk_negations()):
        return True
    return any(t in _negations() for t in _TOKEN.findall(folded))


def _named_first(text: str) -> bool:
    """A capitalised word before the first third person's pronoun: "Mila is six; she …"."""
    for word in _CAPITALISED.findall(text):
        folded = plain(word)
        if _wordings()[1].get(folded) == SOMEONE:
            return False
        if folded not in _filler():
            return True
    return False


_ENGLISH = re.compile(
    r"(?<![\w'])(my|our|your|his|her|their|the|is|was|has|have|had|and|of|i)(?!\w)"
)
_SON = re.compile(r"(?<![\w'])son(?![\w'])")


def untangled(folded: str) -> str:
    """The folded text with a word two languages share read as its own language means it: "son"
    is a son only beside English words ("my son", "son is"); in Spanish it is "they are" ("Mis
    padres son de Bilbao"), in French "his" ("son frère"): read as filler ("sont")."""
    if "son" in folded and not _ENGLISH.search(folded):
        return _SON.sub("sont", folded)
    return folded


def dropped_third_person(text: str) -> bool:
    """Whether the text opens with a third person's verb and no subject, in a language that drops
    the pronoun (`lexicon.THIRD_PERSON_VERBS`): "Vive en Sevilla", "Ahora mora em Curitiba"."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    for word in re.findall(r"[\w'-]+", re.split(r"[.!?;:,]", folded, maxsplit=1)[0]):
        if word not in DROPPED_OPENERS:
            return word in THIRD_PERSON_VERBS
    return False


@lru_cache(maxsize=4096)
def said(text: str) -> Said:
    """The text's content keys and negation (see the module's docstring)."""
    pattern = _wordings()[0]
    body = pattern.sub(_replace, untangled(plain(text)))
    body = _CJK_NUMERAL.sub(_cjk_number, body)
    said_not = _negated(plain(text))  # before "don't eat meat" became "vegetarian"
    negated = any(n in body for n in _cjk_negations())
    body = _HIRAGANA.sub(" ", body)
    body = re.sub(f"[{FILLER_CJK}岁歳才]", " ", body)
    body = segment(body, characters=False)
    keys: set[str] = set()
    previous: int | None = None
    for token in _TOKEN.findall(body):
        if token in _negations():
            negated = True
            continue
        for word in token.replace("'", " ").split():
            value = int(word) if word.isdigit() else _number(word)
            if value is None and word in _ONES and previous and previous % 10 == 0:
                value = 1  # forty-one, vingt et un, сорок один ("one" alone is "a")
            if value is None and word in _filler() and word not in _meanings():
                continue
            if value is not None:
                if previous is not None and previous % 10 == 0 and 0 < value < 10:
                    keys.discard(str(previous))  # thirty-four, dix-sept
                    value += previous
                keys.add(str(value))
                previous = value
                continue
            previous = None
            keys.add(word)
    if keys & _people() or _named_first(text):
        keys.discard(SOMEONE)  # "Chloé … elle a 12 ans", "My sister … she": the one named
    if dropped_third_person(text):
        keys.add(SOMEONE)  # "Vive en Sevilla": someone, not the speaker ("Vivo en Sevilla")
    return Said(frozenset(keys), negated, said_not)


_AGE_WORDS = re.compile(
    r"(?<!\w)(?:" + "|".join(sorted(map(re.escape, AGE_WORDS), key=len, reverse=True)) + r")(?!\w)"
)
_CJK_AGE = re.compile("[岁歲歳才]")
# "My son is 8.", "I'm 29", "Mein Sohn ist jetzt 7.": a number closing a short "… is N".
_IS_NUMBER = re.compile(
    r"(?<![\w'])(?:i'm|'m|am|is|ist|bin|es|est|é|sind)\s+(?:now\s+|jetzt\s+|already\s+|schon\s+)?"
    r"[\w-]+\s*[.!]?\s*$"
)


@lru_cache(maxsize=4096)
def age(text: str) -> int | None:
    """The one age the text states ("My son is 8.", "I turned 30", "Моему сыну 5 лет", "娘は6歳
    になりました"), or None: no age word and no short "… is N", or more than one number."""
    folded = plain(text)
    numbers = [int(k) for k in said(text).keys if k.isdigit()]
    if len(numbers) != 1 or not 0 < numbers[0] <= 120:
        return None
    if _AGE_WORDS.search(folded) or _CJK_AGE.search(folded) or _IS_NUMBER.search(folded):
        return numbers[0]
    return None


@cache
def _meanings() -> frozenset[str]:
    return frozenset(_key(line.split("|")[0]) for line in WORDINGS) | _people()


def meaning(key: str) -> bool:
    """Whether the key is a meaning of the lexicon (`lexicon.WORDINGS`, `lexicon.PEOPLE`), not a
    word of its own."""
    return key in _meanings()


def all_meanings(text: str) -> bool:
    """Whether every key of the text is a meaning of the lexicon (not a word of its own)."""
    keys = said(text).keys
    return bool(keys) and keys <= _meanings()


def _alike(a: str, b: str) -> bool:
    """One word in two forms: equal, a number's tail ('88 ~ 1988), a shared beginning long
    enough for the shorter word (lives ~ live, маша ~ маше), or a compound holding the other."""
    if a.isdigit() or b.isdigit():
        short, long_ = sorted((a, b), key=len)
        return a.isdigit() and b.isdigit() and len(short) >= 2 and long_.endswith(short)
    if a[0] != b[0]:  # the common case, decided without the rest
        return len(a) >= 5 and len(b) >= 5 and (a in b or b in a) and not _CJK_RUN.match(a + b)
    if _CJK_RUN.match(a) or _CJK_RUN.match(b):
        return False
    shortest = min(len(a), len(b))
    common = 0
    while common < shortest and a[common] == b[common]:
        common += 1
    if common >= 5 or (shortest >= 4 and common >= max(3, shortest - 1)):
        return True
    if common == shortest >= 3 and abs(len(a) - len(b)) <= 2:
        return True
    return shortest >= 5 and (a in b or b in a)


def uncovered(keys: frozenset[str], other: frozenset[str], most: int = 0) -> frozenset[str]:
    """The keys with no match among the other text's (the first `most` found, when given:
    enough to tell two texts apart)."""
    out: set[str] = set()
    for key in keys - other:
        if not any(_alike(key, o) for o in other):
            out.add(key)
            if len(out) == most:
                break
    return frozenset(out)


@dataclass(frozen=True)
class Comparison:
    """Two texts' keys against each other."""

    keys: int  # the new text's
    missing: frozenset[str]  # either side's keys the other lacks (two at most on each side)
    opposed: bool  # negated on one side only, or about someone else on one side only
    said_not: bool  # a negation as written on one side only ("I eat meat" / "I don't eat meat")
    added: frozenset[str] = frozenset()  # the new text's keys the old one lacks (all of them)
    shared: int = 0  # how many words of the new text's keys the old one has (`words`)
    someone_else: bool = False  # a third person on one side only ("Ich wohne" / "Er wohnt")

    @property
    def same(self) -> bool:
        return self.keys > 0 and not self.missing and not self.opposed

    @property
    def near(self) -> bool:
        """All but one light key found both ways: never a number or someone else."""
        return (
            self.keys > 0
            and not self.opposed
            and len(self.missing) <= 1
            and not any(k.isdigit() or k == SOMEONE for k in self.missing)
        )


def compare(new: str, old: str) -> Comparison:
    """How far two texts say the same (see the module's docstring)."""
    a, b = said(new), said(old)
    return Comparison(
        keys=len(a.keys),
        missing=uncovered(a.keys, b.keys, 2) | uncovered(b.keys, a.keys, 2),
        opposed=a.negated != b.negated or (SOMEONE in a.keys) != (SOMEONE in b.keys),
        said_not=a.said_not != b.said_not,
        added=uncovered(a.keys, b.keys),
        shared=words(a.keys - uncovered(a.keys, b.keys)),
        someone_else=(SOMEONE in a.keys) != (SOMEONE in b.keys),
    )


def words(keys: frozenset[str]) -> int:
    """How many words the keys are: Chinese or Japanese bigrams that chain (北海 + 海道, one
    word 北海道) count once."""
    cjk = {k for k in keys if len(k) == 2 and _CJK_RUN.fullmatch(k)}
    chained = sum(1 for a in cjk for b in cjk if a != b and a[1] == b[0])
    return len(keys) - chained


def adds_meaning(said: Comparison) -> bool:
    """Whether the new text says something of the lexicon the old one does not ("I work as a
    doctor" / "I work at a children's hospital", 我有一个女儿 / 我女儿喜欢画画): more than the
    old fact, however close their cosine. A verb whose object carries the meaning ("drink" tea)
    adds nothing."""
    return any(meaning(key) and key not in _LIGHT_VERBS for key in said.added)


_LIGHT_VERBS = frozenset({"drink"})
