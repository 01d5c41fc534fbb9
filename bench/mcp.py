"""`python -m bench mcp`: what MCP over HTTP adds to a search, measured against the service call.

One run, one process: a throwaway user with N memories on a temporary embedded database (or
`--database-url`), the real ASGI app under uvicorn in a thread, and the real MCP SDK client with a
client token. The same queries go through `memories.selectors.memory_search` in-process and
through `search_memory` over Streamable HTTP (one session, as a client holds one), in alternating
blocks. Prints readable lines, then one JSON object as the last line.
"""

from __future__ import annotations

import argparse
import json
import socket
import threading
import time
from typing import Any

from bench.environment import setup_django
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


def _percentile(samples: list[float], q: float) -> float:
    import numpy as np

    return float(np.percentile(np.asarray(samples, dtype=np.float64), q))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    from memories.grants import known_categories
    from memories.selectors import memory_search
    from memories.services import NewMemory, memory_create_many

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
        for start in range(0, len(texts), 200):
            items = [NewMemory(text=t) for t in texts[start : start + 200]]
            memory_create_many(actor=actor, items=items)

        port = _free_port()
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
        "inproc_p50_ms": round(_percentile(inproc, 50), 2),
        "inproc_p95_ms": round(_percentile(inproc, 95), 2),
        "http_p50_ms": round(_percentile(http, 50), 2),
        "http_p95_ms": round(_percentile(http, 95), 2),
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
    parser.set_defaults(
        run=lambda args: report(
            measure(args.memories, args.rounds, args.blocks, args.store, args.total)
        )
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench mcp", description=__doc__)
    _add_arguments(parser)
    args = parser.parse_args(argv)
    setup_django(args.database_url, args.home)
    report(measure(args.memories, args.rounds, args.blocks, args.store, args.total))
    return 0
