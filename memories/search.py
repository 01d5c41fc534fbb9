"""Hybrid search, exact per user: a dense arm (cosine similarity of embeddings) and a lexical arm
(BM25), combined into one relevance score in [0, 1] that means the same for every query, with a
default cut-off below which nothing is returned (nothing relevant).

The relevance of a memory to a query (`relevance`; tuned on LoCoMo, docs/benchmarks.md):
- semantic evidence: the cosine similarity over COSINE_FULL (a near paraphrase), capped at 1;
- keyword evidence: the memory's BM25 over KEYWORD_FULL times the query's ideal BM25 (a memory of
  average length holding each query lexeme once scores the sum of their idf), capped at 1: the
  idf-weighted share of the query the memory holds;
- the two combined as independent evidence ("noisy or"):
  1 - (1 - semantic)^SEMANTIC_WEIGHT * (1 - keyword)^KEYWORD_WEIGHT;
- times how much of the query the store knows at all: 1 - (1 - UNKNOWN_FLOOR) * absent * size,
  where `absent` is the share of the query's idf carried by lexemes no memory the caller sees
  holds, and `size` grows from 0 to 1 as the store grows to STORE_FULL memories. A query about
  "chess" in a store of hundreds of memories that never mention chess is about something not in
  the store, however close a chatty memory about games comes in meaning; in a store of a dozen
  memories most words are absent by chance, so absence says little there.
Every part is absolute, not normalised per query (the old min-max fusion always gave the top
result the same score), so a score means the same for every query and MIN_SCORE separates
matches from filler.

Two ways to compute it, with the same results (tests/memories/test_search.py):
- the in-memory index (`memories/search_index.py`): every searchable memory of the user scored by
  both arms in numpy; the exact top `limit`;
- in PostgreSQL, for a user whose index does not fit the process's budget (or with the cache
  off): the dense arm is an exact scan of the user's vectors, the lexical arm matches through a
  GIN index of owner-salted lexeme keys (`memory_owner_lexemes`, migration 0006) with the corpus
  statistics kept per user by a trigger (`SearchStats`); each arm gives its best ARM_DEPTH and
  the union is scored.
BM25 is computed over what the caller may see (document frequencies, count and average length of
the visible memories), exactly like the full pass it replaced: an app's scores never depend on
memories it may not see.

Why not `ts_rank`: it has no IDF, and on LoCoMo it loses to plain BM25. Why no ANN index: a
filtered HNSW scan silently drops a small tenant's rows in a big shared table; an exact scan of one
user's vectors is cheap and has recall 1.0 by construction (docs/benchmarks.md).
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection
from django.db.models import Q

from memories import search_index
from memories.models import MemoryState

# Tuned on the LoCoMo dev set with `bench locomo-sweep` (docs/benchmarks.md, "Relevance").
BM25_K1 = 1.6
BM25_B = 0.3
COSINE_FULL = 0.8
KEYWORD_FULL = 1.25
SEMANTIC_WEIGHT = 0.5
KEYWORD_WEIGHT = 1.4
UNKNOWN_FLOOR = 0.25
# Not tuned (every LoCoMo conversation is larger): a store of a few hundred memories counts in full.
STORE_FULL = 200
MIN_SCORE = 0.15
# How deep each arm looks in PostgreSQL before the union is scored (the in-memory index scores
# every memory).
ARM_DEPTH = 100

# Which rows search may return at all, before the consent rule. The stats trigger (migration 0005)
# and the in-memory index count the same rows: keep the three equal.
ELIGIBLE = "m.state = 'active' AND m.superseded_by_id IS NULL"

_FILTERS = f"""
    {ELIGIBLE} AND {{visible}}
    AND (%(category)s::varchar IS NULL OR m.categories @> ARRAY[%(category)s::varchar])
