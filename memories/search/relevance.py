"""The relevance score of a memory for a query, in [0, 1] and meaning the same for every query:
its formula (dense evidence from the cosine, keyword evidence from BM25 over the caller's corpus,
a discount for a query the store does not know), BM25's corpus, exact cosines, and how the best
candidates are picked from approximate scores. Pure numpy and floats: the in-memory index and
PostgreSQL (`memories/search/scoring.py`) score with the same functions, so the same bits."""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from memories.search.embeddings import DIMENSIONS
from memories.search.model_profiles import Weights

# How far a cosine from BLAS or pgvector (float32 sums) may be from the exact one: 384 products of
# unit vectors lose at most 384 * 2^-24 = 2.3e-5; a generous margin.
COSINE_ERROR = 1e-3
# The same for a relevance computed in numpy (its pow may differ from libm's in the last bits).
SCORE_ERROR = 1e-9


def relevance(
    cosine: np.ndarray,
    bm25: np.ndarray,
    ideal: float,
    known: float,
    documents: float,
    w: Weights,
) -> np.ndarray:
    """The relevance of each memory (see the module's docstring). A NaN cosine: no vector.

    `ideal`: the query's ideal BM25 (its lexemes' idf summed); `known`: the part of it from
    lexemes some visible memory holds; `documents`: how many memories the caller sees."""
    semantic = np.nan_to_num(np.clip((cosine - w.cosine_zero) / w.cosine_span, 0.0, 1.0))
    if ideal > 0:
        keyword = np.clip(bm25 / (w.keyword_full * ideal), 0.0, 1.0)
        absent = 1 - known / ideal
    else:  # no lexeme in the query (stop words only): nothing unknown, no keyword evidence
        keyword, absent = np.zeros_like(bm25), 0.0
    evidence = 1 - (1 - semantic) ** w.semantic_weight * (1 - keyword) ** w.keyword_weight
    size = min(documents / w.store_full, 1.0)
    return evidence * (1 - (1 - w.unknown_floor) * absent * size)


def _semantic(cosine: float, w: Weights) -> float:
    """`relevance`'s semantic evidence of one cosine, in Python's floats (the same operations as
    in numpy: the same bits)."""
    if math.isnan(cosine):
        return 0.0
    return min(max((cosine - w.cosine_zero) / w.cosine_span, 0.0), 1.0)


def meaning_relevance(cosine: float, w: Weights) -> float:
    """The relevance of one memory to another on meaning alone (no query words): related memories
    pass the same cut-off as a search result that only its meaning found."""
    semantic = _semantic(cosine, w)
    return float(1 - (1 - semantic) ** w.semantic_weight)


def relevance_of(cosine: float, bm25: float, corpus: Corpus, w: Weights) -> float:
    """`relevance` of one memory, in Python's floats: the score a caller is shown. Computed the
    same way on every path, for every store, so it depends on nothing but the memory and
    `corpus` (numpy's vectorised pow may differ in the last bits with the array's length)."""
    semantic = _semantic(cosine, w)
    ideal, known = corpus.ideal, corpus.known
    if ideal > 0:
        keyword = min(max(bm25 / (w.keyword_full * ideal), 0.0), 1.0)
        absent = 1 - known / ideal
    else:
        keyword, absent = 0.0, 0.0
    evidence = 1 - (1 - semantic) ** w.semantic_weight * (1 - keyword) ** w.keyword_weight
    size = min(corpus.could_know / w.store_full, 1.0)
    return evidence * (1 - (1 - w.unknown_floor) * absent * size)


def bounds(
    cosine: np.ndarray, bm25: np.ndarray, corpus: Corpus, w: Weights
) -> tuple[np.ndarray, np.ndarray]:
    """Below and above each memory's exact relevance, from approximate cosines and BM25s
    (`relevance` grows with both)."""

    def at(cos: np.ndarray, kw: np.ndarray) -> np.ndarray:
        return relevance(cos, kw, corpus.ideal, corpus.known, corpus.could_know, w)

    low = at(cosine - COSINE_ERROR, bm25 * (1 - SCORE_ERROR)) - SCORE_ERROR
    high = at(cosine + COSINE_ERROR, bm25 * (1 + SCORE_ERROR)) + SCORE_ERROR
    return low, high


