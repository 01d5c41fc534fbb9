"""The generated reference pages (configuration, MCP tools, REST API) are the ones the code makes
today, and the configuration reference misses no variable the server reads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docs_gen import api_reference, config_reference, mcp_reference

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
STALE = "is stale: run `uv run python -m docs_gen` and commit the page"

# Names the interpreter reads on its own while the settings import (not settings of ours).
NOT_SETTINGS = {"ANDROID_DATA": "the standard library's platform check"}


def _variables_read_at_start_up(tmp_path: Path, **env: str) -> set[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key in {"PATH", "HOME", "UV_PYTHON_DOWNLOADS", "MEM0_TELEMETRY"}
    }
    environment |= {"CONTEXT_LAYER_HOME": str(tmp_path)} | env
    result = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("record_env.py"))],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return set(json.loads(result.stdout.splitlines()[-1])) - set(NOT_SETTINGS)


def test_the_configuration_reference_is_the_page_the_code_generates() -> None:
    page = DOCS / config_reference.PAGE
    assert page.read_text() == config_reference.render(), f"docs/{config_reference.PAGE} {STALE}"


def test_every_variable_the_server_reads_at_start_up_is_in_the_reference(tmp_path: Path) -> None:
    """Recorded by importing the settings and gunicorn's configuration (development, and
    production, which reads the HTTPS settings too), not by the generator's own parsing."""
    development = _variables_read_at_start_up(tmp_path)
    production = _variables_read_at_start_up(
        tmp_path,
        CONTEXT_LAYER_ENV="production",
        SECRET_KEY="a-production-secret-key-for-this-test-only",
        PUBLIC_URL="https://memory.example.com",
        OIDC_PRIVATE_KEY="read, not parsed, at start-up",
    )
    assert "SECURE_HSTS_SECONDS" in production - development
    listed = set(config_reference.read_variables())
    assert (development | production) - listed == set()
    page = (DOCS / config_reference.PAGE).read_text()
    for name in development | production:
        assert f"| `{name}` |" in page, f"{name} is read but not in docs/{config_reference.PAGE}"


def test_every_variable_the_code_reads_is_explained_in_env_example() -> None:
    meanings = config_reference.documented_meanings()
    missing = [name for name in config_reference.read_variables() if not meanings.get(name)]
    assert missing == [], f"add these to .env.example with a comment saying what they do: {missing}"


def test_a_setting_added_to_the_code_shows_up_undocumented_until_env_example_explains_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "settings.py").write_text(
        "from kernel.env import env_int, env_secret\n"
        "LIMIT = env_int('NEW_LIMIT', 3 * 1024)\n"
        "TOKEN = env_secret('NEW_TOKEN')\n"
    )
    (tmp_path / ".env.example").write_text("# NEW_LIMIT=3072   # how many, at most\n")
    found = config_reference.read_variables(tmp_path)
    assert (found["NEW_LIMIT"].kind, found["NEW_LIMIT"].default) == ("integer", "3072")
    assert set(found) == {"NEW_LIMIT", "NEW_TOKEN", "NEW_TOKEN_FILE"}
    page = config_reference.render(tmp_path)
    assert "| `NEW_LIMIT` | integer | `3072` | how many, at most |" in page
    assert "| `NEW_TOKEN` | secret | unset | **not documented in .env.example** |" in page


def test_the_mcp_tool_reference_is_the_page_the_server_generates() -> None:
    page = (DOCS / mcp_reference.PAGE).read_text()
    for name in mcp_reference.tool_names():
        assert f"## `{name}`" in page, f"tool {name} is missing from docs/{mcp_reference.PAGE}"
    assert page == mcp_reference.render(), f"docs/{mcp_reference.PAGE} {STALE}"


@pytest.mark.django_db(databases=[])
def test_the_rest_api_reference_is_the_page_the_openapi_schema_generates() -> None:
    page = (DOCS / api_reference.PAGE).read_text()
    for path, operations in api_reference.schema()["paths"].items():
        for method in operations:
            if method in api_reference.METHODS:
                assert f"## `{method.upper()} {path}`" in page
    assert page == api_reference.render(), f"docs/{api_reference.PAGE} {STALE}"
