"""Search latency for a tenant of many memories inside a big shared table, against its floor.

The measured tenant holds `--memories` memories with real embeddings, added through the service
layer; `--tenants` other users share the table up to `--total` rows (random vectors and tsvectors
over the same vocabulary, inserted by SQL). The floor, measured in the same run over the same
queries, is embedding one query alone plus the hybrid SQL alone (both arms' statements, executed
back to back without the Python around them). `p50_over_floor` should stay <= 2.
"""

from __future__ import annotations

import time
from typing import Any

from bench.environment import add_common, bench_user, drop_users, emit, percentile
from bench.texts import memory_texts, queries

# Words the other tenants' rows are made of: the same vocabulary as the measured tenant's texts,
# so the full-text index holds plenty of other people's matches for every query.
_CROWD_WORDS = sorted(
    {w.strip(".,?").lower() for t in memory_texts(400, seed=9) for w in t.split() if len(w) > 2}
)

_CROWD_SQL = """
INSERT INTO memories_memory (id, owner_id, text, text_key, embedding, embedding_model,
    tsv, state, categories, categories_set_by_user, is_private, hidden_from, origin,
    origin_app_name, provenance, metadata, created_at, updated_at)
SELECT gen_random_uuid(), o.owners[1 + g %% cardinality(o.owners)], t.text, md5(t.text || g),
       v.vecs[1 + (g * 7919) %% cardinality(v.vecs)], %(model)s,
       to_tsvector('english', t.text), 'active', '{}', false, false, '{}', 'app', 'bench',
       '{}', '{}', now(), now()
FROM generate_series(1, %(n)s) g
CROSS JOIN (SELECT %(owners)s::bigint[] AS owners) o
CROSS JOIN (SELECT array_agg(vec) AS vecs FROM (
    SELECT (SELECT array_agg(random() - 0.5)::vector FROM generate_series(1, 384) d
            WHERE d > p * 0) AS vec
    FROM generate_series(1, 2000) p) pool) v
CROSS JOIN LATERAL (
    SELECT string_agg(w.words[1 + floor(random() * cardinality(w.words))::int], ' ') AS text
    FROM (SELECT %(words)s::text[] AS words) w, generate_series(1, 8 + g %% 8) i
    WHERE i > g * 0
) t
"""


def build(memories: int, tenants: int, total: int) -> tuple[Any, list[Any]]:
    """The measured user (real memories) and the crowd of other users (synthetic rows)."""
    from django.conf import settings
    from django.db import connection

    from accounts.actors import owner_actor
    from memories.services import NewMemory, memory_create_many

    user = bench_user("measured")
    crowd = [bench_user(f"crowd{i}") for i in range(tenants)]
    started = time.perf_counter()
    texts = memory_texts(memories)
    actor = owner_actor(user)
    for start in range(0, memories, 500):
        memory_create_many(
            actor=actor, items=[NewMemory(text=t) for t in texts[start : start + 500]]
        )
    print(f"measured tenant: {memories} memories added in {time.perf_counter() - started:.0f} s")
    started = time.perf_counter()
    others = max(total - memories, 0)
    with connection.cursor() as cur:
        for start in range(0, others, 50_000):
            cur.execute(
                _CROWD_SQL,
                {
                    "n": min(50_000, others - start),
                    "owners": [u.pk for u in crowd],
                    "words": _CROWD_WORDS,
                    "model": settings.EMBEDDING_MODEL,
                },
            )
        cur.execute("ANALYZE memories_memory")
    elapsed = time.perf_counter() - started
    print(f"other tenants: {others} rows over {tenants} users in {elapsed:.0f} s")
    return user, crowd


def measure(user: Any, n_queries: int) -> dict[str, Any]:
    from django.db import connection

    from accounts.actors import owner_actor
    from memories import search
    from memories.embeddings import get_embedder
    from memories.selectors import memory_search
    from memories.visibility import visible_sql

    actor = owner_actor(user)
    qs = queries(n_queries)
    embedder = get_embedder()
    for q in qs[:5]:  # warm the model, the connection and the buffer cache
        memory_search(actor=actor, query=q)
    search_ms, embed_ms, sql_ms = [], [], []
    visible, params = visible_sql(actor)
    params = {**params, "category": None}
    with connection.cursor() as cur:
        for q in qs:
            t0 = time.perf_counter()
            memory_search(actor=actor, query=q, limit=10)
            t1 = time.perf_counter()
            qvec = embedder.embed_query(q)
            t2 = time.perf_counter()
            statements = [
                search.dense_statement(qvec, visible=visible, params=params),
                search.lexical_statement(q, visible=visible, params=params),
            ]
            t3 = time.perf_counter()
            for statement in statements:
                cur.execute(*statement)
                cur.fetchall()
            t4 = time.perf_counter()
            search_ms.append((t1 - t0) * 1000)
            embed_ms.append((t2 - t1) * 1000)
            sql_ms.append((t4 - t3) * 1000)
    p50 = percentile(search_ms, 50)
    floor = percentile(embed_ms, 50) + percentile(sql_ms, 50)
    return {
        "queries": n_queries,
        "p50_ms": round(p50, 2),
        "p95_ms": round(percentile(search_ms, 95), 2),
        "embed_p50_ms": round(percentile(embed_ms, 50), 2),
        "sql_p50_ms": round(percentile(sql_ms, 50), 2),
        "sql_p95_ms": round(percentile(sql_ms, 95), 2),
        "floor_ms": round(floor, 2),
        "p50_over_floor": round(p50 / floor, 3),
    }


def run(args: Any) -> None:
    user, crowd = build(args.memories, args.tenants, args.total)
    try:
        result = {
            "memories": args.memories,
            "tenants": args.tenants,
            "total": max(args.total, args.memories),
            **measure(user, args.queries),
        }
    finally:
        drop_users([user, *crowd])
    print(
        f"search p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms; floor {result['floor_ms']} "
        f"ms (embed {result['embed_p50_ms']} + SQL {result['sql_p50_ms']}); "
        f"p50/floor {result['p50_over_floor']}"
    )
    emit(result)


def register(sub: Any) -> None:
    parser = sub.add_parser("search", help="Search p50/p95 at scale vs the embed + SQL floor.")
    parser.add_argument("--memories", type=int, default=10_000, help="The measured tenant's size.")
    parser.add_argument("--tenants", type=int, default=100, help="Other users sharing the table.")
    parser.add_argument("--total", type=int, default=200_000, help="Rows in the table in all.")
    parser.add_argument("--queries", type=int, default=200, help="Queries to time.")
    add_common(parser)
    parser.set_defaults(run=run)
