"""Search latency at several store sizes inside one big shared table, against a physical floor.

One table of `--total` rows or more: one measured user per size in `--sizes` (1,000 ... 50,000
memories), plus `--tenants` other users holding the rest. The floor is what the hardware allows,
measured in the same run over the same queries: embedding the query, plus an exact top-10 over the
user's vectors held in memory (numpy). Every query is also taken apart (statistics read, dense
arm, lexical arm, row fetch, audit write, and the exact dense scan in SQL for comparison).

The store is generated, not embedded memory by memory: the measured users' memories are generated
sentences whose vectors are composed from real embeddings of their parts (who, what they do and
to what, when), so a query about "oat milk" is close to the memories about oat milk; the other
users' rows carry random vectors and sentences over the same vocabulary, so the lexical index is
full of other people's matches. Rows are as wide as real ones (text, categories, provenance,
metadata). With `--home DIR` the store is kept in DIR and reused by the next run with the same
parameters.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from bench.environment import add_common, emit, percentile
from bench.shortqueries import load as load_short_queries
from bench.texts import DOES, WHAT, WHEN, WHO, memory_texts, queries

STORE_VERSION = 1
DEFAULT_SIZES = "1000,5000,10000,50000"
# A memory as an assistant or an import writes it: a fact and the context it came up in.
_CONTEXT = (
    "mentioned while planning the weekend",
    "from the chat about the new flat",
    "said during the long drive to the coast",
    "noted in the quarterly review conversation",
    "came up while comparing holiday options",
    "from a message about the birthday party",
    "said while sorting out the budget spreadsheet",
    "mentioned on the call with the insurance company",
    "from the thread about the school run",
    "noted while drafting the shopping list",
)
_CATEGORIES = ("preferences", "food", "hobbies", "work", "family", "travel", "health", "finance")
_CROWD_WORDS = sorted(
    {w.strip(".,?").lower() for t in memory_texts(400, seed=9) for w in t.split() if len(w) > 2}
    | {w for c in _CONTEXT for w in c.split() if len(w) > 2}
)

_INSERT_SQL = """
INSERT INTO memories_memory (id, owner_id, text, text_key, embedding, embedding_model, tsv,
    language, state, categories, categories_set_by_user, is_private, hidden_from, origin,
    origin_app_name, provenance, metadata, created_at, updated_at)
SELECT u.id, %(owner)b, u.text, md5(u.text), u.emb, %(model)b,
       memory_tsvector(u.cfg::regconfig, u.prefix, u.body), u.lang, 'active',
       ARRAY(SELECT jsonb_array_elements_text(u.cats))::varchar[], false, false, '{}', 'import',
       'ChatGPT import', u.prov, '{"source": "chatgpt", "extractor": "local"}'::jsonb,
       now() - make_interval(mins => u.age), now()
FROM unnest(%(ids)b::uuid[], %(texts)b::text[], %(embs)b::vector[], %(cats)b::jsonb[],
            %(provs)b::jsonb[], %(ages)b::int[], %(langs)b::text[], %(cfgs)b::text[],
            %(prefixes)b::text[], %(bodies)b::text[])
     AS u(id, text, emb, cats, prov, age, lang, cfg, prefix, body)
"""

_CROWD_SQL = """
INSERT INTO memories_memory (id, owner_id, text, text_key, embedding, embedding_model,
    tsv, state, categories, categories_set_by_user, is_private, hidden_from, origin,
    origin_app_name, provenance, metadata, created_at, updated_at)
SELECT gen_random_uuid(), o.owners[1 + g %% cardinality(o.owners)], t.text, md5(t.text || g),
       p.vec, %(model)s, memory_tsvector(%(cfg)s::regconfig, '', t.text), 'active',
       (%(cats)s::varchar[])[1 + g %% 8:1 + g %% 8 + g %% 2], false, false, '{}', 'app',
       'Claude Desktop',
       jsonb_build_object('app', 'Claude Desktop', 'conversation', md5(g::text),
                          'message', 'msg_' || md5(t.text), 'recorded_at', now()::text),
       '{}', now(), now()
