"""The production web command (gunicorn + uvicorn workers, hashed static files) really serves.

Runs what the image runs, minus Docker: collectstatic with production settings, then gunicorn with
gunicorn.conf.py, probed by the container health check.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from tests.deploy.gunicorn_server import stop
from tests.deploy.signing_key import OIDC_PRIVATE_KEY
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(180)
def test_gunicorn_serves_health_and_the_api_docs_with_local_static_files() -> None:
    work = Path(tempfile.mkdtemp(prefix="contextlayer-gunicorn-"))
    port = free_port()
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        CONTEXT_LAYER_HOME=str(work / "home"),
        STATIC_ROOT=str(work / "static"),
        DJANGO_SETTINGS_MODULE="contextlayer.settings",
        CONTEXT_LAYER_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(64),
        OIDC_PRIVATE_KEY=OIDC_PRIVATE_KEY,
        PUBLIC_URL="https://memory.example.com",
        PORT=str(port),
        WEB_CONCURRENCY="1",
    )
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    proc = subprocess.Popen(
        [
            str(bin_dir / "gunicorn"),
            "--config",
            "gunicorn.conf.py",
            "contextlayer.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        probe = [sys.executable, "-m", "contextlayer.healthcheck"]
        deadline = time.monotonic() + 90
        healthy = False
        while time.monotonic() < deadline and proc.poll() is None:
            if subprocess.run(probe, cwd=ROOT, env=env, check=False).returncode == 0:
                healthy = True
                break
            time.sleep(0.5)
        assert healthy, "gunicorn did not become healthy"

        headers = {"Host": "memory.example.com", "X-Forwarded-Proto": "https"}

        def get(path: str) -> tuple[int, str]:
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
            with urllib.request.urlopen(request, timeout=15) as response:  # noqa: S310 - local
                return int(response.status), response.read().decode(errors="replace")

        status, page = get("/api/v1/docs")
        assert status == 200
        bundle = re.search(r'src="(/static/ninja/swagger-ui-bundle\.[0-9a-f]+\.js)"', page)
        assert bundle, "Swagger UI comes from hashed local static files"
        assert get(bundle.group(1))[0] == 200
    finally:
        stop(proc)