"""


def eligible_q() -> Q:
    """`ELIGIBLE` for the ORM (the row fetch after search checks it again)."""
    return Q(state=MemoryState.ACTIVE, superseded_by__isnull=True)


def filters(visible: str) -> str:
    return _FILTERS.format(visible=visible)


def _fetch(sql: str, args: dict[str, Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cur:
        cur.execute(sql, args)
        return list(cur.fetchall())


def _vector_literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


def _frozen(params: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))


# ---- the relevance score ----------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """The relevance score's parameters (the sweep tries others)."""

    cosine_full: float = COSINE_FULL
    keyword_full: float = KEYWORD_FULL
    semantic_weight: float = SEMANTIC_WEIGHT
    keyword_weight: float = KEYWORD_WEIGHT
    unknown_floor: float = UNKNOWN_FLOOR
    store_full: int = STORE_FULL


def relevance(
    cosine: np.ndarray,
    bm25: np.ndarray,
    ideal: float,
    known: float,
    documents: int,
    w: Weights = Weights(),
) -> np.ndarray:
    """The relevance of each memory (see the module's docstring). A NaN cosine: no vector.

    `ideal`: the query's ideal BM25 (its lexemes' idf summed); `known`: the part of it from
    lexemes some visible memory holds; `documents`: how many memories the caller sees."""
    semantic = np.nan_to_num(np.clip(cosine / w.cosine_full, 0.0, 1.0))
    if ideal > 0:
        keyword = np.clip(bm25 / (w.keyword_full * ideal), 0.0, 1.0)
        absent = 1 - known / ideal
    else:  # no lexeme in the query (stop words only): nothing unknown, no keyword evidence
        keyword, absent = np.zeros_like(bm25), 0.0
    evidence = 1 - (1 - semantic) ** w.semantic_weight * (1 - keyword) ** w.keyword_weight
    size = min(documents / w.store_full, 1.0)
    return evidence * (1 - (1 - w.unknown_floor) * absent * size)


@dataclass(frozen=True)
class Candidate:
    id: uuid.UUID
    score: float


# ---- one search's view of one user ------------------------------------------------------------

_HEAD_SQL = """
SELECT s.generation, s.documents, s.length, s.changes_from, k.keys
FROM (SELECT ARRAY(SELECT hashtextextended(lexeme, 0)
                   FROM unnest(to_tsvector(%(cfg)s::regconfig, %(q)s))) AS keys) k
LEFT JOIN memories_searchstats s ON s.owner_id = %(owner)s
"""


