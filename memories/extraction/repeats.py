"""Near-duplicates among extracted memories: "I'm vegetarian" said in thirty chats is one fact.

A new clause repeats an earlier memory when it adds nothing to it: the same text once case and
punctuation are folded, or every content word of the new clause is already in the earlier one,
with the same polarity, and the two embeddings are close (the model's `repeat_cosine`,
`memories/search/model_profiles.py`). Cosine alone would merge "I have two kids" with "I have three
kids" (0.92 with all-MiniLM-L6-v2) and keep "I'm vegetarian" apart from "i'm vegetarian btw"
(0.84); the word rule decides, and the cosine only keeps a short clause
from matching a long memory on another topic that happens to hold its words. Neither sees word
order: "my sister is older than me" would repeat "I'm older than my sister" (cosine 0.92).

The earlier memory stays, and the import counts the repeat on it (see memories/services/imports.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from memories.search.model_profiles import current
from memories.text import normalise

_CONTRACTIONS = (
    ("n't", " not"),
    ("'m", " am"),
    ("'re", " are"),
    ("'ve", " have"),
    ("'ll", " will"),
    ("'d", " would"),
    ("'s", ""),
)
_NEGATIONS = frozenset({"not", "no", "never", "without", "nor", "cannot", "dont", "didnt", "cant"})
_STOP_WORDS = """
a about actually after all also am an and any anyway are as at basically be been being btw
but by can could did do does doing for from fyi get got had has have having he her here him
his honestly how i im in into is it its just kind kinda like lol me mine my myself of oh ok
okay on or our ours out pls please pretty quite really she so some still that the their them
then there these they this those to too totally um us very was we were what when which who
will with would yeah yes you your
"""
_STOP = frozenset(_STOP_WORDS.split())


def _tokens(text: str) -> list[str]:
    lowered = text.lower().replace("\u2019", "'")
    for short, full in _CONTRACTIONS:
        lowered = lowered.replace(short, full)
    return re.findall(r"[^\W_]+", lowered)


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def content_words(text: str) -> frozenset[str]:
    """The words that carry the fact: no function words, no negations, plurals folded."""
    return frozenset(
        _stem(w) for w in _tokens(text) if w not in _STOP and w not in _NEGATIONS and len(w) > 1
    )


def negated(text: str) -> bool:
    return any(w in _NEGATIONS for w in _tokens(text))


R = TypeVar("R")


@dataclass(frozen=True)
class _Said(Generic[R]):
    ref: R
    key: str
    words: frozenset[str]
    negated: bool


class RepeatIndex(Generic[R]):
    """Memories said so far (with a reference the caller chooses), searched for repeats.
    `cosine`: how close two embeddings must be (the current model's unless given)."""

    def __init__(self, cosine: float | None = None) -> None:
        self.cosine = current().repeat_cosine if cosine is None else cosine
        self._said: list[_Said[R]] = []
        self._by_key: dict[str, R] = {}
        # Unit vectors, one row per memory; grown by doubling, so a long import that adds a few
        # memories per conversation does not copy the whole matrix each time.
        self._matrix = np.empty((0, 0), dtype=np.float32)

    def __len__(self) -> int:
        return len(self._said)

    def add(self, ref: R, text: str, vector: np.ndarray) -> None:
        said = _Said(ref, normalise(text), content_words(text), negated(text))
        self._said.append(said)
        self._by_key.setdefault(said.key, ref)
        unit = np.asarray(vector, dtype=np.float32).ravel()
        n = len(self._said) - 1
        if n >= self._matrix.shape[0]:
            grown = np.empty((max(16, 2 * n), unit.shape[0]), dtype=np.float32)
            if n:
                grown[:n] = self._matrix[:n]
            self._matrix = grown
        self._matrix[n] = unit / max(float(np.linalg.norm(unit)), 1e-12)

    def extend(self, items: Sequence[tuple[R, str, np.ndarray]]) -> None:
        for ref, text, vector in items:
            self.add(ref, text, vector)

    def find(self, text: str, vector: np.ndarray) -> R | None:
        """The earliest memory this text repeats, or None."""
        key = normalise(text)
        if key in self._by_key:
            return self._by_key[key]
        if not self._said:
            return None
        unit = np.asarray(vector, dtype=np.float32).ravel()
        sims = self._matrix[: len(self._said)] @ (unit / max(float(np.linalg.norm(unit)), 1e-12))
        words, neg = content_words(text), negated(text)
        for index in np.flatnonzero(sims >= self.cosine):
            said = self._said[int(index)]
            if words and said.negated == neg and words <= said.words:
                return said.ref
        return None
