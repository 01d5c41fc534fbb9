"""The SQL search runs in PostgreSQL, apart from the ranking that reads it (`scoring.py`): a
search's first statement (the head), the dense and lexical arms, a candidate's evidence, and the
counts of a view narrower than the owner's. Every statement narrows to the rows a caller may see
with `filters`."""

from __future__ import annotations

from typing import Any

import numpy as np
from django.conf import settings

from memories.search import moves
from memories.search.embeddings import vector_literal
from memories.search.sql import ELIGIBLE, KEY_SALT

# How deep each arm looks in PostgreSQL at first (the in-memory index scores every memory).
ARM_DEPTH = 100

_FILTERS = f"""
    {ELIGIBLE} AND {{visible}}
    AND (%(category)s::varchar IS NULL OR m.categories @> ARRAY[%(category)s::varchar])
"""


def filters(visible: str) -> str:
    return _FILTERS.format(visible=visible)


# The user's statistics, the model of their vectors (`moves`), the query's lexemes under each
# analysis (memories/search/lexical.py) as (analysis, lexeme, key, positions), its words' related
# terms as (the word's lexeme, a related lexeme, its key), and the owner's category marks (slug,
# sensitive), so a caller that built its consent fragment from remembered marks learns in this
# same statement whether they still hold (memories/selectors/memories.py). Keys are salted with
# the user's secret (`sql.KEY_SALT`: the keys of the index, its snapshot and the machine's files).
HEAD_SQL = f"""
WITH q AS (
    SELECT a.n - 1 AS a, t.lexeme, t.p, t.n
    FROM unnest(%(cfgs)s::text[], %(prefixes)s::text[]) WITH ORDINALITY AS a(cfg, prefix, n),
         unnest(memory_tsvector(a.cfg::regconfig, a.prefix, %(q)s))
             WITH ORDINALITY AS t(lexeme, p, w, n)
),
r AS (
    SELECT e.n, h.lexeme AS head, x.lexeme
    FROM unnest(%(heads)s::text[], %(related)s::text[], %(rcfgs)s::text[], %(rprefixes)s::text[])
             WITH ORDINALITY AS e(head, rel, cfg, prefix, n),
         unnest(memory_tsvector(e.cfg::regconfig, e.prefix, e.head)) AS h,
         unnest(memory_tsvector(e.cfg::regconfig, e.prefix, e.rel)) AS x
)
SELECT s.generation, s.documents, s.length, s.changes_from, {moves.LIVE_MODEL_SQL},
       ARRAY(SELECT ARRAY[a::text, lexeme, hashtextextended(lexeme, {KEY_SALT})::text,
                          array_to_string(p, ',')]
             FROM q ORDER BY a, n),
       ARRAY(SELECT ARRAY[head, lexeme, hashtextextended(lexeme, {KEY_SALT})::text]
             FROM r ORDER BY n, head, lexeme),
       ARRAY(SELECT ARRAY[c.slug::text, c.sensitive::text] FROM memories_usercategory c
             WHERE c.owner_id = %(owner)s ORDER BY c.slug)
FROM (SELECT 1) one
LEFT JOIN memories_searchstats s ON s.owner_id = %(owner)s
"""  # noqa: S608 - only constants; values are bound parameters


# BM25 statistics of views narrower than the owner's (an app's consent, a category): a count and
# a total length each (kept per process: `scoring._view_counts`).
SUBSET_SQL = """
SELECT count(*), coalesce(sum(length(m.tsv)), 0) FROM memories_memory m WHERE {filters}
"""


# How many of the memories a caller sees are in languages that could hold a query's words, of
# how many, per process until the user's next write (`UserSearch.kin_share`).
KIN_SQL = """
SELECT count(*) FILTER (WHERE m.language = ANY(%(kin)s::text[])), count(*)
FROM memories_memory m WHERE {filters}
"""


# Memories without a vector of the current model come last (no cosine), so an answer shorter
# than `depth` holds every visible memory. The CASE also keeps the planner off any ANN index: the
# scan of this user's rows is exact.
DENSE_SQL = """
WITH d AS (
    SELECT m.id, CASE WHEN m.embedding_model = %(model)s
                      THEN m.embedding <=> %(qvec)s::vector END AS distance
    FROM memories_memory m
    WHERE {filters}
)
SELECT d.id, 1 - d.distance AS sim FROM d
ORDER BY d.distance NULLS LAST, d.id
LIMIT %(depth)s
"""