FROM generate_series(1, %(n)s) g
CROSS JOIN (SELECT %(owners)s::bigint[] AS owners) o
JOIN bench_vector_pool p ON p.n = (g * 7919) %% 2000
CROSS JOIN LATERAL (
    SELECT string_agg(w.words[1 + floor(random() * cardinality(w.words))::int], ' ') AS text
    FROM (SELECT %(words)s::text[] AS words) w, generate_series(1, 10 + g %% 8) i
    WHERE i > g * 0
) t
"""

_POOL_SQL = """
CREATE TEMP TABLE bench_vector_pool AS
SELECT p AS n, (SELECT array_agg(random() - 0.5)::vector FROM generate_series(1, 384) d
                WHERE d > p * 0) AS vec
FROM generate_series(0, 1999) p
"""


# ---- the store ---------------------------------------------------------------------------------


def _composer() -> Any:
    """Vectors for generated memories, composed from real embeddings of their parts."""
    from memories.search.embeddings import get_embedder

    embedder = get_embedder()
    acts = [f"{d} {o}" for d in DOES for o in WHAT]
    parts = embedder.embed([*WHO, *acts, *WHEN])
    who = dict(zip(WHO, parts[: len(WHO)], strict=True))
    act = dict(zip(acts, parts[len(WHO) : len(WHO) + len(acts)], strict=True))
    when = dict(zip(WHEN, parts[len(WHO) + len(acts) :], strict=True))
    whos = sorted(WHO, key=len, reverse=True)  # "My son" must not match "My sister"'s prefix

    def vector(text: str) -> np.ndarray:
        w = next(x for x in whos if text.startswith(x + " "))
        rest = text[len(w) + 1 :]
        a = next(x for x in acts if rest.startswith(x + " "))
        t = next(x for x in WHEN if rest[len(a) + 1 :].startswith(x))
        v = act[a] + 0.5 * who[w] + 0.25 * when[t]
        return (v / np.linalg.norm(v)).astype(np.float32)

    return vector


def _insert_user(owner_id: int, size: int, vector: Any) -> None:
    from django.conf import settings
    from django.db import connection
    from pgvector.psycopg.vector import register_vector_info
    from psycopg import Cursor
    from psycopg.types import TypeInfo

    from memories.search import lexical

    rng = np.random.default_rng(size)
    facts = memory_texts(size, seed=size)
    connection.ensure_connection()
    raw = connection.connection
    for start in range(0, size, 5000):
        batch = facts[start : start + 5000]
        texts = [f"{f[:-1]}, {_CONTEXT[rng.integers(len(_CONTEXT))]}." for f in batch]
        cats = [
            json.dumps(list(rng.choice(_CATEGORIES, size=rng.integers(1, 3), replace=False)))
            for _ in batch
        ]
        provs = [
            json.dumps(
                {
                    "app": "ChatGPT import",
                    "conversation": str(uuid.uuid4()),
                    "message": f"msg_{uuid.uuid4().hex}",
                    "recorded_at": "2026-11-02T10:15:00+00:00",
                }
            )
            for _ in batch
        ]
        analysed = [lexical.for_memory(text) for text in texts]
        params = {
            "owner": owner_id,
            "model": settings.EMBEDDING_MODEL,
            "langs": [a.language for a in analysed],
            "cfgs": [a.config for a in analysed],
            "prefixes": [a.prefix for a in analysed],
            "bodies": [a.body for a in analysed],
            "ids": [uuid.uuid4() for _ in batch],
            "texts": texts,
            "embs": [vector(f) for f in batch],
            "cats": cats,
            "provs": provs,
            "ages": [int(x) for x in rng.integers(0, 60 * 24 * 365 * 3, size=len(batch))],
        }
        with Cursor(raw) as cur:
            register_vector_info(cur, TypeInfo.fetch(raw, "vector"))  # type: ignore[arg-type]
            cur.execute(_INSERT_SQL, params)


def _insert_crowd(owner_ids: list[int], rows: int) -> None:
    from django.conf import settings
    from django.db import connection

    from memories.search import lexical

    with connection.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS bench_vector_pool")
        cur.execute(_POOL_SQL)
        for start in range(0, rows, 50_000):
            cur.execute(
                _CROWD_SQL,
                {
                    "n": min(50_000, rows - start),
                    "owners": owner_ids,
                    "words": _CROWD_WORDS,
                    "cats": list(_CATEGORIES),
                    "model": settings.EMBEDDING_MODEL,
                    "cfg": lexical.DEFAULT.config,  # random English words
                },
            )
        cur.execute("DROP TABLE bench_vector_pool")


def _store_file() -> Path:
    from django.conf import settings

    return Path(settings.HOME) / "bench-search-store.json"


def _counts(user_ids: list[int]) -> dict[int, int]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "SELECT owner_id, count(*) FROM memories_memory WHERE owner_id = ANY(%s) "
            "GROUP BY owner_id",
            [user_ids],
        )
        return {int(o): int(n) for o, n in cur.fetchall()}


def build(sizes: list[int], tenants: int, total: int) -> dict[int, Any]:
    """The measured users (one per size), reusing a stored store built with the same settings."""
    from django.db import connection

    from accounts.models import User
    from bench.environment import bench_user

    wanted = {"version": STORE_VERSION, "sizes": sizes, "tenants": tenants, "total": total}
    path = _store_file()
    if path.exists():
        kept = json.loads(path.read_text())
        if {k: kept.get(k) for k in wanted} == wanted:
            users = {int(s): User.objects.get(pk=pk) for s, pk in kept["users"].items()}
            if _counts([u.pk for u in users.values()]) == {u.pk: s for s, u in users.items()}:
                print(f"reusing the store in {path.parent} ({kept['rows']} rows)")
                return users
        print("the kept store does not match these settings: building a new one")
        with connection.cursor() as cur:
            cur.execute("DELETE FROM memories_memory")
        User.objects.filter(email__startswith="bench-").delete()

    started = time.perf_counter()
    vector = _composer()
    users = {size: bench_user(f"measured{size}") for size in sizes}
    for size, user in users.items():
        _insert_user(user.pk, size, vector)
    measured = sum(sizes)
    print(f"measured users: {measured} memories in {time.perf_counter() - started:.0f} s")
    started = time.perf_counter()
    crowd = [bench_user(f"crowd{i}").pk for i in range(tenants)]
    others = max(total - measured, 0)
    _insert_crowd(crowd, others)
    elapsed = time.perf_counter() - started
    print(f"other users: {others} rows over {tenants} users in {elapsed:.0f} s")
    started = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE memories_memory")
        cur.execute("SELECT count(*) FROM memories_memory")
        (rows,) = cur.fetchone()
    print(f"vacuum and analyze in {time.perf_counter() - started:.0f} s; {rows} rows in all")
    kept = {**wanted, "rows": rows, "users": {s: u.pk for s, u in users.items()}}
    path.write_text(json.dumps(kept))
    return users


# ---- measuring ---------------------------------------------------------------------------------


def user_matrix(owner_id: int, *, by_id: bool = False) -> np.ndarray:
    """The floor's input: the user's vectors, read once, outside the timing, L2-normalised
    (`by_id`: in the order of their ids)."""
    from django.db import connection
    from pgvector.psycopg.vector import register_vector_info
    from psycopg import Cursor
    from psycopg.types import TypeInfo

    connection.ensure_connection()
    raw = connection.connection
    with Cursor(raw) as cur:
        register_vector_info(cur, TypeInfo.fetch(raw, "vector"))  # type: ignore[arg-type]
        cur.execute(
            "SELECT embedding FROM memories_memory WHERE owner_id = %s AND state = 'active' "
            "ORDER BY CASE WHEN %s THEN id END",
            [owner_id, by_id],
        )
        matrix = np.stack([row[0].to_numpy().astype(np.float32) for row in cur.fetchall()])
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def floor_top(matrix: np.ndarray, qvec: np.ndarray, k: int = 10) -> np.ndarray:
    sims = matrix @ (qvec / np.linalg.norm(qvec))
    top = np.argpartition(-sims, k)[:k]
    return top[np.argsort(-sims[top])]


PARTS = ("head", "score", "fetch", "audit")
SQL_ARMS = ("dense_sql", "lexical_sql")


def measure(user: Any, n_queries: int, sql_every: int) -> dict[str, Any]:
    """Django is set up and `user` holds the store. Times every query whole, then taken apart."""
    from django.db import connection

    from accounts.actors import owner_actor
    from activity.models import AccessEvent
    from activity.services import access_event_create
    from memories.models import UNSHOWN_COLUMNS, Memory
    from memories.search import index as search_index
    from memories.search import scoring, statements
    from memories.search.embeddings import get_embedder
    from memories.selectors.memories import memory_search
    from memories.visibility import visible_sql

    actor = owner_actor(user)
    qs = queries(n_queries)
    embedder = get_embedder()
    matrix = user_matrix(user.pk)
    visible, params = visible_sql(actor)
    cold = _cold(user, actor, qs[:5])
    index, _ = search_index.read_full(user.pk)
    for q in qs[:5]:  # warm the model, the connection, the caches
        memory_search(actor=actor, query=q)
    times: dict[str, list[float]] = {
        k: [] for k in ("search", "embed", "scan", "floor", *PARTS, *SQL_ARMS)
    }
    returned, matched = [], []
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        hits = memory_search(actor=actor, query=q, limit=10)
        t1 = time.perf_counter()
        qvec = embedder.embed_query(q)
        t2 = time.perf_counter()
        floor_top(matrix, qvec)
        t3 = time.perf_counter()
        times["search"].append((t1 - t0) * 1000)
        times["embed"].append((t2 - t1) * 1000)
        times["scan"].append((t3 - t2) * 1000)
        times["floor"].append((t3 - t1) * 1000)
        returned.append(len(hits))

        marks = [time.perf_counter()]
        s = scoring.UserSearch(user.pk, visible=visible, params=params, query=q, whole_store=True)
        marks.append(time.perf_counter())
        best = s.best(qvec, limit=10)
        marks.append(time.perf_counter())
        ids = [c.id for c in best]
        Memory.objects.filter(owner=user).defer(*UNSHOWN_COLUMNS).in_bulk(ids)
        marks.append(time.perf_counter())
        access_event_create(actor, AccessEvent.Action.SEARCH, ids)
        marks.append(time.perf_counter())
        for name, a, b in zip(PARTS, marks, marks[1:], strict=False):
            times[name].append((b - a) * 1000)
        if i % sql_every == 0:
            sql, args = statements.dense_statement(qvec, visible=visible, params=params)
            t4 = time.perf_counter()
            with connection.cursor() as cur:
                cur.execute(sql, args)
                cur.fetchall()
            t5 = time.perf_counter()
            in_sql = scoring.UserSearch(
                user.pk, visible=visible, params=params, query=q, whole_store=True, use_index=False
            )
            in_sql.lexical()
            t6 = time.perf_counter()
            times["dense_sql"].append((t5 - t4) * 1000)
            times["lexical_sql"].append((t6 - t5) * 1000)
            matched.append(_matches(user.pk, q))
    # Short queries (bench/data/short_queries.json), with their related terms and with their own
    # words only, alternately: what the expansion costs.
    short: dict[bool, list[float]] = {True: [], False: []}
    for q in [q.query for q in load_short_queries()[1]][:n_queries]:
        for expand in (True, False):
            t0 = time.perf_counter()
            memory_search(actor=actor, query=q, limit=10, expand=expand)
            short[expand].append((time.perf_counter() - t0) * 1000)
    p50 = {k: round(percentile(v, 50), 2) for k, v in times.items()}
    p95 = {k: round(percentile(v, 95), 2) for k, v in times.items()}
    short_p50 = {expand: round(percentile(v, 50), 2) for expand, v in short.items()}
    return {
        "queries": n_queries,
        "p50_ms": p50["search"],
        "p95_ms": p95["search"],
        "floor_p50_ms": p50["floor"],
        "p50_over_floor": round(p50["search"] / p50["floor"], 3),
        "p95_over_p50": round(p95["search"] / p50["search"], 3),
        "parts_p50_ms": {k: p50[k] for k in ("embed", "scan", *PARTS, *SQL_ARMS)},
        "parts_p95_ms": {k: p95[k] for k in ("embed", "scan", *PARTS, *SQL_ARMS)},
        "index_mb": round(index.nbytes / 2**20, 1),
        # Its real size (every array, postings included), which admission to SEARCH_CACHE_MB
        # reckons before reading, and whether the searches above were served from the cache.
        "index_bytes": index.nbytes,
        "index_cached": search_index.current().indexes.get(search_index._key(user.pk)) is not None,
        **cold,
        "mean_results": round(float(np.mean(returned)), 2),
        "lexical_matches_p50": int(np.median(matched)),
        "short_queries": len(short[True]),
        "short_p50_ms": short_p50[True],
        "short_exact_words_p50_ms": short_p50[False],
        "short_over_exact_words": round(short_p50[True] / short_p50[False], 3),
    }


def _cpu_ms(pid: int | None = None) -> float:
    """CPU time (user + system) of this process, or of another on this machine (the embedded
    server's backend), in ms: what a loaded machine's wall clock cannot say."""
    if pid is None:
        return time.process_time() * 1000
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _vm_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise ValueError(field)


def _peak_reset() -> float:
    """Start measuring the resident peak from now (Linux: clear_refs 5); the resident size now."""
    Path("/proc/self/clear_refs").write_text("5")
    return _vm_mb("VmRSS")


def _cold(user: Any, actor: Any, qs: list[str]) -> dict[str, Any]:
    """What a process that does not hold the user's index pays: the load from the user's
    snapshot (`index_load_ms`), the full read it replaces, writing the snapshot, and the first
    whole search (`memory_search`) after the cache was emptied, against its floor: the same
    query's embedding and numpy scan plus one copy of the index's bytes in memory."""
    from django.db import connection

    from memories.search import index as search_index
    from memories.search import snapshot as search_snapshot
    from memories.search.background import writer as search_writer
    from memories.search.embeddings import get_embedder
    from memories.selectors.memories import memory_search

    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        (backend,) = cur.fetchone()
    embedder = get_embedder()
    memory_search(actor=actor, query=qs[0])  # the model and the connection, not the index
    search_writer.flush()  # the snapshot that search wrote, if any

    def timed(fn: Any) -> tuple[float, float, float, Any, float]:
        search_index.clear()
        base = _peak_reset()
        wall, cpu, server = time.perf_counter(), _cpu_ms(), _cpu_ms(backend)
        out = fn()
        return (
            (time.perf_counter() - wall) * 1000,
            _cpu_ms() - cpu,
            _cpu_ms(backend) - server,
            out,
            _vm_mb("VmHWM") - base,
        )

    full = [timed(lambda: search_index.read_full(user.pk)) for _ in range(3)]
    index = full[-1][3][0]
    write_ms = timed(lambda: search_index.save_snapshot(user.pk, index))
    snaps = [timed(lambda: search_index.load(user.pk)) for _ in range(3)]
    firsts = [timed(lambda q=q: memory_search(actor=actor, query=q, limit=10)) for q in qs]
    data = bytes(search_snapshot.pack({n: getattr(index, n) for n, *_ in search_snapshot.FIELDS}))
    floors = []
    for q in qs:
        t0 = time.perf_counter()
        copy = bytearray(data)  # the index's bytes moved once
        floor_top(search_snapshot.unpack(copy)["matrix"], embedder.embed_query(q))
        floors.append((time.perf_counter() - t0) * 1000)
    search_index.clear()

    def med(rows: list[Any], i: int) -> float:
        return round(float(np.median([r[i] for r in rows])), 1)

    first, floor = med(firsts, 0), round(float(np.median(floors)), 2)
    return {
        "index_load_ms": med(snaps, 0),
        "index_load_cpu_ms": {"client": med(snaps, 1), "server": med(snaps, 2)},
        # How far the process's resident memory rose above where it stood, at its peak.
        "index_load_peak_mb": med(snaps, 4),
        "snapshot_mb": round(len(data) / 2**20, 1),
        "snapshot_write_ms": round(write_ms[0], 1),
        "full_read_ms": med(full, 0),
        "full_read_cpu_ms": {"client": med(full, 1), "server": med(full, 2)},
        "full_read_peak_mb": med(full, 4),
        "cold_search_ms": first,
        "cold_search_cpu_ms": {"client": med(firsts, 1), "server": med(firsts, 2)},
        "cold_floor_ms": floor,
        "cold_search_over_floor": round(first / floor, 2),
    }


def _matches(owner_id: int, query: str) -> int:
    """How many of the user's memories hold a lexeme of the query (the lexical arm's work)."""
    from django.db import connection

    from memories.search import lexical

    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(*) FROM memories_memory m WHERE m.owner_id = %s "
            "AND m.tsv @@ replace(plainto_tsquery(%s::regconfig, %s)::text, '&', '|')::tsquery",
            [owner_id, lexical.DEFAULT.config, query],
        )
        return int(cur.fetchone()[0])


def run(args: Any) -> None:
    sizes = sorted({int(x) for x in args.sizes.split(",") if x.strip()})
    users = build(sizes, args.tenants, args.total)
    by_size: dict[int, dict[str, Any]] = {}
    for size in sizes:
        started = time.perf_counter()
        by_size[size] = measure(users[size], args.queries, args.sql_every)
        r = by_size[size]
        print(
            f"{size:>6} memories: search p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms; floor "
            f"{r['floor_p50_ms']} ms (embed {r['parts_p50_ms']['embed']} + numpy "
            f"{r['parts_p50_ms']['scan']}); p50/floor {r['p50_over_floor']}, p95/p50 "
            f"{r['p95_over_p50']} ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        parts = ", ".join(f"{k} {v}" for k, v in r["parts_p50_ms"].items())
        print(f"        parts p50 ms: {parts}")
        print(
            f"        in-memory index {r['index_mb']} MB ({r['index_bytes']} bytes, "
            f"{'cached' if r['index_cached'] else 'over SEARCH_CACHE_MB: in PostgreSQL'}), "
            f"read in {r['index_load_ms']} ms from its {r['snapshot_mb']} MB snapshot "
            f"(cpu {r['index_load_cpu_ms']}, resident peak +{r['index_load_peak_mb']} MB; in "
            f"full: {r['full_read_ms']} ms, cpu {r['full_read_cpu_ms']}, resident peak "
            f"+{r['full_read_peak_mb']} MB; snapshot written in {r['snapshot_write_ms']} ms); "
            f"{r['mean_results']} results a query; {r['lexical_matches_p50']} memories match "
            "a query's words (p50)"
        )
        print(
            f"        first search of a user not in the process {r['cold_search_ms']} ms (cpu "
            f"{r['cold_search_cpu_ms']}), floor {r['cold_floor_ms']} ms, ratio "
            f"{r['cold_search_over_floor']}"
        )
        print(
            f"        {r['short_queries']} short queries: p50 {r['short_p50_ms']} ms with related "
            f"terms, {r['short_exact_words_p50_ms']} ms with their own words only "
            f"(ratio {r['short_over_exact_words']})"
        )
    result: dict[str, Any] = {"total_rows": total_rows(), "tenants": args.tenants, "sizes": {}}
    result["sizes"] = {str(s): r for s, r in by_size.items()}
    if 5000 in by_size and max(by_size) > 5000:
        top = max(by_size)
        result["growth"] = {
            "from": 5000,
            "to": top,
            "p50_ratio": round(by_size[top]["p50_ms"] / by_size[5000]["p50_ms"], 3),
            # What physics allows: the same ratio for the floor, in the same run.
            "floor_ratio": round(by_size[top]["floor_p50_ms"] / by_size[5000]["floor_p50_ms"], 3),
        }
        growth = result["growth"]
        print(
            f"growth: p50 at {top} / p50 at 5000 = {growth['p50_ratio']} "
            f"(the floor's: {growth['floor_ratio']})"
        )
    emit(result)


def total_rows() -> int:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM memories_memory")
        return int(cur.fetchone()[0])


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "search", help="Search p50/p95 by store size vs the embed + numpy-scan floor."
    )
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="Measured users' sizes.")
    parser.add_argument("--tenants", type=int, default=100, help="Other users sharing the table.")
    parser.add_argument("--total", type=int, default=200_000, help="Other users' rows + measured.")
    parser.add_argument("--queries", type=int, default=200, help="Queries to time per size.")
    parser.add_argument(
        "--sql-every", type=int, default=4, help="Time the arms in PostgreSQL every Nth query."
    )
    parser.add_argument("--home", default=None, help="Keep (and reuse) the store in this folder.")
    add_common(parser)
    parser.set_defaults(run=run)
