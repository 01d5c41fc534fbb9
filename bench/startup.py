"""`python -m bench startup`: how long `manage.py serve` takes to answer, and a command to run.

In a data folder of its own (`--home`, else a temporary one): `serve` is started once on the
fresh folder (the embedded database created, migrations applied, the model folder assembled),
stopped, then started `--runs` times again (warm). Each start is timed from the command to
`/health` answering and to the first `search_memory` answered over MCP (the model loaded), with
the serve process's CPU seconds by then (user + system, from /proc: what a busy machine changes
least). Then, with `serve` running, `manage.py client_token list` is run `--runs` times (wall and
CPU seconds of the command). Every process is started as a person would, from the repository
with this interpreter; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.environment import emit, free_port, percentile
from bench.load import ROOT

TICK = os.sysconf("SC_CLK_TCK")


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):  # noqa: S310 - our own server
            return True
    except OSError:
        return False


def _search(port: int, token: str) -> bool:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "search_memory", "arguments": {"query": "coffee"}},
    }
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp",
        data=json.dumps(body).encode(),
        headers={
            "authorization": f"Bearer {token}",
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - ours
            return bool(answer.status == 200)
    except OSError:
        return False


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    env.update(
        CONTEXT_LAYER_HOME=str(home),
        DJANGO_SETTINGS_MODULE="contextlayer.settings",
        LOG_LEVEL="WARNING",
    )
    return env


REPO = [ROOT]  # --repo: another checkout's manage.py (with this interpreter), to compare


def _manage(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(
        command, cwd=REPO[0], env=_env(home), capture_output=True, text=True, check=True
    )


def _start(home: Path, token: str | None) -> tuple[subprocess.Popen[bytes], dict[str, float]]:
    port = free_port()
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=REPO[0],
        env=_env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    timing: dict[str, float] = {}
    deadline = started + 600
    while not _answers(f"http://127.0.0.1:{port}/health"):
        if proc.poll() is not None or time.perf_counter() > deadline:
            raise SystemExit("serve did not start")
        time.sleep(0.02)
    timing["health_s"] = round(time.perf_counter() - started, 2)
    timing["cpu_at_health_s"] = round(_cpu(proc.pid), 2)
    if token is not None:
        while not _search(port, token):
            if proc.poll() is not None or time.perf_counter() > deadline:
                raise SystemExit("serve did not answer search_memory")
            time.sleep(0.02)
        timing["first_search_s"] = round(time.perf_counter() - started, 2)
        timing["cpu_at_first_search_s"] = round(_cpu(proc.pid), 2)
    return proc, timing


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()


def _command(home: Path, email: str) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    _manage(home, "client_token", "list", "--user", email)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2)}


def run(args: argparse.Namespace) -> None:
    REPO[0] = Path(args.repo or ROOT)
    home = Path(args.home or tempfile.mkdtemp(prefix="contextlayer-bench-startup-"))
    email = f"startup-{secrets.token_hex(4)}@example.invalid"
    proc, fresh = _start(home, None)
    _stop(proc)
    _manage(
        home,
        "shell",
        "-c",
        f"from accounts.models import User; User.objects.create_user({email!r})",
    )
    created = _manage(home, "client_token", "create", "--user", email, "--name", "startup")
    token = next(w for w in created.stdout.split() if w.startswith("clt_") and len(w) > 20)
    warm = []
    for _ in range(args.runs):
        proc, timing = _start(home, token)
        _stop(proc)
        warm.append(timing)
    proc, _ = _start(home, None)
    try:
        commands = [_command(home, email) for _ in range(args.runs)]
    finally:
        _stop(proc)
    result: dict[str, Any] = {
        "bench": "startup",
        "fresh_folder": fresh,
        "warm": warm,
        "warm_p50": {k: round(percentile([w[k] for w in warm], 50), 2) for k in warm[0]},
        "client_token_list_with_serve_running": commands,
        "client_token_list_p50": {
            k: round(percentile([c[k] for c in commands], 50), 2) for k in commands[0]
        },
        "repo": str(REPO[0]),
        "loadavg_1m": round(os.getloadavg()[0], 2),
        "aim": "serve warm ready <= 3 s; client_token list <= 2 s with serve running",
    }
    emit(result)


def register(sub: Any) -> None:
    parser = sub.add_parser("startup", help="serve's start-up, and a command, timed.")
    parser.add_argument("--runs", type=int, default=5, help="Warm starts and commands (5).")
    parser.add_argument("--home", default=None, help="The data folder (default: a new one).")
    parser.add_argument(
        "--repo", default=None, help="Time another checkout's manage.py (e.g. main, to compare)."
    )
    parser.set_defaults(run=run, standalone=True)
