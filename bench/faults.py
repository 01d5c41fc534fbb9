"""`python -m bench faults`: PostgreSQL stopped under load, then started again.

The production server (gunicorn, uvicorn workers; see `bench load`) on a temporary embedded
PostgreSQL, `--clients` real MCP SDK clients each holding one Streamable HTTP session and running
a mixed load (60% `search_memory`, 20% `list_memories`, 20% `add_memory` with texts unique to the
run). Once every client has had an answer, and `--before` seconds more, the cluster is stopped
with `pg_ctl stop -m <mode>`, kept down for `--outage` seconds and started again; the load goes on
for `--after` seconds.

Measured: every call during the outage and how it ended (tool error, HTTP 503, other HTTP error,
transport error, or hung: no answer within `--call-cap` seconds); for calls begun while the
database was down, how many failed within `--fast-ms` and the slowest (calls the stop cut off in
flight are counted apart: their time includes the work done before it); the
gunicorn worker PIDs before and after (a crashed or timed-out worker is replaced with a new PID;
`--max-requests 0` so recycling cannot be mistaken for a crash), errors logged by the server, the
time from the restart to the first successful call (no server restart in between), whether every
client's own session worked again, and the acknowledged adds against the stored rows: `lost` must
be 0; an add that failed may or may not have been committed (`unacknowledged_stored`, not a loss).
The whole run is bounded by `--deadline` seconds. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.environment import free_port, percentile, setup_django
from bench.load import Tally, seed_tenant, start_gunicorn, stop_gunicorn, timed
from bench.mcp import QUERIES, TOPICS, WORDS

FAILED = ("tool_error", "http_503", "http_error", "transport", "hung")


@dataclass
class Call:
    client: int
    tool: str
    started: float  # time.monotonic()
    ms: float
    outcome: str  # "ok" or one of FAILED
    status: int | None  # the last HTTP status this client saw for the call


@dataclass
class Run:
    calls: list[Call] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)  # acknowledged adds
    failed_adds: set[str] = field(default_factory=set)
    sessions_opened: int = 0
    session_errors: list[str] = field(default_factory=list)
    samples: dict[str, str] = field(default_factory=dict)  # one message per outcome
    stop_begin: float = 0.0
    stop_done: float = 0.0
    start_begin: float = 0.0
    start_done: float = 0.0


def _workers(master: int) -> list[int]:
    """gunicorn's worker PIDs: the master's children."""
    path = Path(f"/proc/{master}/task/{master}/children")
    return sorted(int(p) for p in path.read_text().split()) if path.exists() else []


async def _session(url: str, token: str, statuses: list[int], work: Any) -> Any:
    """`bench.load._client` with every HTTP status recorded, to tell a 503 from a 500."""
    import httpx2
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client

    async def seen(response: Any) -> None:
        statuses.append(response.status_code)

    async with (
        httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
            event_hooks={"response": [seen]},
        ) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode="legacy") as client,
    ):
        return await work(client)


async def _observed(
    run: Run, n: int, client: Any, statuses: list[int], tool: str, args: dict[str, Any], cap: float
) -> Any:
    """One call through `bench.load.timed`, classified; None unless it succeeded."""
    one = Tally()
    statuses.clear()
    keeping = _Keeping(client)
    started = time.monotonic()
    try:
        result = await asyncio.wait_for(timed(keeping, one, tool, args), cap)
    except TimeoutError:
        result, outcome = None, "hung"
        one.errors.append(f"{tool}: no answer within {cap} s")
    else:
        status = statuses[-1] if statuses else None
        if result is not None:
            outcome = "ok"
        elif keeping.last is not None and keeping.last.is_error:
            outcome = "tool_error"
            text = " ".join(getattr(b, "text", "") for b in keeping.last.content)
            one.errors[0] = f"{tool}: {text}"[:200]
        elif status == 503:
            outcome = "http_503"
        elif status is not None and status >= 400:
            outcome = "http_error"
        else:
            outcome = "transport"
    run.tally.requests += 1
    ms = (time.monotonic() - started) * 1000
    run.calls.append(Call(n, tool, started, ms, outcome, statuses[-1] if statuses else None))
    if outcome != "ok" and one.errors:
        run.samples.setdefault(outcome, one.errors[0])
    if outcome == "hung":
        raise TimeoutError  # the session may be wedged: open a new one
    return result


class _Keeping:
    """A client that keeps its last result: `timed` drops a tool error's text, which is what a
    model would read (and must not be a raw database message)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.last: Any = None

    async def call_tool(self, tool: str, args: dict[str, Any]) -> Any:
        self.last = None
        self.last = await self.client.call_tool(tool, args)
        return self.last