class UserSearch:
    """The user's searchable memories as one caller sees them: through the in-memory index when
    it fits the budget, else in PostgreSQL. One statement reads the user's generation and
    statistics and turns the query into lexeme keys."""

    def __init__(
        self,
        owner_id: int,
        *,
        visible: str,
        params: dict[str, Any],
        query: str = "",
        whole_store: bool = False,
        use_index: bool = True,
    ) -> None:
        self.owner_id = owner_id
        self.visible = visible
        self.params = {"category": None, **params}
        self.query = query
        # The owner's own doors without a category see every searchable memory: no mask, and
        # the trigger-kept totals are their corpus.
        self.whole = whole_store and self.params["category"] is None
        self.index: search_index.UserIndex | None = None
        self.mask: np.ndarray | None = None
        for _ in range(2):  # a write between the reads: once more, then PostgreSQL
            self._read_head()
            if not use_index or self._open_index():
                return
        self.index = self.mask = None

    def _read_head(self) -> None:
        args = {"cfg": settings.TEXT_SEARCH_CONFIG, "q": self.query, "owner": self.owner_id}
        ((generation, documents, length, changes_from, keys),) = _fetch(_HEAD_SQL, args)
        self.generation = None if generation is None else int(generation)
        self.changes_from = None if changes_from is None else int(changes_from)
        self.documents, self.length = int(documents or 0), int(length or 0)
        self.keys = [int(k) for k in keys]

    def _open_index(self) -> bool:
        """Use the index if it fits; False when the user's memories changed under us."""
        view = None
        if not self.whole:
            frozen = _frozen(self.params)
            view = search_index.View(filters(self.visible), self.params, frozen)
        found = search_index.for_user(
            self.owner_id,
            self.generation,
            changes_from=self.changes_from,
            searchable=self.documents,
            view=view,
        )
        if found is None:
            return True  # too big for the budget, or the cache is off: PostgreSQL
        index, mask = found
        if view is not None and mask is None:
            return False
        self.index, self.mask = index, mask
        return True

    # -- the arms, apart (tests, benchmarks, related memories) --

    def dense(self, qvec: np.ndarray, depth: int = ARM_DEPTH) -> list[tuple[uuid.UUID, float]]:
        """The `depth` visible memories most similar to `qvec`, best first (exact)."""
        if self.index is None:
            sql, args = dense_statement(qvec, visible=self.visible, params=self.params, depth=depth)
            return [(row[0], float(row[1])) for row in _fetch(sql, args)]
        sims = self.index.cosines(qvec)
        sims[np.isnan(sims)] = -np.inf
        return [(self.index.memory_id(r), float(sims[r])) for r in self._top(sims, depth)]

    def lexical(
        self, depth: int = ARM_DEPTH, *, k1: float = BM25_K1, b: float = BM25_B
    ) -> list[tuple[uuid.UUID, float]]:
        """The `depth` visible memories with the highest BM25 for the query, best first."""
        if self.index is None:
            rows, _ = self._lexical_sql(depth, (), k1=k1, b=b)
            return rows
        scores, _, _ = self.index.bm25(self.keys, self.mask, k1=k1, b=b)
        scores[scores <= 0] = -np.inf
        return [(self.index.memory_id(r), float(scores[r])) for r in self._top(scores, depth)]

    def arrays(
        self, qvec: np.ndarray, *, k1: float = BM25_K1, b: float = BM25_B
    ) -> tuple[np.ndarray, np.ndarray, float, float, int]:
        """Cosine and BM25 of every row of the index, the query's ideal BM25, its known part and
        the number of visible memories: what `relevance` takes (the sweep varies k1 and b)."""
        assert self.index is not None
        scores, ideal, known = self.index.bm25(self.keys, self.mask, k1=k1, b=b)
        visible = len(self.index) if self.mask is None else int(self.mask.sum())
        return self.index.cosines(qvec), scores, ideal, known, visible

    def _top(self, scores: np.ndarray, count: int) -> list[int]:
        """Row numbers of the `count` best finite scores among the visible rows, ties by id (as
        PostgreSQL orders uuids)."""
        assert self.index is not None
        if self.mask is not None:
            scores = np.where(self.mask, scores, -np.inf)
        finite = np.flatnonzero(np.isfinite(scores))
        if len(finite) > count:
            kth = np.partition(-scores[finite], count - 1)[count - 1]
            finite = finite[-scores[finite] <= kth]
        ids = self.index.id_keys(finite)
        order = np.lexsort((ids["lo"], ids["hi"], -scores[finite]))
        return [int(r) for r in finite[order][:count]]

    # -- both arms, scored --

    def best(
        self, qvec: np.ndarray, *, limit: int, min_score: float = MIN_SCORE
    ) -> list[Candidate]:
        """The `limit` most relevant visible memories scoring at least `min_score`."""
        if self.index is None:
            return self._best_sql(qvec, limit=limit, min_score=min_score)
        score = relevance(*self.arrays(qvec))
        score[score < min_score] = -np.inf
        index = self.index
        return [Candidate(index.memory_id(r), float(score[r])) for r in self._top(score, limit)]

    # -- in PostgreSQL --

    def _corpus(self) -> tuple[float, float]:
        """BM25's document count and average length for this view."""
        if self.whole:
            documents, length = self.documents, self.length
        else:
            documents, length = _subset_stats(self)
        return float(documents), max(length / documents, 1.0) if documents else 1.0

    def _lexical_sql(
        self, depth: int, also: Sequence[uuid.UUID], *, k1: float, b: float
    ) -> tuple[list[tuple[uuid.UUID, float]], dict[uuid.UUID, float]]:
        n_docs, avgdl = self._corpus()
        args = {
            **self.params,
            "q": self.query,
            "cfg": settings.TEXT_SEARCH_CONFIG,
            "owner": self.owner_id,
            "n_docs": n_docs,
            "avgdl": avgdl,
            "k1": k1,
            "b": b,
            "depth": depth,
            "also": list(also),
        }
        rows = _fetch(LEXICAL_SQL.format(filters=filters(self.visible)), args)
        self._ideal = float(rows[0][3]) if rows else 0.0
        self._known = float(rows[0][4]) if rows else 0.0
        ranked = [(row[0], float(row[1])) for row in rows if row[2] <= depth]
        extra = {row[0]: float(row[1]) for row in rows if row[2] > depth}
        return ranked, extra

    def _query_idf(self) -> tuple[float, float]:
        """The query's ideal BM25 and known part when no memory holds any of its lexemes."""
        n_docs, _ = self._corpus()
        return len(set(self.keys)) * math.log(1 + (n_docs + 0.5) / 0.5), 0.0

    def _best_sql(self, qvec: np.ndarray, *, limit: int, min_score: float) -> list[Candidate]:
        depth = max(ARM_DEPTH, limit)
        dense = self.dense(qvec, depth)
        lexical, extra = self._lexical_sql(depth, [m for m, _ in dense], k1=BM25_K1, b=BM25_B)
        cosines = dict(dense)
        missing = [m for m, _ in lexical if m not in cosines]
        if missing:
            sql = _SIMILARITY_SQL.format(filters=filters(self.visible))
            args = {**self.params, "qvec": _vector_literal(qvec), "candidates": missing}
            args["model"] = settings.EMBEDDING_MODEL
            cosines.update((row[0], float(row[1])) for row in _fetch(sql, args))
        bm25 = {**extra, **dict(lexical)}
        ids = list(dict.fromkeys([*cosines, *bm25]))
        if not bm25:  # nothing matched: the query's ideal score still counts (all unknown)
            self._ideal, self._known = self._query_idf()
        score = relevance(
            np.array([cosines.get(m, np.nan) for m in ids], dtype=np.float64),
            np.array([bm25.get(m, 0.0) for m in ids], dtype=np.float64),
            self._ideal,
            self._known,
            int(self._corpus()[0]),
        )
        found = [Candidate(m, float(s)) for m, s in zip(ids, score, strict=True) if s >= min_score]
        found.sort(key=lambda c: (-c.score, c.id.bytes))
        return found[:limit]


