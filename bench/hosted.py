"""`python -m bench hosted`: many users on one server, as a hosted deployment meets them.

`--users` users whose store sizes are spread log-uniformly over `--min`..`--max` memories, asked
with Zipf popularity (`--zipf`: the k-th most popular user is asked 1/k^s as often; popularity
is independent of size), through gunicorn (`gunicorn.conf.py`, `--workers` uvicorn workers, the
shipped `SEARCH_CACHE_MB` unless `--cache-mb`) as MCP `search_memory` calls over HTTP: one
JSON-RPC POST per call on a new connection (a load balancer without affinity: any worker may get
any user), arriving as a Poisson process of `--rate` calls a second. The queries are LoCoMo's
questions.

The texts are real: LoCoMo's (`bench/real_texts.py`), first written for one pool user through
`memory_create_many`, then copied with their vectors into every user's store (an owner's rows are
distinct texts up to the pool's size, then repeat). The floor is measured in this process with a
worker's thread settings, for every call: embedding its query plus an exact scan of that user's
vectors in numpy. Each worker counts its own searches (a bench-only gunicorn hook,
`bench/hosted_gunicorn.py`): answered from its in-memory index, read into it first (cold), or
searched in PostgreSQL (a user too big for the cache). Each worker's RSS is read at the start and
at the end. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from bench.environment import add_common, emit, free_port, percentile
from contextlayer.process import GUNICORN

STORE_VERSION = 1


def sizes(users: int, low: int, high: int, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    return [int(x) for x in np.exp(rng.uniform(np.log(low), np.log(high), size=users)).round()]


def _store(args: argparse.Namespace) -> tuple[Any, dict[int, int]]:
    """The pool user and {user id: size}, kept in --home for the next run with the same shape."""
    from django.conf import settings
    from django.db import connection

    from accounts.models import User
    from bench import real_texts
    from bench.environment import bench_user

    wanted = {
        "version": STORE_VERSION,
        "users": args.users,
        "min": args.min,
        "max": args.max,
        "seed": args.seed,
    }
    manifest = Path(settings.HOME) / "bench-hosted-store.json"
    if manifest.exists():
        kept = json.loads(manifest.read_text())
        if {k: kept.get(k) for k in wanted} == wanted:
            print(f"reusing the store in {manifest.parent} ({kept['rows']} rows)")
            pool = User.objects.get(pk=kept["pool"])
            return pool, {int(k): int(v) for k, v in kept["sizes"].items()}
        with connection.cursor() as cur:
            cur.execute("DELETE FROM memories_memory")
        User.objects.filter(email__startswith="bench-").delete()
    started = time.perf_counter()
    pool = bench_user("pool")
    texts = real_texts.texts(Path(args.locomo))
    vectors = Path(args.vectors or Path(settings.HOME) / "locomo-vectors.npz")
    real_texts.write_user(pool, texts, real_texts.vectors(texts, vectors))
    print(f"pool: {len(texts)} LoCoMo texts written in {time.perf_counter() - started:.0f} s")
    started = time.perf_counter()
    counts = {
        bench_user(f"hosted{n}").pk: size
        for n, size in enumerate(sizes(args.users, args.min, args.max, args.seed))
    }
    real_texts.copy_rows(pool.pk, counts)
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE memories_memory")
        cur.execute("SELECT count(*) FROM memories_memory")
        (rows,) = cur.fetchone()
    print(f"{len(counts)} users, {rows} rows in {time.perf_counter() - started:.0f} s")
    kept = {**wanted, "rows": rows, "pool": pool.pk, "sizes": counts}
    manifest.write_text(json.dumps(kept))
    return pool, counts


def user_rows(owner: int, size: int, pool: int) -> np.ndarray:
    """Which pool rows `copy_rows` gave this owner (its SQL, in numpy)."""
    g = np.arange(size, dtype=np.int64)
    return (g * 7919 + owner * 104729) % pool


# ---- the hook gunicorn's workers run (bench/hosted_gunicorn.py) --------------------------------


_KINDS = ("snapshot_from_file", "snapshot_from_row", "read_whole_index", "in_postgresql")


def count_searches(folder: str) -> None:
    """In a worker: count its searches by where their index came from, into folder/<pid>.json."""
    from memories.search import index as search_index
    from memories.search import snapshot as search_snapshot

    counts: Counter[str] = Counter()
    path = Path(folder) / f"{os.getpid()}.json"
    load, read, for_user = search_index.load, search_index.read_full, search_index.for_user
    read_snapshot = search_snapshot.read

    def counted_snapshot(*args: Any, **kwargs: Any) -> Any:
        found = read_snapshot(*args, **kwargs)
        # Mapped from the machine's file, or read from the snapshot row (and the file written).
        counts[
            "snapshot_from_file" if found and found.source == "file" else "snapshot_from_row"
        ] += found is not None
        return found

    def counted_load(*args: Any, **kwargs: Any) -> Any:
        counts["cold_loads"] += 1
        return load(*args, **kwargs)

    def counted_read(*args: Any, **kwargs: Any) -> Any:
        counts["read_whole_index"] += 1
        return read(*args, **kwargs)

    times: dict[str, list[float]] = {}

    def counted_for_user(*args: Any, **kwargs: Any) -> Any:
        counts["searches"] += 1
        before = Counter(counts)
        t0 = time.perf_counter()
        found = for_user(*args, **kwargs)
        took = (time.perf_counter() - t0) * 1000
        if found is None:
            counts["in_postgresql"] += 1
        # Where this search's index came from, and how long getting it took.
        kind = next(
            (k for k in _KINDS if counts[k] > before[k]),
            "warm",
        )
        times.setdefault(kind, []).append(round(took, 2))
        path.write_text(json.dumps({**counts, "index_ms": times}))
        return found

    search_index.load = counted_load
    search_snapshot.read = counted_snapshot
    search_index.read_full = counted_read
    search_index.for_user = counted_for_user


def _rss(pid: int) -> dict[str, float]:
    """A worker's resident size and its peak, and of the resident size what is its own (Private)
    and its share of pages mapped by several processes (Pss): the workers map the same snapshot
    files, whose pages count once in the machine's memory but in each worker's RSS."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    rollup = Counter[str]()
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, value = line.partition(":")
        rollup[key] = int(value.split()[0])
    fields["Pss"] = round(rollup["Pss"] / 1024, 1)
    fields["Private"] = round((rollup["Private_Clean"] + rollup["Private_Dirty"]) / 1024, 1)
    return fields


