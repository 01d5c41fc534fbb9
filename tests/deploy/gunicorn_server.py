"""gunicorn with gunicorn.conf.py (what the image runs) on the test database, its log captured.

The `gunicorn` fixture (tests/deploy/conftest.py) runs one for the session: its client, this
test process at 127.0.0.1, is deliberately not a trusted proxy, and client registrations are
limited per hour (the shipped rate, 60, over a window a slow machine cannot outrun)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx2
from django.db import connection

from tests.servers import free_port, subprocess_database_url

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Gunicorn:
    url: str
    log: Path
    pid: int  # the master's: its children are the workers

    def workers(self) -> list[int]:
        children = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        return [int(pid) for pid in children]

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def mcp_search(url: str, token: str, n: int = 1, query: str = "tea") -> httpx2.Response:
    """One `search_memory` call as a bare JSON-RPC POST to the server's `/mcp`."""
    body = {
        "jsonrpc": "2.0",
        "id": n,
        "method": "tools/call",
        "params": {"name": "search_memory", "arguments": {"query": query}},
    }
    headers = {**MCP_HEADERS, "authorization": f"Bearer {token}"}
    return httpx2.post(f"{url}/mcp", content=json.dumps(body), headers=headers, timeout=60)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (gunicorn's graceful stop), then SIGKILL if it takes more than 30 s."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def gunicorn_on_test_database(**env: str) -> Iterator[Gunicorn]:
    """One worker (unless `env` sets WEB_CONCURRENCY), development settings, the test database
    (the test must use transactional_db so its rows are committed), allauth's shared cache table
    created first."""
    work = Path(tempfile.mkdtemp(prefix="contextlayer-gunicorn-"))
    port = free_port()
    environ = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    environ.update(
        DATABASE_URL=subprocess_database_url(),
        DJANGO_SETTINGS_MODULE="contextlayer.settings",
        CONTEXT_LAYER_HOME=str(work / "home"),
        PORT=str(port),
        WEB_CONCURRENCY="1",
    )
    environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "createcachetable"],
        cwd=ROOT,
        env=environ,
        check=True,
        capture_output=True,
    )
    log = work / "gunicorn.log"
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [gunicorn, "--config", "gunicorn.conf.py", "contextlayer.asgi:application"],
            cwd=ROOT,
            env=environ,
            stdout=sink,
            stderr=sink,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, "gunicorn did not start"
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2):  # noqa: S310 - local
                    break
            except OSError:
                time.sleep(0.3)
        yield Gunicorn(url=url, log=log, pid=proc.pid)
    finally:
        stop(proc)
        with connection.cursor() as cur:  # the worker's connections, so the database can go
            cur.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
