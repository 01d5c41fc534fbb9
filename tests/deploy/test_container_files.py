"""Build-free checks of the Dockerfile and docker-compose.yml (Docker itself cannot run here)."""

from __future__ import annotations

import importlib
import logging
import logging.config
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

from contextlayer import healthcheck
from kernel.logging import JsonFormatter

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def test_hadolint_passes_on_the_dockerfile() -> None:
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    result = subprocess.run(
        [hadolint, "Dockerfile"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_is_multi_stage_non_root_and_bakes_static_files_and_model(
    dockerfile: str,
) -> None:
    stages = re.findall(r"^FROM\s+\S+\s+AS\s+(\w+)", dockerfile, re.MULTILINE)
    assert stages == ["build", "runtime"]
    runtime = dockerfile.split("AS runtime", 1)[1]
    users = re.findall(r"^USER\s+(\S+)", runtime, re.MULTILINE)
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert "collectstatic --noinput" in dockerfile
    assert "prepare()" in dockerfile
    assert re.search(r"^HEALTHCHECK .*\n?.*contextlayer\.healthcheck", runtime, re.MULTILINE)
    assert '"gunicorn", "--config", "gunicorn.conf.py", "contextlayer.asgi:application"' in runtime


def test_every_name_the_image_build_imports_exists(dockerfile: str) -> None:
    # The build runs Python inline (prepare the models, check USE's files, warm up); a name moved
    # to another module broke the build unseen (`warm_up` left memories/classify.py for
    # memories/warm.py), since Docker itself cannot run here.
    imports = re.findall(r"from ([\w.]+) import (\w+)", dockerfile)
    assert ("memories.warm", "warm_up") in imports
    for module, name in imports:
        assert hasattr(importlib.import_module(module), name), f"{module}.{name}"


def test_gunicorn_uses_uvicorn_workers_that_are_installed() -> None:
    config: dict[str, Any] = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), config)  # noqa: S102 - our own config file
    assert config["worker_class"] == "uvicorn_worker.UvicornWorker"
    module, _, cls = config["worker_class"].rpartition(".")
    assert hasattr(importlib.import_module(module), cls)

    # gunicorn applies its logging defaults updated with ours; that must configure cleanly.
    from gunicorn.glogging import CONFIG_DEFAULTS

    merged = {**CONFIG_DEFAULTS, **config["logconfig_dict"]}
    before = logging.getLogger().handlers[:]
    try:
        logging.config.dictConfig(merged)
        assert isinstance(logging.getLogger("gunicorn.access").handlers[0].formatter, JsonFormatter)
    finally:
        logging.getLogger().handlers[:] = before


def test_compose_runs_app_worker_and_pgvector_with_a_named_volume(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"db", "migrate", "web", "worker", "ollama"} <= set(services)
    db = services["db"]
    assert db["image"].startswith("pgvector/pgvector:")
    volume = db["volumes"][0].split(":")[0]
    assert volume in compose["volumes"], "the database lives in a named volume"
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    for name in ("web", "worker", "migrate"):
        env = services[name]["environment"]
        assert env["CONTEXT_LAYER_ENV"] == "production"
        assert "@db:5432/" in env["DATABASE_URL"]
        assert services[name]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["worker"]["command"] == ["python", "manage.py", "db_worker"]
    # Someone enqueues the hourly clean-up (the trash's purge among it) after the migrations.
    assert services["schedule"]["command"] == ["python", "manage.py", "cleanup", "--schedule"]
    assert services["schedule"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully"
    )
    assert services["web"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully"
    )
    assert "contextlayer.healthcheck" in services["web"]["healthcheck"]["test"]
    assert services["ollama"]["profiles"] == ["ollama"]
    assert "profiles" not in services["web"]


def test_dockerignore_keeps_secrets_and_the_virtualenv_out_of_the_image() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".env", ".venv", ".git"} <= set(ignored)
    # Compose reads the OAuth signing key from ./oidc_private_key.pem; `COPY . .` must not take it.
    assert "*.pem" in ignored


class _Health(BaseHTTPRequestHandler):
    seen: dict[str, str] = {}

    def do_GET(self) -> None:
        type(self).seen = {"path": self.path, **dict(self.headers)}
        self.send_response(200 if self.path == "/health" else 404)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def health_server() -> Iterator[int]:
    server = HTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()


def test_the_container_probe_asks_for_health_as_the_public_host_over_https(
    health_server: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PORT", str(health_server))
    monkeypatch.setenv("PUBLIC_URL", "https://memory.example.com")
    assert healthcheck.main() == 0
    assert _Health.seen["path"] == "/health"
    assert _Health.seen["Host"] == "memory.example.com"
    assert _Health.seen["X-Forwarded-Proto"] == "https"


def test_the_container_probe_fails_when_nothing_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "1")
    assert healthcheck.main() == 1
