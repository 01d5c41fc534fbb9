"""`python -m bench stdio`: how soon a newly launched stdio MCP server answers its first search.

A client such as Claude Desktop launches `manage.py mcp --user EMAIL --app NAME` itself, at its
own start and after every crash, and the person's first question pays whatever the process still
has to load. Each run launches the command as a client does (this interpreter, the repository,
the data folder of this run's embedded database, which the process attaches to) and speaks MCP
over its pipes, timing:

- `start`: launch to the answer of `initialize` (the process is up and speaks MCP): the floor a
  new process cannot go below;
- `first`: launch to the answer of the first `search_memory`, sent at once after the handshake
  (`--pause 0`, the worst case) or `--pause` seconds after it (a person asking a moment later;
  the pause is left out of `first`), and `first_call`, that call alone;
- `warm`: the same process's next search, a different query (everything loaded).

The figure is first / (warm + start): at most 2 is the aim (issue 39). A throwaway user holds
`--memories` memories (a snapshot is written above 200, as in production); the last line is one
JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import IO, Any

from bench.environment import bench_user, emit, percentile
from bench.load import ROOT

QUERIES = ["what does the user drink in the morning", "which city", "allergies", "music taste"]


def _send(pipe: IO[bytes], message: dict[str, Any]) -> None:
    pipe.write(json.dumps(message).encode() + b"\n")
    pipe.flush()


def _answer(pipe: IO[bytes], request_id: int) -> dict[str, Any]:
    while True:
        line = pipe.readline()
        if not line:
            raise SystemExit("the stdio server closed its output")
        message = json.loads(line)
        if message.get("id") == request_id:
            return dict(message)


def _search(n: int, query: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": n,
        "method": "tools/call",
        "params": {"name": "search_memory", "arguments": {"query": query}},
    }


def _env() -> dict[str, str]:
    """As a client's configuration launches it: the data folder, whose embedded database the
    process attaches to (or `--database-url`)."""
    from django.conf import settings

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "EMBEDDED_DB_CLEANUP")}
    env.update(
        CONTEXT_LAYER_HOME=str(settings.HOME),
        DJANGO_SETTINGS_MODULE="contextlayer.settings",
        LOG_LEVEL="WARNING",
    )
    if settings.DATABASE_URL:
        env["DATABASE_URL"] = settings.DATABASE_URL
    return env


def _launch(email: str, pause: float, queries: list[str]) -> dict[str, float]:
    command = [sys.executable, "manage.py", "mcp", "--user", email, "--app", "bench stdio"]
    started = time.perf_counter()
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env=_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"},
            },
        }
        _send(proc.stdin, init)
        _answer(proc.stdout, 0)
        start = time.perf_counter() - started
        _send(proc.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        time.sleep(pause)
        asked = time.perf_counter()
        _send(proc.stdin, _search(1, queries[0]))
        first = _answer(proc.stdout, 1)
        answered = time.perf_counter()
        assert not first["result"].get("isError"), first
        warm = []
        for n, query in enumerate(queries[1:], start=2):
            t = time.perf_counter()
            _send(proc.stdin, _search(n, query))
            _answer(proc.stdout, n)
            warm.append(time.perf_counter() - t)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    return {
        "start_s": start,
        "first_s": answered - started - pause,  # launch to the first answer, but the pause
        "first_call_s": answered - asked,  # from the question to its answer
        "warm_s": min(warm),
    }


def run(args: argparse.Namespace) -> None:
    from accounts.actors import owner_actor
    from bench.texts import memory_texts
    from memories.services.adding import NewMemory, memory_create_many

    user = bench_user("stdio")
    actor = owner_actor(user)
    texts = memory_texts(args.memories)
    for at in range(0, len(texts), 200):
        memory_create_many(
            actor=actor, items=[NewMemory(text=t) for t in texts[at : at + 200]], max_items=200
        )
    _launch(user.email, 0.0, QUERIES)  # the app exists, the snapshot and its file are written
    runs = [_launch(user.email, args.pause, QUERIES) for _ in range(args.runs)]
    p50 = {k: percentile([r[k] for r in runs], 50) for k in runs[0]}
    ratio = [r["first_s"] / (r["warm_s"] + r["start_s"]) for r in runs]
    for r in runs:
        print(
            f"start {r['start_s'] * 1000:7.0f} ms   first answer {r['first_s'] * 1000:7.0f} ms "
            f"(its call {r['first_call_s'] * 1000:6.0f} ms)   warm {r['warm_s'] * 1000:5.1f} ms"
        )
    print(f"first / (warm + start), p50: {percentile(ratio, 50):.2f} (aim: at most 2)")
    emit(
        {
            "bench": "stdio",
            "memories": args.memories,
            "pause_s": args.pause,
            "runs": [{k: round(v, 4) for k, v in r.items()} for r in runs],
            "p50": {k: round(v, 4) for k, v in p50.items()},
            "first_over_warm_plus_start_p50": round(percentile(ratio, 50), 2),
            "first_over_warm_plus_start_max": round(max(ratio), 2),
            "aim": "first <= 2 x (warm + start)",
            "loadavg_1m": round(os.getloadavg()[0], 2),
        }
    )


def register(sub: Any) -> None:
    parser = sub.add_parser("stdio", help="A stdio server's launch to its first search answer.")
    parser.add_argument("--runs", type=int, default=5, help="Launches timed (5).")
    parser.add_argument("--memories", type=int, default=1000, help="The user's memories (1000).")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="Seconds between the handshake and the first search (0: at once, the worst case).",
    )
    parser.add_argument("--database-url", default=None, help="This PostgreSQL instead.")
    parser.set_defaults(run=run)
