"""`manage.py` as a person meets it in a terminal: readable output, and what to do (never a
traceback) when the data folder it was pointed at was never set up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from contextlayer.commandline import log_format_for

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], drop: tuple[str, ...], **env: str) -> subprocess.CompletedProcess[str]:
    """This interpreter on `args` in the repository, with the environment less `drop` plus `env`."""
    kept = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", *drop)}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**kept, "DJANGO_SETTINGS_MODULE": "contextlayer.settings", **env},
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def _manage(home: Path, *args: str, cleanup: str = "delete") -> subprocess.CompletedProcess[str]:
    return _run(
        ["manage.py", *args],
        ("CONTEXT_LAYER_LOG_FORMAT",),
        CONTEXT_LAYER_HOME=str(home),
        EMBEDDED_DB_CLEANUP=cleanup,
    )


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_command_on_a_data_folder_never_set_up_says_what_to_do(tmp_path: Path) -> None:
    """A client that starts the stdio server without the server's CONTEXT_LAYER_HOME gets a new,
    empty data folder: it must be told so, and how to fix it."""
    runs = [
        (["export", "--user", "me@example.com"], "stop"),
        (["mcp", "--user", "me@example.com"], "delete"),
    ]
    for args, cleanup in runs:
        result = _manage(tmp_path / "fresh", *args, cleanup=cleanup)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""
        assert "Context Layer is not set up in the embedded database in" in result.stderr
        assert "CONTEXT_LAYER_HOME" in result.stderr and "manage.py migrate" in result.stderr
        if args[0] == "export":  # a command a person runs keeps its terminal readable
            assert "embedded postgres ready" not in result.stderr and '{"ts"' not in result.stderr


def test_servers_log_json_and_other_commands_log_text() -> None:
    assert log_format_for(["manage.py", "serve"]) == "json"
    assert log_format_for(["manage.py", "mcp", "--user", "x"]) == "json"
    assert log_format_for(["manage.py", "backfill", "x.zip"]) == "text"
    assert log_format_for(["manage.py"]) == "text"


def _python(env_home: Path, code: str) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter whose default data folder is under `env_home` (no
    CONTEXT_LAYER_HOME: the per-user default, as on a fresh clone)."""
    drop = ("CONTEXT_LAYER_HOME", "SECRET_KEY", "OIDC_PRIVATE_KEY")
    return _run(["-c", code], drop, XDG_DATA_HOME=str(env_home))


SECRETS = ("secret_key", "oidc_private_key.pem")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_importing_the_settings_writes_no_secret_into_the_default_data_folder(
    tmp_path: Path,
) -> None:
    """Issue 24 item 15: the type check (mypy's Django plugin sets Django up) and any command
    that signs nothing leave the default data folder alone; a secret is made where it is used,
    and kept."""
    folder = tmp_path / "context-layer"
    setup = _python(tmp_path, "import django; django.setup(); from django.conf import settings")
    assert setup.returncode == 0, setup.stderr
    check = _python(
        tmp_path,
        "import sys; from django.core.management import execute_from_command_line as run;"
        " run(['manage.py', 'check'])",
    )
    assert check.returncode == 0, check.stderr
    assert not any((folder / name).exists() for name in SECRETS), list(folder.glob("*"))

    sign = (
        "import django; django.setup(); from django.core import signing;"
        " print(signing.Signer().sign('x'))"
    )
    first, again = _python(tmp_path, sign), _python(tmp_path, sign)
    assert first.returncode == 0, first.stderr
    assert (folder / "secret_key").exists()
    assert first.stdout == again.stdout  # the same key in the next process
    assert (folder / "secret_key").stat().st_mode & 0o077 == 0


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_stdio_server_on_a_wrong_data_folder_creates_no_database(tmp_path: Path) -> None:
    """Issue 24 item 15: `manage.py mcp` started with another CONTEXT_LAYER_HOME says so and
    leaves that folder as it found it: no 46 MB cluster, no secrets."""
    wrong = tmp_path / "wrong"
    result = _manage(wrong, "mcp", "--user", "me@example.com", cleanup="stop")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert "Context Layer is not set up in the embedded database in" in result.stderr
    assert "CONTEXT_LAYER_HOME" in result.stderr and "manage.py migrate" in result.stderr
    assert not (wrong / "pgdata").exists()
    assert not any((wrong / name).exists() for name in SECRETS)
