"""How likely two texts tell one fact (a restatement or an update of it), from features any pair
has, not from the lexicon's list of known wordings: the model's cosine on the model's own scale,
how much of each text's content the other covers (by the `wording` keys, and by character
trigrams, which match a word's other forms in every language: swim ~ swimming, Москве ~ Москва,
学校 ~ 学校に), numbers, negation and the slot.

The weights are a logistic regression per model (`thresholds.Fitted`), fitted on the dev splits of
the `bench reconcile` sets only (`python -m bench reconcile-fit` prints them with their
cross-validated figures), on the pairs the judge's rules leave beside each other; they are copied
into `thresholds` so the judge needs no training at run time. The judge asks the scorer only
whether such a close pair goes to the owner's Review — never to merge or supersede, and never
about two different people, a name or number that differs, or an addition (`judge.judge`).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from memories.reconciliation import wording
from memories.reconciliation.thresholds import Cosines, Fitted

_SPACE = re.compile(r"[\W_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")

FEATURES = (
    "cosine",  # on the model's scale: 0 at its floor, 1 at its restate cosine
    "covered_new",  # the share of the new text's keys the old one has
    "covered_old",  # the share of the old text's keys the new one has
    "trigrams",  # the share of the shorter text's character trigrams the other has
    "shared",  # words of the new text the old one has, up to 4, as a share of 4
    "numbers_differ",  # a number on one side the other lacks
    "negation",  # negated on one side only (as read, or as written)
    "same_slot",  # both in one slot (job, home, car …)
    "other_slot",  # both slotted, in different slots
    "length",  # |log| of the two texts' key counts' ratio
    "scripts",  # one text in Latin letters, the other not (a cosine across languages)
)


def _trigrams(text: str) -> frozenset[str]:
    body = _SPACE.sub(" ", wording.plain(text)).strip()
    size = 2 if _CJK.search(body) else 3
    grams: set[str] = set()
    for word in body.split():
        if len(word) <= size:
            grams.add(word)
        grams.update(word[i : i + size] for i in range(len(word) - size + 1))
    return frozenset(grams)


def _latin(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(c.isascii() or "\u00c0" <= c <= "\u024f" for c in letters) > (
        len(letters) / 2
    )


@lru_cache(maxsize=4096)
def features(
    new: str, old: str, cosine: float, cut: Cosines, slots: tuple[frozenset[str], frozenset[str]]
) -> tuple[float, ...]:
    """The pair's features, in `FEATURES` order (`slots`: the judge's slots of new and old)."""
    a, b = wording.said(new), wording.said(old)
    said = wording.compare(new, old)
    covered_new = 1 - len(wording.uncovered(a.keys, b.keys)) / max(len(a.keys), 1)
    covered_old = 1 - len(wording.uncovered(b.keys, a.keys)) / max(len(b.keys), 1)
    grams_a, grams_b = _trigrams(new), _trigrams(old)
    trigrams = len(grams_a & grams_b) / max(min(len(grams_a), len(grams_b)), 1)
    digits_a = {k for k in a.keys if k.isdigit()}
    digits_b = {k for k in b.keys if k.isdigit()}
    slot_a, slot_b = slots
    return (
        (cosine - cut.floor) / (cut.restate - cut.floor),
        covered_new,
        covered_old,
        trigrams,
        min(said.shared, 4) / 4,
        float(bool(digits_a ^ digits_b)),
        float(a.negated != b.negated or said.said_not),
        float(bool(slot_a & slot_b)),
        float(bool(slot_a) and bool(slot_b) and not slot_a & slot_b),
        abs(math.log((len(a.keys) + 1) / (len(b.keys) + 1))),
        float(_latin(new) != _latin(old)),
    )


def probability(
    new: str,
    old: str,
    cosine: float,
    cut: Cosines,
    slots: tuple[frozenset[str], frozenset[str]],
    fitted: Fitted,
) -> float:
    """The fitted probability that the pair tells one fact."""
    found = features(new, old, cosine, cut, slots)
    z = fitted.bias + sum(w * x for w, x in zip(fitted.weights, found, strict=True))
    return 1 / (1 + math.exp(-z))
