"""`python -m bench load`: many MCP clients at once against gunicorn with uvicorn workers.

A throwaway user on a temporary embedded PostgreSQL (or `--database-url`), one client token per
simulated client, and the production server (`gunicorn -c gunicorn.conf.py`, uvicorn workers) in a
subprocess on loopback. First one client alone measures the single-client p50 of `search_memory`
(the baseline); then `--clients` real MCP SDK clients, each holding one Streamable HTTP session,
run a mixed load for `--seconds`: 80% reads (`search_memory` 60%, `list_memories` 20%) and 20%
`add_memory` with texts unique to the run, so deduplication cannot hide a lost write. Between two
calls each client waits a random think time (exponential, mean `--think-ms`, 1 s by default): an
assistant calls a memory tool between turns of a conversation, not in a tight loop. With
`--think-ms 0` the clients call back to back, which measures saturation (throughput), not latency:
there p50 is the queue length over the throughput (Little's law), whatever the server does.
Afterwards the stored rows are compared with the acknowledged adds (`lost`, `duplicates`). The
per-client and per-user rate limits are raised for the run (RATE_LIMIT_MCP, RATE_LIMIT_MCP_USER),
since all simulated clients belong to one user. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from bench.environment import free_port, percentile, setup_django
from bench.mcp import QUERIES, TOPICS, WORDS

ROOT = Path(__file__).resolve().parent.parent
APP = "contextlayer.asgi:application"


def server_env(port: int, workers: int) -> dict[str, str]:
    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DJANGO_SETTINGS_MODULE="contextlayer.settings",
        CONTEXT_LAYER_HOME=str(settings.HOME),
        DATABASE_URL=settings.DATABASE_URL
        or f"postgres://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
        PORT=str(port),
        WEB_CONCURRENCY=str(workers),
        RATE_LIMIT_MCP="1000000/m",
        RATE_LIMIT_MCP_USER="1000000/m",
        LOG_LEVEL="WARNING",
    )
    return env


def start_gunicorn(
    port: int, workers: int, log: Path, config: str = "gunicorn.conf.py"
) -> subprocess.Popen[bytes]:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "-c", config, "-b", f"127.0.0.1:{port}", APP]
    return start_answering(command, server_env(port, workers), port, log)


def start_answering(
    command: list[str], env: dict[str, str], port: int, log: Path, seconds: float = 180
) -> subprocess.Popen[bytes]:
    """A server started in ROOT, once its /health answers (its output in `log`)."""
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                return proc
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"{command[1]} did not answer /health; its log:\n{log.read_text()[-3000:]}")


def stop_gunicorn(server: subprocess.Popen[bytes]) -> None:
    """gunicorn's graceful stop, then a kill if it has not ended within 30 s."""
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()


def _rss_mb(pid: int) -> float:
    """A process's resident set size in MiB (VmRSS), 0 if it has ended."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def server_rss(pid: int) -> dict[str, Any]:
    """The resident memory of a server process and of each of its children (the workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    master, workers = _rss_mb(pid), [_rss_mb(int(c)) for c in children]
    return {"master": master, "workers": workers, "total": round(master + sum(workers), 1)}


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.by_tool: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.acked: set[str] = set()
        self.requests = 0


async def _client(url: str, token: str, work: Any) -> Any:
    import httpx2
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client

    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode="legacy") as client,
    ):
        return await work(client)


async def timed(client: Any, tally: Tally, tool: str, args: dict[str, Any]) -> Any:
    started = time.perf_counter()
    tally.requests += 1
    try:
        result = await client.call_tool(tool, args)
    except Exception as exc:  # a transport failure is an error of the run, never fatal
        tally.errors.append(f"{tool}: {type(exc).__name__}: {exc}"[:200])
        return None
    elapsed_ms = (time.perf_counter() - started) * 1000
    tally.latencies.append(elapsed_ms)
    tally.by_tool.setdefault(tool, []).append(elapsed_ms)
    if result.is_error:
        tally.errors.append(f"{tool}: tool error")
        return None
    return result


async def _baseline(url: str, token: str, calls: int) -> list[float]:
    tally = Tally()

    async def work(client: Any) -> None:
        for i in range(calls):
            await timed(client, tally, "search_memory", {"query": QUERIES[i % len(QUERIES)]})

    await _client(url, token, work)
    return tally.latencies


async def _load(
    url: str, tokens: list[str], seconds: float, run_id: str, think_ms: float = 0
) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + seconds

    async def one(token: str, n: int) -> None:
        rng = random.Random(n)

        async def work(client: Any) -> None:
            i = 0
            while time.monotonic() < deadline:
                if think_ms:
                    pause = rng.expovariate(1000 / think_ms)
                    await asyncio.sleep(min(pause, max(0.0, deadline - time.monotonic())))
                    if time.monotonic() >= deadline:
                        break
                i += 1
                roll = rng.random()
                if roll < 0.6:
                    await timed(client, tally, "search_memory", {"query": rng.choice(QUERIES)})
                elif roll < 0.8:
                    await timed(client, tally, "list_memories", {"limit": 20})
                else:
                    text = f"load {run_id} client {n} write {i}: " + rng.choice(TOPICS).format(
                        rng.choice(WORDS)
                    )
                    result = await timed(client, tally, "add_memory", {"text": text})
                    if result is not None and result.structured_content["created"] == 1:
                        tally.acked.add(text)

        try:
            await _client(url, token, work)
        except Exception as exc:
            tally.errors.append(f"session: {type(exc).__name__}: {exc}"[:200])

    await asyncio.gather(*(one(token, n) for n, token in enumerate(tokens)))
    return tally