# BM25 statistics of views narrower than the owner's (an app's consent, a category), per process,
# until the user's next write changes the generation: a count and a total length each.
_subsets = search_index.Lru()
_SUBSETS = 1024
_SUBSET_SQL = """
SELECT count(*), coalesce(sum(length(m.tsv)), 0) FROM memories_memory m WHERE {filters}
"""


def _subset_stats(search: UserSearch) -> tuple[int, int]:
    key = (
        str(connection.settings_dict["NAME"]),
        search.owner_id,
        search.generation,
        search.visible,
        _frozen(search.params),
    )
    counted = _subsets.get(key) if search.generation is not None else None
    if counted is None:
        ((n, total),) = _fetch(_SUBSET_SQL.format(filters=filters(search.visible)), search.params)
        counted = (int(n), int(total))
        _subsets.put(key, counted, 1, _SUBSETS)
    return counted


DENSE_SQL = """
SELECT m.id, 1 - (m.embedding <=> %(qvec)s::vector) AS sim
FROM memories_memory m
WHERE m.embedding_model = %(model)s AND {filters}
-- "+ 0" keeps the planner off any ANN index: the scan of this user's rows is exact.
ORDER BY (m.embedding <=> %(qvec)s::vector) + 0, m.id
LIMIT %(depth)s
"""

_SIMILARITY_SQL = """
SELECT m.id, 1 - (m.embedding <=> %(qvec)s::vector) FROM memories_memory m
WHERE m.id = ANY(%(candidates)s::uuid[]) AND m.embedding_model = %(model)s AND {filters}
"""

