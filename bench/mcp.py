"""`python -m bench mcp`: what MCP over HTTP adds to a search, measured against the service call.

One run, one process: a throwaway user with N memories on a temporary embedded database (or
`--database-url`), the real ASGI app under uvicorn in a thread, and the real MCP SDK client with a
client token. The same queries go through `memories.selectors.memories.memory_search` in-process and
through `search_memory` over Streamable HTTP (one session, as a client holds one), in alternating
blocks. Prints readable lines, then one JSON object as the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from bench.environment import free_port, percentile, read_client, setup_django
from bench.search import total_rows

QUERIES = [
    "coffee",
    "where does the user live",
    "programming languages",
    "favourite food",
    "children names",
    "running schedule",
    "current project deadline",
    "allergies",
    "music taste",
    "travel plans next year",
]
TOPICS = [
    "Drinks {} coffee every morning",
    "Lives near {} park with a partner",
    "Writes {} code at work",
    "Loves eating {} food on weekends",
    "Has a child who likes {}",
    "Runs {} kilometres on Sundays",
    "Is building a {} project due next month",
    "Is allergic to {}",
    "Listens to {} music while working",
    "Plans a trip to {} next year",
]
WORDS = [
    "black", "green", "Rust", "Thai", "dinosaurs", "ten", "garden", "peanuts", "jazz", "Japan",
    "oat", "city", "Python", "Italian", "trains", "five", "robot", "cats", "techno", "Peru",
]  # fmt: skip


def measure(
    memories: int, rounds: int, blocks: int, store: int = 0, total: int = 200_000
) -> dict[str, Any]:
    """Django is set up. Seeds a user, serves the app, times both paths; removes the user.

    `store`: instead, a user of that many memories in a generated table of `total` rows
    (`bench search`'s store, kept in `--home` between runs), asked `bench search`'s questions.
    """
    import anyio
    import httpx2
    import uvicorn
    from asgiref.sync import sync_to_async
    from django.conf import settings
    from django.db import connections
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client

    from accounts.actors import owner_actor
    from accounts.client_tokens import client_token_create
    from accounts.credentials import resolve_bearer
    from accounts.models import ClientToken, ConnectedApp, User
    from memories.selectors.grants import known_categories
    from memories.selectors.memories import memory_search
    from memories.services.adding import NewMemory, memory_create_many

    # One client calls back to back for minutes: lift the per-client and per-user limits, as
    # `bench load` does for its server (this server runs in-process, so the settings do).
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "mcp": "1000000/m", "mcp_user": "1000000/m"}
    if store:
        from bench.search import build
        from bench.texts import queries

        user = build([store], tenants=100, total=total)[store]
        asked = queries(50)
    else:
        user = User.objects.create_user(f"bench-mcp-{time.time_ns()}@example.invalid")
        asked = QUERIES
    try:
        issued = client_token_create(
            actor=owner_actor(user),
            known=known_categories(user),
            name="bench",
            scopes=["read", "write"],
        )
        credential = resolve_bearer(issued.secret, resource="bench")
        assert credential is not None
        actor = credential.actor()
        texts = [
            TOPICS[i % len(TOPICS)].format(WORDS[(i // len(TOPICS)) % len(WORDS)]) + f" ({i})"
            for i in range(0 if store else memories)
        ]
        # Written through the owner's door: an app's writes count against its write budget.
        for start in range(0, len(texts), 200):
            items = [NewMemory(text=t) for t in texts[start : start + 200]]
            memory_create_many(actor=owner_actor(user), items=items)

        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(
                "contextlayer.asgi:application", port=port, lifespan="on", log_level="warning"
            )
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            if not thread.is_alive():
                raise SystemExit("uvicorn did not start")
            time.sleep(0.05)

        def inproc_block() -> list[float]:
            out = []
            for i in range(rounds):
                q = asked[i % len(asked)]
                t0 = time.perf_counter()
                memory_search(actor=actor, query=q, limit=10)
                out.append((time.perf_counter() - t0) * 1000)
            return out

        async def http_block() -> list[float]:
            headers = {"Authorization": f"Bearer {issued.secret}"}
            url = f"http://127.0.0.1:{port}/mcp"
            out = []
            async with (
                httpx2.AsyncClient(headers=headers, timeout=60) as http,
                Client(streamable_http_client(url, http_client=http), mode="legacy") as c,
            ):
                for i in range(rounds):
                    q = asked[i % len(asked)]
                    t0 = time.perf_counter()
                    result = await c.call_tool("search_memory", {"query": q, "limit": 10})
                    out.append((time.perf_counter() - t0) * 1000)
                    if result.is_error:
                        raise SystemExit(f"search_memory failed: {result.content}")
            return out

        inproc_block()  # warm-up: model, plans, connections
        anyio.run(http_block)
        inproc: list[float] = []
        http: list[float] = []
        for _ in range(blocks):
            inproc += inproc_block()
            http += anyio.run(http_block)

        server.should_exit = True
        thread.join(timeout=30)
        anyio.run(sync_to_async(connections.close_all, thread_sensitive=True))
        table_rows = total_rows()
    finally:
        if store:  # the generated store stays for the next run; only this run's client goes
            ClientToken.objects.filter(owner=user).delete()
            ConnectedApp.objects.filter(owner=user, name="bench").delete()
        else:
            User.objects.filter(pk=user.pk).delete()

    result: dict[str, Any] = {
        "bench": "mcp",
        "memories": store or memories,
        "table_rows": table_rows,
        "calls_per_path": len(http),
        "inproc_p50_ms": round(percentile(inproc, 50), 2),
        "inproc_p95_ms": round(percentile(inproc, 95), 2),
        "http_p50_ms": round(percentile(http, 50), 2),
        "http_p95_ms": round(percentile(http, 95), 2),
    }
    result["ratio_p50"] = round(result["http_p50_ms"] / result["inproc_p50_ms"], 2)
    result["ratio_p95"] = round(result["http_p95_ms"] / result["inproc_p95_ms"], 2)
    result["aim_ratio_p50"] = 1.5
    result["meets_aim"] = result["ratio_p50"] <= 1.5
    return result


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--memories", type=int, default=500, help="Memories for the user.")
    parser.add_argument(
        "--store",
        type=int,
        default=0,
        help="Instead: a user of this many memories in a generated table (bench search's).",
    )
    parser.add_argument("--total", type=int, default=200_000, help="Rows of that table.")
    parser.add_argument("--home", default=None, help="Keep (and reuse) that store in this folder.")
    parser.add_argument(
        "--server-cpu",
        action="store_true",
        help="Instead: the server's CPU time per call, the ASGI app driven in this process "
        "against memory_search (run with EMBEDDING_THREADS=1).",
    )
    parser.add_argument(
        "--real",
        action="store_true",
        help="Real texts through the real door: LoCoMo memories, `serve` in its own process, the "
        "floor in the same run (see docs/benchmarks.md).",
    )
    parser.add_argument(
        "--search-cpu",
        action="store_true",
        help="With --real: instead, the CPU time of in-process memory_search per call, this "
        "process's and its PostgreSQL backend's, each query embedded beforehand.",
    )
    parser.add_argument(
        "--locomo",
        default="/work/shared/data/locomo/locomo-dev.json",
        help="With --real: the LoCoMo file whose texts and questions are used.",
    )
    parser.add_argument(
        "--vectors",
        default=None,
        help="With --real: keep the texts' embeddings in this .npz (default: in --home).",
    )
    parser.add_argument("--sizes", default="2000,10000", help="With --real: measured users.")
    parser.add_argument("--tenants", type=int, default=100, help="With --real: other users.")
    parser.add_argument("--others", type=int, default=150_000, help="With --real: their rows.")
    parser.add_argument("--queries", type=int, default=100, help="With --real: per block.")
    parser.add_argument("--rounds", type=int, default=100, help="Calls per block and path.")
    parser.add_argument("--blocks", type=int, default=3, help="Alternating blocks per path.")
    parser.add_argument(
        "--database-url",
        default=None,
        help="Run against this PostgreSQL (with pgvector) instead of a temporary embedded one.",
    )


def report(result: dict[str, Any]) -> None:
    r = result
    print(
        f"search_memory over MCP/HTTP vs in-process memory_search ({r['memories']} memories, "
        f"{r['table_rows']} rows in the table)"
    )
    for label, key in (("in-process", "inproc"), ("MCP HTTP", "http")):
        p50, p95 = r[f"{key}_p50_ms"], r[f"{key}_p95_ms"]
        print(f"  {label:<11} p50 {p50:7.2f} ms   p95 {p95:7.2f} ms")
    print(f"  {'ratio':<11} p50 {r['ratio_p50']:6.2f}x      p95 {r['ratio_p95']:6.2f}x")
    print(json.dumps(r), flush=True)


def register(sub: Any) -> None:
    """For a `python -m bench` that sets Django up itself and calls `args.run(args)`."""
    parser = sub.add_parser("mcp", help=__doc__.splitlines()[0] if __doc__ else None)
    _add_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    if args.server_cpu:
        print(json.dumps(measure_server_cpu(args.memories, args.rounds, args.blocks)), flush=True)
        return
    if args.real and args.search_cpu:
        print(json.dumps(measure_search_cpu(args)), flush=True)
        return
    if args.real:
        result = measure_real(args)
        print(json.dumps(result), flush=True)
        return
    report(measure(args.memories, args.rounds, args.blocks, args.store, args.total))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench mcp", description=__doc__)
    _add_arguments(parser)
    args = parser.parse_args(argv)
    setup_django(args.database_url, args.home)
    run(args)
    return 0


# ---- --real: real texts, the real door (`serve` in its own process), the floor in the same run


REAL_STORE_VERSION = 1


def _real_store(
    locomo: Path, sizes: list[int], tenants: int, others: int, vectors: Path
) -> dict[int, Any]:
    """One user per size holding that many LoCoMo texts (written through memory_create_many) and
    `others` rows of `tenants` other users copied from them; kept in --home between runs."""
    from django.conf import settings
    from django.db import connection

    from accounts.models import User
    from bench import real_texts
    from bench.environment import bench_user

    wanted = {"version": REAL_STORE_VERSION, "sizes": sizes, "tenants": tenants, "others": others}
    manifest = Path(settings.HOME) / "bench-mcp-real-store.json"
    if manifest.exists():
        kept = json.loads(manifest.read_text())
        if {k: kept.get(k) for k in wanted} == wanted:
            print(f"reusing the store in {manifest.parent} ({kept['rows']} rows)")
            return {int(s): User.objects.get(pk=pk) for s, pk in kept["users"].items()}
        with connection.cursor() as cur:
            cur.execute("DELETE FROM memories_memory")
        User.objects.filter(email__startswith="bench-").delete()
    pool = real_texts.texts(locomo)
    if max(sizes) > len(pool):
        raise SystemExit(f"{locomo} holds {len(pool)} distinct texts; ask for at most that many")
    embedded = real_texts.vectors(pool, vectors)  # all of them: bench hosted uses them too
    users: dict[int, Any] = {}
    for size in sizes:
        started = time.perf_counter()
        users[size] = bench_user(f"real{size}")
        real_texts.write_user(users[size], pool[:size], embedded)
        print(f"{size} real memories written in {time.perf_counter() - started:.0f} s", flush=True)
    started = time.perf_counter()
    crowd = [bench_user(f"crowd{i}").pk for i in range(tenants)]
    real_texts.copy_rows(users[max(sizes)].pk, {pk: others // tenants for pk in crowd})
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE memories_memory")
    rows = total_rows()
    print(f"{rows} rows in all ({time.perf_counter() - started:.0f} s for the other users)")
    kept = {**wanted, "rows": rows, "users": {s: u.pk for s, u in users.items()}}
    manifest.write_text(json.dumps(kept))
    return users


def _start_serve(port: int, log: Path) -> Any:
    """`manage.py serve` as a person starts it (its own process, its own settings), on this run's
    database; the task worker left out, the rate limits lifted (one client calls back to back)."""
    import sys

    from bench.load import server_env, start_answering

    env = server_env(port, 1)
    env.pop("WEB_CONCURRENCY")
    command = [sys.executable, "manage.py", "serve", "--no-worker", "--port", str(port)]
    return start_answering(command, env, port, log)


def measure_real(args: argparse.Namespace) -> dict[str, Any]:
    """Django is set up. For each size: the floor, in-process memory_search, and search_memory
    over HTTP against `serve` through the MCP SDK client and as a bare JSON-RPC POST, in
    alternating blocks over the same LoCoMo questions."""
    from django.conf import settings

    from bench import real_texts
    from bench.load import stop_gunicorn
    from contextlayer.process import SERVE, describe

    sizes = sorted({int(x) for x in args.sizes.split(",")})
    locomo = Path(args.locomo)
    vectors = Path(args.vectors or Path(settings.HOME) / "locomo-vectors.npz")
    users = _real_store(locomo, sizes, args.tenants, args.others, vectors)
    asked = real_texts.questions(locomo)[: args.queries]
    port = free_port()
    server = _start_serve(port, Path(settings.HOME) / "serve.log")
    out: dict[str, Any] = {
        "bench": "mcp --real",
        "store": {"rows": total_rows(), "sizes": sizes, "other_users": args.tenants},
        "queries": len(asked),
        # The floor and in-process search run in this process, with serve's thread settings.
        "process": {"serve": describe(SERVE), "bench": describe(SERVE)},
        "sizes": {},
    }
    try:
        for size in sizes:
            r = _measure_user(users[size], asked, f"http://127.0.0.1:{port}/mcp", args.blocks)
            out["sizes"][str(size)] = r
            p50 = r["p50_ms"]
            print(
                f"{size:>6} memories: floor {p50['floor']} ms, in-process {p50['inproc']}, "
                f"MCP SDK client {p50['sdk']} ({r['sdk_p50_over_floor']}x floor), "
                f"bare POST {p50['http']} ({r['http_p50_over_floor']}x) [p50]",
                flush=True,
            )
    finally:
        stop_gunicorn(server)
    out["aim"] = "search_memory p50 <= 2.5x the floor; MCP adds <= 3 ms p50 (at 10,000)"
    return out


def _measure_user(user: Any, asked: list[str], url: str, blocks: int) -> dict[str, Any]:
    import anyio
    import httpx2
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client

    from bench.search import floor_top, user_matrix
    from memories.search.embeddings import get_embedder
    from memories.selectors.memories import memory_search

    issued, actor = read_client(user, f"bench {time.time_ns()}")
    matrix = user_matrix(user.pk)
    embedder = get_embedder()
    times: dict[str, list[float]] = {k: [] for k in ("floor", "inproc", "sdk", "http")}

    def floor_block() -> None:
        for q in asked:
            t0 = time.perf_counter()
            floor_top(matrix, embedder.embed_query(q))
            times["floor"].append((time.perf_counter() - t0) * 1000)

    def inproc_block() -> None:
        for q in asked:
            t0 = time.perf_counter()
            memory_search(actor=actor, query=q, limit=10)
            times["inproc"].append((time.perf_counter() - t0) * 1000)

    async def sdk_block() -> None:
        headers = {"Authorization": f"Bearer {issued.secret}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(url, http_client=http), mode="legacy") as c,
        ):
            for q in asked:
                t0 = time.perf_counter()
                result = await c.call_tool("search_memory", {"query": q, "limit": 10})
                times["sdk"].append((time.perf_counter() - t0) * 1000)
                if result.is_error:
                    raise SystemExit(f"search_memory failed: {result.content}")

    def http_block() -> None:
        headers = {
            "authorization": f"Bearer {issued.secret}",
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": "2025-11-25",
        }
        with httpx2.Client(headers=headers, timeout=60) as http:
            for n, q in enumerate(asked):
                body = {
                    "jsonrpc": "2.0",
                    "id": n,
                    "method": "tools/call",
                    "params": {"name": "search_memory", "arguments": {"query": q, "limit": 10}},
                }
                t0 = time.perf_counter()
                answer = http.post(url, content=json.dumps(body))
                times["http"].append((time.perf_counter() - t0) * 1000)
                if answer.status_code != 200 or answer.json()["result"]["isError"]:
                    raise SystemExit(f"search_memory failed: {answer.text[:300]}")

    # Warm-up: the model, this user's index in both processes, the connections.
    for q in asked[:5]:
        memory_search(actor=actor, query=q, limit=10)
    anyio.run(sdk_block)
    http_block()
    for samples in times.values():
        samples.clear()
    for _ in range(blocks):
        floor_block()
        inproc_block()
        anyio.run(sdk_block)
        http_block()
    p50 = {k: round(percentile(v, 50), 2) for k, v in times.items()}
    p95 = {k: round(percentile(v, 95), 2) for k, v in times.items()}
    return {
        "calls_per_path": len(times["sdk"]),
        "p50_ms": p50,
        "p95_ms": p95,
        "sdk_p50_over_floor": round(p50["sdk"] / p50["floor"], 2),
        "http_p50_over_floor": round(p50["http"] / p50["floor"], 2),
        "inproc_p50_over_floor": round(p50["inproc"] / p50["floor"], 2),
        "mcp_adds_p50_ms": {
            "sdk_client": round(p50["sdk"] - p50["inproc"], 2),
            "bare_post": round(p50["http"] - p50["inproc"], 2),
        },
    }


# ---- --server-cpu: what the MCP layer costs the server per call, in CPU time


def measure_server_cpu(memories: int, calls: int, blocks: int) -> dict[str, Any]:
    """Django is set up. The ASGI app driven in this process (no socket, no client) with raw
    JSON-RPC `search_memory` POSTs, against `memory_search` called directly, in alternating
    blocks: process CPU time per call of each, so the difference is what the HTTP layer, the
    credential, the rate limits and the SDK cost the server. CPU time, not wall time, so a busy
    machine changes it far less; one onnxruntime thread (a gunicorn worker's), whose CPU time is
    not inflated by spinning."""
    import anyio
    from django.conf import settings

    from accounts.actors import owner_actor
    from accounts.models import User
    from contextlayer.asgi import build_application
    from contextlayer.process import GUNICORN, describe
    from mcpbridge.http import MCPHttpApp
    from memories.selectors.memories import memory_search
    from memories.services.adding import NewMemory, memory_create_many

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "mcp": "1000000/m", "mcp_user": "1000000/m"}
    user = User.objects.create_user(f"bench-cpu-{time.time_ns()}@example.invalid")
    issued, actor = read_client(user, "bench")
    texts = [
        TOPICS[i % len(TOPICS)].format(WORDS[(i // len(TOPICS)) % len(WORDS)]) + f" ({i})"
        for i in range(memories)
    ]
    memory_create_many(actor=owner_actor(user), items=[NewMemory(text=t) for t in texts])
    mcp = MCPHttpApp()
    app = build_application(mcp)
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"authorization", f"Bearer {issued.secret}".encode()),
        (b"content-type", b"application/json"),
        (b"accept", b"application/json, text/event-stream"),
        (b"mcp-protocol-version", b"2025-11-25"),
    ]

    async def one(n: int) -> None:
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": "search_memory", "arguments": {"query": QUERIES[n % 10]}},
            }
        ).encode()
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/mcp",
            "scheme": "http",
            "headers": [*headers, (b"content-length", str(len(body)).encode())],
            "query_string": b"",
            "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 5555),
            "http_version": "1.1",
            "root_path": "",
        }
        messages = [{"type": "http.request", "body": body, "more_body": False}]
        sent: list[Any] = []

        async def receive() -> Any:
            if messages:
                return messages.pop()
            await anyio.sleep_forever()

        async def send(message: Any) -> None:
            sent.append(message)

        await app(scope, receive, send)
        if sent[0]["status"] != 200 or b'"isError":true' in sent[-1].get("body", b""):
            raise SystemExit(f"search_memory failed: {sent}")

    def inproc(n: int) -> None:
        memory_search(actor=actor, query=QUERIES[n % 10], limit=10)

    asgi_ms: list[float] = []
    inproc_ms: list[float] = []

    async def main() -> None:
        async with mcp.lifespan():
            for n in range(20):  # warm-up: the model, the index, the caches
                await one(n)
            for _ in range(blocks):
                c0 = time.process_time()
                for n in range(calls):
                    await one(n)
                c1 = time.process_time()
                # memory_search called directly, as the other benchmarks' in-process figure is
                # (no trip to another thread): Django allows it in this thread for the block.
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
                for n in range(calls):
                    inproc(n)
                del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
                c2 = time.process_time()
                asgi_ms.append((c1 - c0) / calls * 1000)
                inproc_ms.append((c2 - c1) / calls * 1000)

    try:
        anyio.run(main)
    finally:
        User.objects.filter(pk=user.pk).delete()
    mcp_ms = [a - b for a, b in zip(asgi_ms, inproc_ms, strict=True)]
    return {
        "bench": "mcp --server-cpu",
        "memories": memories,
        "calls_per_block": calls,
        "cpu_ms_per_call": {
            "asgi": [round(x, 2) for x in asgi_ms],
            "in_process": [round(x, 2) for x in inproc_ms],
            "mcp_layer": [round(x, 2) for x in mcp_ms],
        },
        "mcp_layer_cpu_ms_median": round(sorted(mcp_ms)[len(mcp_ms) // 2], 2),
        "process": describe(GUNICORN),
    }


# ---- --real --search-cpu: our CPU per search, past the query's embedding


def _backend_cpu_s(pid: int) -> float:
    """User and system CPU time of a PostgreSQL backend on this machine (/proc), in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_search_cpu(args: argparse.Namespace) -> dict[str, Any]:
    """Django is set up. For each size of the --real store: `memory_search` by an app (a client
    token), the LoCoMo questions embedded beforehand, so the CPU time is what search adds to
    the floor's embedding: this process's (`time.process_time`) and its PostgreSQL backend's
    (/proc, clock ticks: 100 calls resolve 0.1 ms). CPU time, so a busy machine changes it far
    less than wall time; the embedded cluster runs on this machine."""
    from django.conf import settings
    from django.db import connection

    from accounts.models import ClientToken, ConnectedApp
    from bench import real_texts
    from memories.search.embeddings import get_embedder
    from memories.selectors.memories import memory_search

    sizes = sorted({int(x) for x in args.sizes.split(",")})
    locomo = Path(args.locomo)
    vectors = Path(args.vectors or Path(settings.HOME) / "locomo-vectors.npz")
    users = _real_store(locomo, sizes, args.tenants, args.others, vectors)
    asked = real_texts.questions(locomo)[: args.queries]
    embedder = get_embedder()
    embedded = {q: embedder.embed_query(q) for q in asked}
    embed = embedder.embed_query
    embedder.embed_query = embedded.__getitem__  # type: ignore[method-assign,assignment]
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        (backend,) = cur.fetchone()
    out: dict[str, Any] = {"bench": "mcp --real --search-cpu", "queries": len(asked), "sizes": {}}
    try:
        for size in sizes:
            user = users[size]
            issued, actor = read_client(user, f"bench cpu {time.time_ns()}")
            for q in asked[:10]:  # warm-up: this user's index, plans, caches
                memory_search(actor=actor, query=q, limit=10)
            ours, backend_ms = [], []
            for _ in range(args.blocks):
                c0, b0 = time.process_time(), _backend_cpu_s(backend)
                for q in asked:
                    memory_search(actor=actor, query=q, limit=10)
                ours.append((time.process_time() - c0) / len(asked) * 1000)
                backend_ms.append((_backend_cpu_s(backend) - b0) / len(asked) * 1000)
            ClientToken.objects.filter(pk=issued.token.pk).delete()
            ConnectedApp.objects.filter(pk=actor.app.pk).delete()
            out["sizes"][str(size)] = {
                "process_cpu_ms_per_search": [round(x, 3) for x in ours],
                "backend_cpu_ms_per_search": [round(x, 3) for x in backend_ms],
                "process_cpu_ms_median": round(sorted(ours)[len(ours) // 2], 3),
                "backend_cpu_ms_median": round(sorted(backend_ms)[len(backend_ms) // 2], 3),
            }
            print(f"{size:>6} memories: {out['sizes'][str(size)]}", flush=True)
    finally:
        embedder.embed_query = embed  # type: ignore[method-assign]
    out["loadavg"] = os.getloadavg()
    return out