def _workers(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(c) for c in children]


# ---- the run -----------------------------------------------------------------------------------


async def _calls(
    url: str, plan: list[tuple[int, str, str]], rate: float, seed: int
) -> list[tuple[int, float, int]]:
    """Each planned (user, token, query) as one POST on a new connection, Poisson arrivals."""
    import httpx2

    rng = np.random.default_rng(seed)
    results: list[tuple[int, float, int]] = []
    # One client, no connection kept: every call opens its own (as without affinity), without
    # the client building a TLS context per call in the loop that times the others.
    limits = httpx2.Limits(max_connections=None, max_keepalive_connections=0)
    # Plain HTTP on loopback: verify=False only spares building a TLS context.
    async with httpx2.AsyncClient(timeout=120, limits=limits, verify=False) as http:

        async def one(n: int, user: int, token: str, query: str) -> None:
            body = {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": "search_memory", "arguments": {"query": query, "limit": 10}},
            }
            headers = {
                "authorization": f"Bearer {token}",
                "content-type": "application/json",
                "accept": "application/json, text/event-stream",
                "mcp-protocol-version": "2025-11-25",
                "connection": "close",
            }
            t0 = time.perf_counter()
            answer = await http.post(url, content=json.dumps(body), headers=headers)
            elapsed = (time.perf_counter() - t0) * 1000
            ok = answer.status_code == 200 and not answer.json().get("result", {}).get("isError")
            results.append((n, elapsed, 0 if ok else answer.status_code or 1))

        tasks = []
        for n, (user, token, query) in enumerate(plan):
            tasks.append(asyncio.create_task(one(n, user, token, query)))
            await asyncio.sleep(float(rng.exponential(1 / rate)))
        await asyncio.gather(*tasks)
    return sorted(results)


