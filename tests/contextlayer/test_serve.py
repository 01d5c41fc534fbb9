"""`manage.py serve` on the embedded default: starts, answers /health, stops cleanly on Ctrl-C."""

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from tests.servers import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _postmaster_running(pgdata: Path) -> bool:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return False
    pid = int(pid_file.read_text().split()[0])
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.timeout(180)
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_serve_starts_embedded_database_answers_health_and_stops_cleanly(stop: int) -> None:
    home = Path(tempfile.mkdtemp(prefix="contextlayer-serve-"))
    port = free_port()
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(CONTEXT_LAYER_HOME=str(home), DJANGO_SETTINGS_MODULE="contextlayer.settings")
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        body = ""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                    body = r.read().decode()
                    break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.5)
        assert body == "ok", "serve did not answer /health"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=5) as r:
            assert r.read().decode() == "ready"
        assert _postmaster_running(home / "pgdata")
    finally:
        proc.send_signal(stop)
        proc.wait(timeout=60)
    deadline = time.monotonic() + 20
    while _postmaster_running(home / "pgdata") and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not _postmaster_running(home / "pgdata"), "the embedded database kept running"


@pytest.mark.django_db
def test_a_warm_start_skips_migrate_only_while_no_migration_is_pending() -> None:
    from django.db import connection

    from contextlayer.management.commands.serve import pending_migrations

    assert not pending_migrations()
    # As if the newest access-log migration had never run (rolled back with the test).
    with connection.cursor() as cur:
        cur.execute(
            "DELETE FROM django_migrations WHERE app = 'activity' AND name = "
            "(SELECT max(name) FROM django_migrations WHERE app = 'activity')"
        )
    assert pending_migrations()