def seed_tenant(prefix: str, memories: int, clients: int) -> tuple[Any, list[str], str]:
    """A throwaway user with `memories` seeded rows and one client token per simulated client.

    Returns the user, the token secrets and the run id that marks this run's writes.
    """
    from accounts.actors import owner_actor
    from accounts.client_tokens import client_token_create
    from accounts.models import User
    from memories.selectors.grants import known_categories
    from memories.services.adding import NewMemory, memory_create_many

    run_id = uuid.uuid4().hex[:8]
    user = User.objects.create_user(f"{prefix}-{run_id}@bench.invalid")
    seed = [
        NewMemory(text=f"{topic.format(word)} (seed {n})")
        for n, (topic, word) in enumerate((t, w) for t in TOPICS for w in WORDS)
    ]
    memory_create_many(actor=owner_actor(user), items=seed[:memories])
    tokens = [
        client_token_create(
            actor=owner_actor(user),
            known=known_categories(user),
            name=f"client {n}",
            scopes=["read", "write"],
        ).secret
        for n in range(clients)
    ]
    return user, tokens, run_id


def run(args: argparse.Namespace) -> dict[str, Any]:
    from memories.models import Memory

    user, tokens, run_id = seed_tenant("load", args.memories, args.clients + 1)
    port = free_port()
    from django.conf import settings

    server = start_gunicorn(port, args.workers, Path(settings.HOME) / "gunicorn.log")
    url = f"http://127.0.0.1:{port}"
    try:
        print(f"gunicorn with {args.workers} uvicorn workers on {url}", file=sys.stderr)
        single = asyncio.run(_baseline(url, tokens[-1], 30))
        single_p50 = percentile(single[5:], 50)  # the first calls warm the workers up
        print(f"single client search p50 {single_p50:.1f} ms", file=sys.stderr)
        started = time.monotonic()
        tally = asyncio.run(_load(url, tokens[: args.clients], args.seconds, run_id, args.think_ms))
        elapsed = time.monotonic() - started
        rss = server_rss(server.pid)
    finally:
        stop_gunicorn(server)
    stored = list(
        Memory.objects.filter(owner=user, text__startswith=f"load {run_id} ").values_list(
            "text", flat=True
        )
    )
    stored_set = set(stored)
    p50 = percentile(tally.latencies, 50) if tally.latencies else 0.0
    p99 = percentile(tally.latencies, 99) if tally.latencies else 0.0
    return {
        "clients": args.clients,
        "seconds": args.seconds,
        "workers": args.workers,
        "think_ms": args.think_ms,
        "requests": tally.requests,
        "throughput_per_s": round(len(tally.latencies) / elapsed, 1),
        "errors": len(tally.errors),
        "error_samples": tally.errors[:5],
        "acked_adds": len(tally.acked),
        "stored_adds": len(stored),
        "lost": len(tally.acked - stored_set),
        "duplicates": len(stored) - len(stored_set),
        "stored_unacknowledged": len(stored_set - tally.acked),
        # Resident memory after the load (MiB): the gunicorn master, each worker (their search
        # caches within SEARCH_CACHE_MB), and this process (the clients).
        "server_rss_mb": rss,
        "bench_rss_mb": _rss_mb(os.getpid()),
        "single_client_p50_ms": round(single_p50, 2),
        "p50_ms": round(p50, 2),
        "p95_ms": round(percentile(tally.latencies, 95), 2) if tally.latencies else 0.0,
        "p99_ms": round(p99, 2),
        "p99_over_single_p50": round(p99 / single_p50, 2) if single_p50 else None,
        "by_tool": {
            tool: {
                "calls": len(ms),
                "p50_ms": round(percentile(ms, 50), 2),
                "p99_ms": round(percentile(ms, 99), 2),
            }
            for tool, ms in sorted(tally.by_tool.items())
        },
    }


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--clients", type=int, default=50, help="Concurrent MCP clients (50).")
    parser.add_argument("--seconds", type=float, default=60, help="Length of the load (60).")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2).")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=1000,
        help="Mean pause of each client between calls (1000; 0 = back to back, saturation).",
    )
    parser.add_argument("--memories", type=int, default=200, help="Seeded memories (200).")
    parser.add_argument("--database-url", help="An external PostgreSQL with pgvector.")


def _report(result: dict[str, Any]) -> None:
    print(
        f"{result['requests']} requests, {result['throughput_per_s']}/s, "
        f"{result['errors']} errors; p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms "
        f"({result['p99_over_single_p50']}x the single-client p50); "
        f"adds acknowledged {result['acked_adds']}, stored {result['stored_adds']}, "
        f"lost {result['lost']}, duplicates {result['duplicates']}; server RSS "
        f"{result['server_rss_mb']['total']} MiB (workers {result['server_rss_mb']['workers']})"
    )
    print(json.dumps(result))


def register(sub: Any) -> None:
    parser = sub.add_parser("load", help="Many MCP clients against gunicorn: latency, losses.")
    _arguments(parser)
    parser.set_defaults(run=lambda args: _report(run(args)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench load", description=__doc__)
    _arguments(parser)
    args = parser.parse_args(argv)
    setup_django(args.database_url)
    _report(run(args))