@dataclass(frozen=True)
class Corpus:
    """What BM25 knows of the caller's visible memories for one query: the query's lexeme keys
    (in the query's order), how many visible memories hold each, and the count and total length
    of the visible memories. A function of the visible memories alone, whichever path counted.
    Its derived figures are computed once: every candidate's score reads them."""

    keys: tuple[int, ...]
    df: tuple[int, ...]
    documents: int
    length: int
    k1: float
    b: float
    # The group of each key (`memories/search/related_terms.py`): a query word and its related terms
    # count as one term. Empty: each key is its own group (no related terms).
    groups: tuple[int, ...] = ()
    # The share of the user's memories in a language that could hold the query's words
    # (`UserSearch.kin_share`; 1: every memory could).
    kin: float = 1.0

    @property
    def could_know(self) -> float:
        """How many visible memories could have held the query's words: what the discount of a
        query the store does not know counts (`relevance`'s `documents`)."""
        return self.documents * self.kin

    @cached_property
    def members(self) -> list[tuple[int, ...]]:
        """Each group's positions in `keys`, groups in the order of their first key."""
        if not self.groups:
            return [(i,) for i in range(len(self.keys))]
        by_group: dict[int, list[int]] = {}
        for i, group in enumerate(self.groups):
            by_group.setdefault(group, []).append(i)
        return [tuple(m) for m in by_group.values()]

    @cached_property
    def group_df(self) -> list[int]:
        """How many visible memories hold each group: the most of any member (as Lucene's
        SynonymQuery blends them), so a related term never makes a group rarer than its word."""
        return [max(self.df[i] for i in m) for m in self.members]

    @cached_property
    def idf(self) -> list[float]:
        """Each group's idf."""
        n = self.documents
        return [math.log(1 + (n - df + 0.5) / (df + 0.5)) for df in self.group_df]

    @cached_property
    def ideal(self) -> float:
        """The query's ideal BM25: the sum of its groups' idf."""
        return sum(self.idf)

    @cached_property
    def known(self) -> float:
        """The part of `ideal` from groups some visible memory holds."""
        return sum(idf for idf, df in zip(self.idf, self.group_df, strict=True) if df)

    @cached_property
    def avgdl(self) -> float:
        return max(self.length / self.documents, 1.0) if self.documents else 1.0

    def term(self, idf: float, tf: Any, dl: Any) -> Any:
        """One lexeme's part of BM25, for floats or numpy arrays alike (the same operations in
        the same order: the same bits)."""
        k1, b = self.k1, self.b
        return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / self.avgdl))

    def bm25(self, dl: int, tf: dict[int, int]) -> float:
        """One memory's BM25 from its length and its count of each query lexeme (a group's
        counts summed); summed in the query's order, as the in-memory index sums its arrays."""
        score = 0.0
        for members, idf in zip(self.members, self.idf, strict=True):
            count = sum(tf.get(self.keys[i], 0) for i in members)
            if count:
                score += self.term(idf, float(count), float(dl))
        return score


def exact_cosines(vectors: np.ndarray, qvec: np.ndarray) -> np.ndarray:
    """The cosine of each row of `vectors` (float32) with `qvec`, the same bits for a row
    wherever it is: float32 products are exact in float64, summed in order (`cumsum` cannot
    reorder). NaN for a zero vector."""
    v = np.asarray(vectors, dtype=np.float64).reshape(-1, DIMENSIONS)
    q = np.asarray(qvec, dtype=np.float32).astype(np.float64)
    dot = np.cumsum(v * q, axis=1)[:, -1] if len(v) else np.zeros(0)
    vv = np.cumsum(v * v, axis=1)[:, -1] if len(v) else np.zeros(0)
    qq = float(np.cumsum(q * q)[-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(vv * qq > 0, dot / np.sqrt(vv * qq), np.nan)


def pick(low: np.ndarray, high: np.ndarray, count: int, floor: float) -> np.ndarray:
    """Positions that may be among the `count` best exact scores of at least `floor`, when each
    exact score lies in [low, high] (NaN: not a candidate)."""
    sure = low[low >= floor]
    threshold = floor
    if len(sure) >= count:
        threshold = max(floor, float(np.partition(sure, len(sure) - count)[len(sure) - count]))
    return np.flatnonzero(high >= threshold)


@dataclass(frozen=True)
class Candidate:
    id: uuid.UUID
    score: float


def best_of(
    ids: Sequence[uuid.UUID], scores: Sequence[float] | np.ndarray, count: int, floor: float
) -> list[Candidate]:
    """The `count` best exact scores of at least `floor`, ties by id (as PostgreSQL orders
    uuids)."""
    found = [Candidate(m, float(s)) for m, s in zip(ids, scores, strict=True) if s >= floor]
    found.sort(key=lambda c: (-c.score, c.id.bytes))
    return found[:count]


def complete(found: list[Candidate], count: int, floor: float, outside: float) -> bool:
    """Whether no memory scoring at most `outside` could still be among the best `count`."""
    threshold = found[-1].score if len(found) == count else floor
    return outside < threshold