# What a candidate's exact score is computed from: its vector as stored, its length and its count
# of each query lexeme (in lexeme order, both arrays).
EVIDENCE_SQL = f"""
SELECT m.id,
       CASE WHEN m.embedding_model = %(model)s THEN vector_send(m.embedding) END,
       coalesce(length(m.tsv), 0),
       ARRAY(SELECT hashtextextended(u.lexeme, {KEY_SALT}) FROM unnest(m.tsv) u
             WHERE u.lexeme = ANY(%(lexemes)s::text[]) ORDER BY u.lexeme),
       ARRAY(SELECT coalesce(array_length(u.positions, 1), 1) FROM unnest(m.tsv) u
             WHERE u.lexeme = ANY(%(lexemes)s::text[]) ORDER BY u.lexeme)
FROM memories_memory m
WHERE m.id = ANY(%(ids)s::uuid[]) AND {{filters}}
"""  # noqa: S608 - only constants; values are bound parameters

# Matching goes through `memory_owner_lexemes`, a GIN index over memory_lexeme_keys(owner, tsv):
# each lexeme as a 64-bit key salted with the owner (migration `search_owner_lexemes`), so the
# lookup reads this user's entries only. Document frequencies are counted over the visible
# matches (and returned, as (lexeme key, count) pairs); the document count and average length
# come from the trigger-kept statistics (or the view's own count). A group (a query word and its
# related terms) is one term: its idf from its members' largest count, its counts summed.
LEXICAL_SQL = f"""
WITH ql AS (
    SELECT * FROM unnest(%(lexemes)s::text[], %(groups)s::int[]) AS t(lexeme, grp)
),
docs AS MATERIALIZED (
    SELECT m.id, m.tsv, length(m.tsv)::float8 AS dl FROM memories_memory m
    WHERE memory_lexeme_keys(m.owner_id, m.tsv)
          && ARRAY(SELECT hashtextextended(lexeme, %(owner)s) FROM ql)
      AND {{filters}}
),
hits AS (
    SELECT d.id, d.dl, u.lexeme, coalesce(array_length(u.positions, 1), 1)::float8 AS tf
    FROM docs d, unnest(d.tsv) u
    -- An array test, not `IN (SELECT ...)`: the planner turned that into one pass per lexeme.
    WHERE u.lexeme = ANY (ARRAY(SELECT lexeme FROM ql))
),
df AS (SELECT lexeme, count(*)::float8 AS n FROM hits GROUP BY lexeme),
idf AS (
    SELECT g.grp, ln(1 + (%(n_docs)s::float8 - g.n + 0.5) / (g.n + 0.5)) AS w
    FROM (SELECT ql.grp, max(coalesce(df.n, 0)) AS n
          FROM ql LEFT JOIN df USING (lexeme) GROUP BY ql.grp) g
),
grouped AS (
    SELECT h.id, h.dl, ql.grp, sum(h.tf) AS tf
    FROM hits h JOIN ql USING (lexeme)
    GROUP BY h.id, h.dl, ql.grp
),
scored AS (
    SELECT h.id,
           sum(i.w * h.tf * (%(k1)s::float8 + 1)
               / (h.tf + %(k1)s::float8
                  * (1 - %(b)s::float8 + %(b)s::float8 * h.dl / %(avgdl)s::float8))
           ) AS bm25
    FROM grouped h JOIN idf i USING (grp)
    GROUP BY h.id
),
ranked AS (
    SELECT s.id, s.bm25, row_number() OVER (ORDER BY s.bm25 DESC, s.id) AS r FROM scored s
)
SELECT r.id, r.bm25, r.r,
       (SELECT array_agg(ARRAY[hashtextextended(df.lexeme, {KEY_SALT}), df.n::int8])
        FROM df) AS held
FROM ranked r
WHERE r.r <= %(depth)s OR r.id = ANY(%(also)s::uuid[])
ORDER BY r.r
"""  # noqa: S608 - only constants; values are bound parameters


def dense_statement(
    qvec: np.ndarray,
    *,
    visible: str,
    params: dict[str, Any],
    depth: int = ARM_DEPTH,
    model: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """The exact scan in PostgreSQL, apart (`bench search` times it for comparison); `model`:
    the one `qvec` is of (the user's, `UserSearch.model`; EMBEDDING_MODEL by default)."""
    sql = DENSE_SQL.format(filters=filters(visible))
    args = {
        "category": None,
        **params,
        "qvec": vector_literal(qvec),
        "model": model or settings.EMBEDDING_MODEL,
        "depth": depth,
    }
    return sql, args