def run(args: argparse.Namespace) -> None:
    import tempfile

    from django.conf import settings

    from accounts.actors import owner_actor
    from accounts.client_tokens import client_token_create, client_token_lookup
    from accounts.models import User
    from bench import real_texts
    from bench.load import start_gunicorn, stop_gunicorn
    from bench.search import floor_top, user_matrix
    from contextlayer.process import describe
    from memories.search.embeddings import get_embedder
    from memories.selectors.grants import known_categories

    pool_user, counts = _store(args)
    users = sorted(counts)
    rng = np.random.default_rng(args.seed)
    popularity = rng.permutation(len(users))  # rank of each user, independent of size
    weights = 1.0 / (popularity + 1.0) ** args.zipf
    picks = rng.choice(len(users), size=args.requests, p=weights / weights.sum())
    questions = real_texts.questions(Path(args.locomo))
    asked = [questions[i % len(questions)] for i in rng.permutation(args.requests)]
    # Each user's client, connected at an earlier run when there was one (a server that has run
    # a while has its apps): kept in --home beside the store.
    kept_tokens = Path(settings.HOME) / "bench-hosted-tokens.json"
    tokens = json.loads(kept_tokens.read_text()) if kept_tokens.exists() else {}
    tokens = {int(k): v for k, v in tokens.items()}
    for index in sorted(set(picks.tolist())):
        user = User.objects.get(pk=users[index])
        live = tokens.get(user.pk) and client_token_lookup(tokens[user.pk])
        if not live or live.owner_id != user.pk:
            tokens[user.pk] = client_token_create(
                actor=owner_actor(user),
                known=known_categories(user),
                name=f"hosted {time.time_ns()}",
                scopes=["read"],
            ).secret
    kept_tokens.write_text(json.dumps(tokens))
    kept_tokens.chmod(0o600)
    plan = [(users[i], tokens[users[i]], q) for i, q in zip(picks, asked, strict=True)]

    files = Path(settings.SEARCH_SNAPSHOT_DIR) if settings.SEARCH_SNAPSHOT_DIR else None
    if files is not None and args.files == "none" and files.exists():
        shutil.rmtree(files)  # a machine's first start: every worker reads the snapshot rows
    held = sorted(files.rglob("*.snap")) if files is not None else []
    files_at_start = {"files": len(held), "mb": round(sum(p.stat().st_size for p in held) / 2**20)}
    counted = tempfile.mkdtemp(prefix="bench-hosted-counts-")
    os.environ["BENCH_HOSTED_COUNTS"] = counted
    if args.cache_mb is not None:
        os.environ["SEARCH_CACHE_MB"] = str(args.cache_mb)
    port = free_port()
    server = start_gunicorn(
        port, args.workers, Path(settings.HOME) / "gunicorn.log", config="bench/hosted_gunicorn.py"
    )
    try:
        time.sleep(2)  # the workers' start-up done (the model and classifier are loaded)
        base = {pid: _rss(pid) for pid in _workers(server.pid)}
        started = time.perf_counter()
        results = asyncio.run(_calls(f"http://127.0.0.1:{port}/mcp", plan, args.rate, args.seed))
        elapsed = time.perf_counter() - started
        end = {pid: _rss(pid) for pid in _workers(server.pid)}
    finally:
        stop_gunicorn(server)
    searched: Counter[str] = Counter()
    index_ms: dict[str, list[float]] = {}
    for path in Path(counted).glob("*.json"):
        worker = json.loads(path.read_text())
        for kind, took in worker.pop("index_ms", {}).items():
            index_ms.setdefault(kind, []).extend(took)
        searched.update(worker)

    # The floor of every call, in this process (a worker's threads): embed + exact numpy scan.
    matrix = user_matrix(pool_user.pk, by_id=True)  # copy_rows' order
    embedder = get_embedder()
    floors = []
    for user, _, query in plan:
        vectors = matrix[user_rows(user, counts[user], len(matrix))]
        t0 = time.perf_counter()
        floor_top(vectors, embedder.embed_query(query))
        floors.append((time.perf_counter() - t0) * 1000)

    latencies = [ms for _, ms, status in results if status == 0]
    errors = [status for _, _, status in results if status != 0]
    # Cold: the index was not in the worker (read from the user's snapshot, or in full:
    # `read_whole_index` counts those), or the user did not fit the cache.
    cold = searched["cold_loads"] + searched["in_postgresql"]
    quantiles = (50, 95, 99)
    lat = {f"p{q}": round(percentile(latencies, q), 2) for q in quantiles}
    flo = {f"p{q}": round(percentile(floors, q), 2) for q in quantiles}
    cache_mb = args.cache_mb if args.cache_mb is not None else settings.SEARCH_CACHE_MB
    result: dict[str, Any] = {
        "bench": "hosted",
        "users": len(users),
        "rows": int(sum(counts.values())),
        "store_sizes": {
            "min": min(counts.values()),
            "p50": int(np.median(list(counts.values()))),
            "max": max(counts.values()),
        },
        "users_asked": len(set(picks.tolist())),
        "requests": len(results),
        "errors": len(errors),
        "error_statuses": dict(Counter(errors)),
        "rate_per_s": args.rate,
        "achieved_per_s": round(len(results) / elapsed, 1),
        "latency_ms": lat,
        "floor_ms": flo,
        "over_floor": {k: round(lat[k] / flo[k], 2) for k in lat},
        "searches_counted_by_workers": dict(searched),
        # In the workers: how long each search took to get its index (p50, p95, max), by where
        # it came from.
        "index_ms_by_source": {
            kind: [round(percentile(took, q), 1) for q in (50, 95, 100)]
            for kind, took in sorted(index_ms.items())
        },
        "cold_share": round(cold / searched["searches"], 3) if searched["searches"] else None,
        "search_cache_mb": cache_mb,
        "snapshot_files_at_start": files_at_start,
        "worker_rss_mb": {"start": list(base.values()), "end": list(end.values())},
        "process": describe(GUNICORN, args.workers),
        "aim": "p95 <= 4x and p99 <= 8x the floor (cold searches included); "
        "worker RSS within SEARCH_CACHE_MB plus the start-up base",
    }
    print(
        f"{result['requests']} calls ({result['errors']} errors) over {len(users)} users, "
        f"{result['rows']} rows; latency p50/p95/p99 {lat['p50']}/{lat['p95']}/{lat['p99']} ms, "
        f"floor {flo['p50']}/{flo['p95']}/{flo['p99']} ms, ratio {result['over_floor']}; "
        f"cold {result['cold_share']}; worker RSS start {base} end {end}",
        file=sys.stderr,
    )
    emit(result)