# Matching goes through `memory_owner_lexemes`, a GIN index over memory_lexeme_keys(owner, tsv):
# each lexeme as a 64-bit key salted with the owner (migration 0006), so the lookup reads this
# user's entries only. Document frequencies are counted over the visible matches; the document
# count and average length come from the trigger-kept statistics (or the view's own count).
LEXICAL_SQL = """
WITH ql AS (
    SELECT DISTINCT lexeme FROM unnest(to_tsvector(%(cfg)s::regconfig, %(q)s))
),
docs AS MATERIALIZED (
    SELECT m.id, m.tsv, length(m.tsv)::float8 AS dl FROM memories_memory m
    WHERE memory_lexeme_keys(m.owner_id, m.tsv)
          && ARRAY(SELECT hashtextextended(lexeme, %(owner)s) FROM ql)
      AND {filters}
),
hits AS (
    SELECT d.id, d.dl, u.lexeme, coalesce(array_length(u.positions, 1), 1)::float8 AS tf
    FROM docs d, unnest(d.tsv) u
    -- An array test, not `IN (SELECT ...)`: the planner turned that into one pass per lexeme.
    WHERE u.lexeme = ANY (ARRAY(SELECT lexeme FROM ql))
),
df AS (SELECT lexeme, count(*)::float8 AS n FROM hits GROUP BY lexeme),
idf AS (
    SELECT ql.lexeme,
           ln(1 + (%(n_docs)s::float8 - coalesce(df.n, 0) + 0.5) / (coalesce(df.n, 0) + 0.5)) AS w
    FROM ql LEFT JOIN df USING (lexeme)
),
scored AS (
    SELECT h.id,
           sum(i.w * h.tf * (%(k1)s::float8 + 1)
               / (h.tf + %(k1)s::float8
                  * (1 - %(b)s::float8 + %(b)s::float8 * h.dl / %(avgdl)s::float8))
           ) AS bm25
    FROM hits h JOIN idf i USING (lexeme)
    GROUP BY h.id
),
ranked AS (
    SELECT s.id, s.bm25, row_number() OVER (ORDER BY s.bm25 DESC, s.id) AS r FROM scored s
)
SELECT r.id, r.bm25, r.r, (SELECT sum(w) FROM idf) AS ideal,
       (SELECT coalesce(sum(i.w), 0) FROM idf i WHERE i.lexeme IN (SELECT lexeme FROM df)) AS known
FROM ranked r
WHERE r.r <= %(depth)s OR r.id = ANY(%(also)s::uuid[])
ORDER BY r.r
"""


def dense_statement(
    qvec: np.ndarray, *, visible: str, params: dict[str, Any], depth: int = ARM_DEPTH
) -> tuple[str, dict[str, Any]]:
    """The exact scan in PostgreSQL, apart (`bench search` times it for comparison)."""
    sql = DENSE_SQL.format(filters=filters(visible))
    args = {
        "category": None,
        **params,
        "qvec": _vector_literal(qvec),
        "model": settings.EMBEDDING_MODEL,
        "depth": depth,
    }
    return sql, args


# ---- entry points -----------------------------------------------------------------------------


def hybrid(
    query: str,
    qvec: np.ndarray,
    *,
    owner_id: int,
    visible: str,
    params: dict[str, Any],
    category: str | None,
    limit: int,
    whole_store: bool = False,
    min_score: float = MIN_SCORE,
) -> list[Candidate]:
    """The `limit` most relevant visible memories scoring at least `min_score`, best first.

    `whole_store`: the caller sees every searchable memory of the owner (the owner's own doors).
    """
    search = UserSearch(
        owner_id,
        visible=visible,
        params={**params, "category": category},
        query=query,
        whole_store=whole_store,
    )
    return search.best(qvec, limit=limit, min_score=min_score)


def dense_arm(
    qvec: np.ndarray,
    *,
    owner_id: int,
    visible: str,
    params: dict[str, Any],
    depth: int = ARM_DEPTH,
    use_index: bool = True,
) -> list[tuple[uuid.UUID, float]]:
    """The dense arm alone (related memories, tests, benchmarks)."""
    search = UserSearch(owner_id, visible=visible, params=params, use_index=use_index)
    return search.dense(qvec, depth)


def lexical_arm(
    query: str,
    *,
    owner_id: int,
    visible: str,
    params: dict[str, Any],
    depth: int = ARM_DEPTH,
    whole_store: bool = False,
    use_index: bool = True,
    k1: float = BM25_K1,
    b: float = BM25_B,
) -> list[tuple[uuid.UUID, float]]:
    """The lexical arm alone: (id, BM25), best first."""
    search = UserSearch(
        owner_id,
        visible=visible,
        params=params,
        query=query,
        whole_store=whole_store,
        use_index=use_index,
    )
    return search.lexical(depth, k1=k1, b=b)
