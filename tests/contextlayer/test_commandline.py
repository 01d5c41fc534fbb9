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


def _manage(home: Path, *args: str, cleanup: str = "delete") -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "CONTEXT_LAYER_LOG_FORMAT")
    }
    env.update(
        CONTEXT_LAYER_HOME=str(home),
        EMBEDDED_DB_CLEANUP=cleanup,
        DJANGO_SETTINGS_MODULE="contextlayer.settings",
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


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