def register(sub: Any) -> None:
    parser = sub.add_parser("hosted", help="Many users, Zipf popularity, through gunicorn.")
    parser.add_argument("--users", type=int, default=200, help="Users (200).")
    parser.add_argument("--min", type=int, default=50, help="Smallest store (50 memories).")
    parser.add_argument("--max", type=int, default=50_000, help="Largest store (50,000).")
    parser.add_argument("--zipf", type=float, default=1.1, help="Popularity exponent (1.1).")
    parser.add_argument("--requests", type=int, default=1500, help="search_memory calls (1500).")
    parser.add_argument("--rate", type=float, default=10.0, help="Calls a second (10).")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2).")
    parser.add_argument("--cache-mb", type=int, default=None, help="SEARCH_CACHE_MB (shipped).")
    parser.add_argument(
        "--files",
        choices=("keep", "none"),
        default="keep",
        help="The machine's search snapshot files at the start: as the last run left them "
        "(keep: a server that has run a while) or none (a machine's first start).",
    )
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--locomo",
        default="/work/shared/data/locomo/locomo-dev.json",
        help="The LoCoMo file whose texts and questions are used.",
    )
    parser.add_argument(
        "--vectors",
        default=None,
        help="Keep the texts' embeddings in this .npz (default: in --home).",
    )
    parser.add_argument("--home", default=None, help="Keep (and reuse) the store in this folder.")
    add_common(parser)
    parser.set_defaults(run=run, layout=GUNICORN)