async def _load(
    url: str, tokens: list[str], run: Run, run_id: str, stop: asyncio.Event, cap: float
) -> None:
    async def one(token: str, n: int) -> None:
        rng = random.Random(n)
        statuses: list[int] = []
        i = 0

        async def work(client: Any) -> None:
            nonlocal i
            while not stop.is_set():
                i += 1
                roll = rng.random()
                if roll < 0.6:
                    args = {"query": rng.choice(QUERIES)}
                    await _observed(run, n, client, statuses, "search_memory", args, cap)
                elif roll < 0.8:
                    await _observed(run, n, client, statuses, "list_memories", {"limit": 20}, cap)
                else:
                    text = f"faults {run_id} client {n} write {i}: " + rng.choice(TOPICS).format(
                        rng.choice(WORDS)
                    )
                    args = {"text": text}
                    result = await _observed(run, n, client, statuses, "add_memory", args, cap)
                    if result is not None and result.structured_content["created"] == 1:
                        run.tally.acked.add(text)
                    elif result is None:
                        run.failed_adds.add(text)
                # A failing database answers at once; don't spin on it.
                if run.calls[-1].outcome != "ok":
                    await asyncio.sleep(0.05)

        while not stop.is_set():  # a lost session is reopened, and counted
            run.sessions_opened += 1
            try:
                await _session(url, token, statuses, work)
            except Exception as exc:
                run.session_errors.append(f"client {n}: {type(exc).__name__}: {exc}"[:200])
                await asyncio.sleep(0.2)

    await asyncio.gather(*(one(token, n) for n, token in enumerate(tokens)))


async def _drill(
    url: str, tokens: list[str], run: Run, run_id: str, args: argparse.Namespace, pgdata: Path
) -> None:
    from kernel.embedded_db import start_server, stop_server

    stop = asyncio.Event()
    load = asyncio.create_task(_load(url, tokens, run, run_id, stop, args.call_cap))
    socket_dir = None
    try:
        # Steady load first: every client has had an answer (a worker's first calls are slow).
        warm_until = time.monotonic() + args.call_cap
        while len({c.client for c in run.calls if c.outcome == "ok"}) < len(tokens):
            if time.monotonic() > warm_until:
                raise SystemExit("bench faults: the clients got no answers before the drill")
            await asyncio.sleep(0.1)
        await asyncio.sleep(args.before)
        run.stop_begin = time.monotonic()
        socket_dir = await asyncio.to_thread(stop_server, pgdata, mode=args.mode)
        run.stop_done = time.monotonic()
        print(
            f"PostgreSQL stopped ({args.mode}) in {run.stop_done - run.stop_begin:.2f} s",
            file=sys.stderr,
        )
        await asyncio.sleep(args.outage)
    finally:
        if socket_dir is not None:
            run.start_begin = time.monotonic()
            await asyncio.to_thread(start_server, pgdata, socket_dir)
            run.start_done = time.monotonic()
            print(
                f"PostgreSQL started in {run.start_done - run.start_begin:.2f} s", file=sys.stderr
            )
    try:
        await asyncio.sleep(args.after)
    finally:
        stop.set()
        # In-flight calls finish or hit the cap; nothing may keep the run alive beyond that.
        await asyncio.wait_for(load, args.call_cap + 10)


