"""Production settings come from the environment alone, and `check --deploy` is clean with them."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.deploy.signing_key import OIDC_PRIVATE_KEY

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "PUBLIC_URL")
    }
    base.update(
        CONTEXT_LAYER_HOME=tempfile.mkdtemp(prefix="contextlayer-deploy-"),
        DJANGO_SETTINGS_MODULE="contextlayer.settings",
        CONTEXT_LAYER_ENV="production",
        OIDC_PRIVATE_KEY=OIDC_PRIVATE_KEY,
        **env,
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_is_clean_with_production_environment() -> None:
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(64),
        PUBLIC_URL="https://memory.example.com",
        DATABASE_URL="postgres://contextlayer:secret@db.invalid:5432/contextlayer",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_secret_key_can_come_from_a_file(tmp_path: Path) -> None:
    key_file = tmp_path / "secret_key"
    key_file.write_text(secrets.token_urlsafe(64) + "\n")
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY_FILE=str(key_file),
        PUBLIC_URL="https://memory.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = _manage("check", PUBLIC_URL="https://memory.example.com")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
