"""Hybrid search, exact per tenant: a dense arm (cosine on embeddings) and a lexical arm (BM25
with per-tenant IDF computed in PostgreSQL from the tsvectors), fused by a convex combination of
their min-max normalised scores.

Why not `ts_rank`: it has no IDF, and on LoCoMo it loses to plain BM25. Why no ANN index: a
filtered HNSW scan silently drops a small tenant's rows in a big shared table; an exact scan of one
tenant's vectors is cheap (see docs/benchmarks.md) and has recall 1.0 by construction.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection

# Tuned on the LoCoMo dev set with `bench locomo-sweep` (docs/benchmarks.md): recall@10 over
# categories 1-4, 760 questions. Reference points in that run: rank-bm25 alone .579, our BM25 arm
# alone (k1 1.2, b .75) .617, dense alone .514, plain RRF (k 60) .593. A convex combination of
# min-max normalised scores (.696) beat every RRF setting (best .680: k 5, equal weights); with
# dense share .4 it led for every k1 in .9-2 (.690-.696) and BM25 b .3 (short turns: little length
# normalisation) beat .75. Leave-one-conversation-out picked the same setting on all five folds
# (held-out R@10 .696), so the choice is not one conversation's quirk.
DENSE_SHARE = 0.4
BM25_K1 = 1.2
BM25_B = 0.3
# How deep each arm looks before fusion (normalisation uses the weakest score in that depth).
ARM_DEPTH = 100
# Weighted reciprocal-rank fusion, kept as the baseline the sweep compares against.
RRF_K = 60
DENSE_WEIGHT = 1.0
LEXICAL_WEIGHT = 1.0


@dataclass(frozen=True)
class Candidate:
    id: uuid.UUID
    score: float
    dense_rank: int | None
    lexical_rank: int | None


def _vector_literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


_FILTERS = """
    m.state = 'active' AND m.superseded_by_id IS NULL AND {visible}
    AND (%(category)s::varchar IS NULL OR m.categories @> ARRAY[%(category)s::varchar])
"""

DENSE_SQL = """
SELECT m.id, 1 - (m.embedding <=> %(qvec)s::vector) AS sim
FROM memories_memory m
WHERE m.embedding_model = %(model)s AND {filters}
-- "+ 0" keeps the planner off any ANN index: the scan of this tenant's rows is exact.
ORDER BY (m.embedding <=> %(qvec)s::vector) + 0, m.id
LIMIT %(depth)s
"""

# One pass over the tenant's rows gives both the corpus statistics (count, average length) and
# the matching documents. Matching through the shared GIN index instead fetched every other user's
# matches too (58,000 rows for one query in bench search) only to filter them out, and the
# statistics needed a second scan of the tenant anyway.
LEXICAL_SQL = """
WITH ql AS (
    SELECT DISTINCT lexeme FROM unnest(to_tsvector(%(cfg)s::regconfig, %(q)s))
),
tq AS (
    SELECT string_agg(
        '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''', ' | '
    )::tsquery AS q
    FROM ql
),
tenant AS MATERIALIZED (
    SELECT m.id, m.tsv, length(m.tsv) AS dl FROM memories_memory m
    WHERE EXISTS (SELECT 1 FROM tq WHERE tq.q IS NOT NULL) AND {filters}
),
stats AS (
    SELECT count(*)::float8 AS n_docs, greatest(avg(dl), 1)::float8 AS avgdl FROM tenant
),
docs AS (SELECT t.id, t.tsv, t.dl FROM tenant t, tq WHERE t.tsv @@ tq.q),
hits AS (
    SELECT d.id, d.dl::float8 AS dl, u.lexeme,
           coalesce(array_length(u.positions, 1), 1)::float8 AS tf
    FROM docs d, unnest(d.tsv) u
    -- An array test, not `IN (SELECT ...)`: the planner turned that into one pass per lexeme.
    WHERE u.lexeme = ANY (ARRAY(SELECT lexeme FROM ql))
),
df AS (SELECT lexeme, count(*)::float8 AS n FROM hits GROUP BY lexeme)
SELECT h.id,
       sum(ln(1 + (s.n_docs - df.n + 0.5) / (df.n + 0.5))
           * h.tf * (%(k1)s::float8 + 1)
           / (h.tf + %(k1)s::float8 * (1 - %(b)s::float8 + %(b)s::float8 * h.dl / s.avgdl))
       ) AS bm25
FROM hits h JOIN df USING (lexeme) CROSS JOIN stats s
GROUP BY h.id
ORDER BY bm25 DESC, h.id
LIMIT %(depth)s
"""


def _filters(visible: str) -> str:
    return _FILTERS.format(visible=visible)


def dense_statement(
    qvec: np.ndarray, *, visible: str, params: dict[str, Any], depth: int = ARM_DEPTH
) -> tuple[str, dict[str, Any]]:
    """The dense arm's SQL and arguments (apart, so `bench search` can time the SQL alone)."""
    sql = DENSE_SQL.format(filters=_filters(visible))
    args = {
        **params,
        "qvec": _vector_literal(qvec),
        "model": settings.EMBEDDING_MODEL,
        "depth": depth,
    }
    return sql, args