def _log_errors(log: Path) -> list[str]:
    """Lines the server logged at error level or above (an exception escaping the app, a worker
    timeout or crash); a database-down warning is expected and not counted."""
    found = []
    for text in log.read_text(errors="replace").splitlines():
        try:
            level = json.loads(text).get("level", "")
        except ValueError:
            level = "error" if "Traceback" in text else ""
        if level in ("error", "critical"):
            found.append(text[:300])
    return found


def run(args: argparse.Namespace) -> dict[str, Any]:
    from django.conf import settings
    from django.db import connections

    from memories.models import Memory

    user, tokens, run_id = seed_tenant("faults", args.memories, args.clients)
    connections.close_all()  # the bench's own connection would be cut by the stop anyway

    port = free_port()
    log = Path(settings.HOME) / "gunicorn.log"
    # gunicorn recycles a worker after max_requests; off, so a new PID can only mean a crash.
    os.environ["GUNICORN_CMD_ARGS"] = "--max-requests 0"
    server = start_gunicorn(port, args.workers, log)
    url = f"http://127.0.0.1:{port}"
    run = Run()
    try:
        before = _workers(server.pid)
        print(f"gunicorn workers {before} on {url}", file=sys.stderr)
        started = time.monotonic()
        asyncio.run(_drill(url, tokens, run, run_id, args, Path(settings.EMBEDDED_PGDATA)))
        elapsed = time.monotonic() - started
        after = _workers(server.pid)
        master_alive = server.poll() is None
    finally:
        stop_gunicorn(server)
    connections.close_all()
    stored = list(
        Memory.objects.filter(owner=user, text__startswith=f"faults {run_id} ").values_list(
            "text", flat=True
        )
    )
    stored_set = set(stored)
    return _result(run, args, before, after, master_alive, stored, stored_set, elapsed, log)


def _end(call: Call) -> float:
    return call.started + call.ms / 1000


