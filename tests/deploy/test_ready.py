"""/ready answers 503 while PostgreSQL is down and 200 again once it is back, without a restart.

Uses its own `serve` with its own embedded cluster, so stopping that PostgreSQL never touches the
test database.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kernel.embedded_db import start_server, stop_server
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=15) as response:  # noqa: S310 - local http
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.timeout(240)
def test_ready_is_503_while_the_database_is_stopped_and_200_after_it_restarts() -> None:
    home = Path(tempfile.mkdtemp(prefix="contextlayer-ready-"))
    pgdata = home / "pgdata"
    port = free_port()
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(CONTEXT_LAYER_HOME=str(home), DJANGO_SETTINGS_MODULE="contextlayer.settings")
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--no-worker"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if _status(f"{base}/health") == 200:
                    break
            except OSError:
                time.sleep(0.5)
        assert _status(f"{base}/ready") == 200

        socket_dir = stop_server(pgdata, mode="fast")
        assert _status(f"{base}/ready") == 503
        assert _status(f"{base}/health") == 200, "liveness does not depend on the database"

        start_server(pgdata, socket_dir)
        assert _status(f"{base}/ready") == 200
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