def lexical_statement(
    query: str,
    *,
    visible: str,
    params: dict[str, Any],
    depth: int = ARM_DEPTH,
    k1: float = BM25_K1,
    b: float = BM25_B,
) -> tuple[str, dict[str, Any]]:
    sql = LEXICAL_SQL.format(filters=_filters(visible))
    args = {
        **params,
        "q": query,
        "cfg": settings.TEXT_SEARCH_CONFIG,
        "k1": k1,
        "b": b,
        "depth": depth,
    }
    return sql, args


def _run(statement: tuple[str, dict[str, Any]]) -> list[tuple[uuid.UUID, float]]:
    with connection.cursor() as cur:
        cur.execute(*statement)
        return [(row[0], float(row[1])) for row in cur.fetchall()]


def dense_arm(
    qvec: np.ndarray, *, visible: str, params: dict[str, Any], depth: int = ARM_DEPTH
) -> list[tuple[uuid.UUID, float]]:
    return _run(dense_statement(qvec, visible=visible, params=params, depth=depth))


def lexical_arm(query: str, **options: Any) -> list[tuple[uuid.UUID, float]]:
    """The lexical arm's rows, best first; `options` are those of `lexical_statement`."""
    return _run(lexical_statement(query, **options))


def fuse(
    dense: list[tuple[uuid.UUID, float]],
    lexical: list[tuple[uuid.UUID, float]],
    *,
    k: int = RRF_K,
    dense_weight: float = DENSE_WEIGHT,
    lexical_weight: float = LEXICAL_WEIGHT,
) -> list[Candidate]:
    """Weighted reciprocal-rank fusion; ties broken by id so results are stable."""
    d_rank = {mid: i for i, (mid, _) in enumerate(dense, start=1)}
    l_rank = {mid: i for i, (mid, _) in enumerate(lexical, start=1)}
    out = []
    for mid in d_rank.keys() | l_rank.keys():
        dr, lr = d_rank.get(mid), l_rank.get(mid)
        score = 0.0
        if dr is not None:
            score += dense_weight / (k + dr)
        if lr is not None:
            score += lexical_weight / (k + lr)
        out.append(Candidate(id=mid, score=score, dense_rank=dr, lexical_rank=lr))
    out.sort(key=lambda c: (-c.score, str(c.id)))
    return out


def _normalised(
    arm: list[tuple[uuid.UUID, float]], depth: int, floor: float | None
) -> dict[uuid.UUID, float]:
    """Scores mapped to [0, 1]: the best is 1, the weakest in the arm's depth (or `floor` when the
    arm came back short, i.e. everything else scored that) is 0."""
    if not arm:
        return {}
    hi = arm[0][1]
    lo = arm[-1][1] if floor is None or len(arm) >= depth else floor
    span = hi - lo
    return {mid: (score - lo) / span if span > 0 else 1.0 for mid, score in arm}


def fuse_scores(
    dense: list[tuple[uuid.UUID, float]],
    lexical: list[tuple[uuid.UUID, float]],
    *,
    depth: int = ARM_DEPTH,
    dense_share: float = DENSE_SHARE,
) -> list[Candidate]:
    """Convex combination of normalised cosine and BM25; a row missing from an arm scores 0 there.

    A short lexical arm means every other row has BM25 0, so 0 is its floor; the dense arm always
    ranks every row, so its floor is the weakest cosine within the depth."""
    d_norm = _normalised(dense, depth, None)
    l_norm = _normalised(lexical, depth, 0.0)
    d_rank = {mid: i for i, (mid, _) in enumerate(dense, start=1)}
    l_rank = {mid: i for i, (mid, _) in enumerate(lexical, start=1)}
    out = [
        Candidate(
            id=mid,
            score=dense_share * d_norm.get(mid, 0.0) + (1 - dense_share) * l_norm.get(mid, 0.0),
            dense_rank=d_rank.get(mid),
            lexical_rank=l_rank.get(mid),
        )
        for mid in d_norm.keys() | l_norm.keys()
    ]
    out.sort(key=lambda c: (-c.score, str(c.id)))
    return out


def hybrid(
    query: str,
    qvec: np.ndarray,
    *,
    visible: str,
    params: dict[str, Any],
    category: str | None,
    limit: int,
) -> list[Candidate]:
    args = {**params, "category": category}
    depth = max(ARM_DEPTH, limit)
    dense = dense_arm(qvec, visible=visible, params=args, depth=depth)
    lexical = lexical_arm(query, visible=visible, params=args, depth=depth)
    return fuse_scores(dense, lexical, depth=depth)[:limit]