def _result(
    run: Run,
    args: argparse.Namespace,
    before: list[int],
    after: list[int],
    master_alive: bool,
    stored: list[str],
    stored_set: set[str],
    elapsed: float,
    log: Path,
) -> dict[str, Any]:
    # A call is in the outage if any of it overlaps the stop..restarted window.
    outage = [c for c in run.calls if c.started < run.start_done and _end(c) > run.stop_begin]
    earlier = [c for c in run.calls if _end(c) <= run.stop_begin]
    # Calls begun while PostgreSQL was down must fail fast; calls it cut off in flight (begun
    # before the stop completed) also carry the work they had done, so they are apart.
    down = [c for c in outage if run.stop_done <= c.started < run.start_begin]
    failed = [c for c in down if c.outcome != "ok"]
    cut = [c for c in outage if c.started < run.stop_done and c.outcome != "ok"]
    outcomes = {o: sum(1 for c in outage if c.outcome == o) for o in ("ok", *FAILED)}
    later = [c for c in run.calls if c.started >= run.start_done]
    first_ok = min((_end(c) for c in later if c.outcome == "ok"), default=None)
    recovered = {c.client for c in later if c.outcome == "ok"}
    after_failed = [c for c in later if c.outcome != "ok"]
    errors = _log_errors(log)
    return {
        "clients": args.clients,
        "workers": args.workers,
        "stop_mode": args.mode,
        "seconds": round(elapsed, 1),
        "outage_s": round(run.start_done - run.stop_begin, 2),
        "requests": run.tally.requests,
        "calls_before": len(earlier),
        "errors_before": sum(1 for c in earlier if c.outcome != "ok"),
        "calls_during_outage": len(outage),
        "outage_outcomes": outcomes,
        "calls_while_down": len(down),
        "failed_while_down": len(failed),
        "failed_fast": sum(1 for c in failed if c.ms < args.fast_ms),
        "p50_failed_ms": round(percentile([c.ms for c in failed], 50), 1) if failed else 0.0,
        "max_failed_ms": round(max((c.ms for c in failed), default=0.0), 1),
        "cut_in_flight": len(cut),
        "max_cut_ms": round(max((c.ms for c in cut), default=0.0), 1),
        "hung": sum(1 for c in run.calls if c.outcome == "hung"),
        "workers_before": before,
        "workers_after": after,
        "worker_restarts": len(set(before) - set(after)) + (0 if master_alive else 1),
        "server_errors_logged": len(errors),
        "server_error_samples": errors[:3],
        "recovery_s": round(first_ok - run.start_done, 2) if first_ok is not None else None,
        "clients_recovered": len(recovered),
        "calls_after_restart": len(later),
        "errors_after_restart": len(after_failed),
        "sessions_opened": run.sessions_opened,
        "session_errors": len(run.session_errors),
        "error_samples": run.samples,
        "acked_adds": len(run.tally.acked),
        "stored_adds": len(stored),
        "lost": len(run.tally.acked - stored_set),
        "duplicates": len(stored) - len(stored_set),
        "unacknowledged_stored": len(run.failed_adds & stored_set),
    }


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--clients", type=int, default=10, help="Concurrent MCP clients (10).")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2).")
    parser.add_argument("--before", type=float, default=5, help="Load before the stop, s (5).")
    parser.add_argument("--outage", type=float, default=10, help="PostgreSQL down, s (10).")
    parser.add_argument("--after", type=float, default=10, help="Load after the restart, s (10).")
    parser.add_argument(
        "--mode", choices=("fast", "immediate"), default="fast", help="pg_ctl stop mode (fast)."
    )
    parser.add_argument("--call-cap", type=float, default=20, help="A call longer is hung (20).")
    parser.add_argument("--fast-ms", type=float, default=2000, help="A fast failure, ms (2000).")
    parser.add_argument("--memories", type=int, default=50, help="Seeded memories (50).")
    parser.add_argument("--deadline", type=int, default=120, help="Hard bound on the run, s (120).")


def _report(result: dict[str, Any]) -> None:
    o = result["outage_outcomes"]
    print(
        f"outage {result['outage_s']} s: {result['calls_during_outage']} calls "
        f"(ok {o['ok']}, tool error {o['tool_error']}, 503 {o['http_503']}, "
        f"other HTTP {o['http_error']}, transport {o['transport']}, hung {o['hung']}); "
        f"begun while down {result['calls_while_down']}, failed fast "
        f"{result['failed_fast']}/{result['failed_while_down']}, p50 {result['p50_failed_ms']} ms, "
        f"slowest {result['max_failed_ms']} ms; cut in flight {result['cut_in_flight']} "
        f"(slowest {result['max_cut_ms']} ms); workers {result['workers_before']} -> "
        f"{result['workers_after']}; first success {result['recovery_s']} s after the restart, "
        f"{result['clients_recovered']}/{result['clients']} clients recovered; adds acknowledged "
        f"{result['acked_adds']}, lost {result['lost']}, duplicates {result['duplicates']}, "
        f"failed but stored {result['unacknowledged_stored']}"
    )
    print(json.dumps(result))


def _bounded(args: argparse.Namespace) -> None:
    """Run within `--deadline` seconds: past it the run is aborted (cleanup still runs)."""

    def expired(signum: int, frame: Any) -> None:
        raise SystemExit(f"bench faults: past its {args.deadline} s deadline, aborted")

    signal.signal(signal.SIGALRM, expired)
    signal.alarm(args.deadline)
    try:
        _report(run(args))
    finally:
        signal.alarm(0)


def register(sub: Any) -> None:
    parser = sub.add_parser("faults", help="PostgreSQL stopped under MCP load: fail fast, recover.")
    _arguments(parser)
    parser.set_defaults(run=_bounded, database_url=None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench faults", description=__doc__)
    _arguments(parser)
    args = parser.parse_args(argv)
    setup_django(None)
    _bounded(args)
