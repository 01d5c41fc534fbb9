"""The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
conformance/package-lock.json with Node 22 from the npm registry) against this server under
uvicorn, with a client token supplied, for every server scenario that applies, at both protocol
versions clients speak today. The scenarios that do not apply, and why, are listed below and in
docs/developer/conformance.md."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from tests.personas import issue_token
from tests.servers import start_server, stop_server

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

FOLDER = Path(__file__).resolve().parents[2] / "conformance"
NODE = FOLDER / "node_modules" / ".bin" / "node"
CLI = FOLDER / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
BASELINE = FOLDER / "expected-failures.yml"

APPLICABLE = {
    "2025-11-25": [
        "server-initialize",
        "ping",
        "tools-list",
        "resources-list",
        "prompts-list",
        "dns-rebinding-protection",
    ],
    "2026-07-28": [
        "server-stateless",
        "tools-list",
        "resources-list",
        "prompts-list",
        "dns-rebinding-protection",
        "caching",
        "http-header-validation",
        "sep-2164-resource-not-found",
        "input-required-result-unsupported-methods",
    ],
}
_FIXTURE_TOOLS = "exercises the suite's fixture tools (test_*), which this server does not have"
NOT_APPLICABLE = {
    "logging-set-level": "no logging capability: the server sends no log messages",
    "tools-call-with-logging": "no logging capability; " + _FIXTURE_TOOLS,
    "completion-complete": "no completions capability (the one prompt takes no arguments)",
    "tools-call-simple-text": _FIXTURE_TOOLS,
    "tools-call-image": _FIXTURE_TOOLS + "; ours return text and structured content",
    "tools-call-audio": _FIXTURE_TOOLS + "; ours return text and structured content",
    "tools-call-embedded-resource": _FIXTURE_TOOLS + "; ours embed no resources",
    "tools-call-mixed-content": _FIXTURE_TOOLS,
    "tools-call-error": _FIXTURE_TOOLS + "; our tool errors are tested in tests/mcpbridge",
    "tools-call-with-progress": _FIXTURE_TOOLS + "; no tool reports progress",
    "tools-call-sampling": "the server never asks the client to sample",
    "tools-call-elicitation": "the server never asks the user for input",
    "elicitation-sep1034-defaults": "the server never asks the user for input",
    "elicitation-sep1330-enums": "the server never asks the user for input",
    "json-schema-2020-12": "checks the fixture tool json_schema_2020_12_tool; our tools' input "
    "schemas are checked as JSON Schema 2020-12 in tests/mcpbridge/test_protocol_versions.py",
    "resources-read-text": "reads the suite's fixture resources; ours (memory://profile) is read "
    "with the SDK client in tests/mcpbridge/test_profile.py",
    "resources-read-binary": "no binary resource",
    "resources-templates-read": "no resource templates",
    "resources-subscribe": "no subscriptions (the profile is read again when wanted)",
    "resources-unsubscribe": "no subscriptions (the profile is read again when wanted)",
    "prompts-get-simple": "fixture prompt; our prompt is tested with the SDK client",
    "prompts-get-with-args": "fixture prompt; our prompt takes no arguments",
    "prompts-get-embedded-resource": "fixture prompt; our prompt embeds no resource",
    "prompts-get-with-image": "fixture prompt; our prompt has no image",
    "server-session-lifecycle": "stateless: no sessions (any worker answers any request)",
    "server-sse-polling": "JSON responses, no SSE streams (GET /mcp is 405)",
    "server-sse-multiple-streams": "JSON responses, no SSE streams (GET /mcp is 405)",
    "http-custom-header-server-validation": "no tool declares x-mcp-header parameters",
    "input-required-result-*": "our tools never ask the client for input mid-call (the "
    "unsupported-methods scenario, which applies to every server, runs)",
    "sep-2640-skills-*": "extension not offered",
    "tasks-*": "extension not offered",
}

needs_node = pytest.mark.skipif(
    not NODE.exists() or not CLI.exists(),
    reason="conformance/node_modules is missing: run `npm ci` in conformance/ (.ci/run does)",
)


def _node(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [str(NODE), str(CLI), *args], capture_output=True, text=True, timeout=240, cwd=cwd, env=env
    )


class _Bearer:
    """The connecting client's side of the token: every request to /mcp carries it."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.token = ""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/mcp" and self.token:
            headers = [h for h in scope["headers"] if h[0] != b"authorization"]
            headers.append((b"authorization", f"Bearer {self.token}".encode()))
            scope = {**scope, "headers": headers}
        await self.app(scope, receive, send)


@pytest.fixture(scope="module")
def conformance_server(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[tuple[str, _Bearer]]:
    from contextlayer.asgi import build_application
    from mcpbridge.http import MCPHttpApp

    app = _Bearer(build_application(MCPHttpApp()))
    live = start_server(app, lifespan="on")
    try:
        yield live.url.replace("127.0.0.1", "localhost") + "/mcp", app
    finally:
        with django_db_blocker.unblock():
            stop_server(live)


@pytest.fixture
def mcp_url(conformance_server: tuple[str, _Bearer], transactional_db: None) -> str:
    url, app = conformance_server
    user = User.objects.create_user("conformance@example.com", "correct horse battery")
    app.token = issue_token(
        user,
        name="conformance",
        scopes=["read", "write"],
    ).secret
    return url


def _failures(results: Path) -> list[str]:
    lines = []
    for checks in results.rglob("checks.json"):
        for check in json.loads(checks.read_text()):
            if check["status"] in ("FAILURE", "WARNING"):
                lines.append(f"{check['status']} {check['id']}: {check.get('errorMessage', '')}")
    return lines


def _run_scenario(url: str, version: str, scenario: str, out: Path) -> str | None:
    """None when the scenario passes (its baselined checks aside), else what failed."""
    out.mkdir(parents=True)
    run = _node(
        "server",
        "--url",
        url,
        "--scenario",
        scenario,
        "--spec-version",
        version,
        "--expected-failures",
        str(BASELINE),
        "-o",
        str(out),
        cwd=out,
    )
    if not list(out.rglob("checks.json")):
        return f"{scenario}: ran no checks\n{run.stdout[-1500:]}\n{run.stderr[-1500:]}"
    if run.returncode != 0:
        return f"{scenario}: " + "; ".join(_failures(out)) + "\n" + run.stdout[-1500:]
    return None


@needs_node
@pytest.mark.parametrize("version", list(APPLICABLE))
def test_the_server_passes_every_applicable_conformance_scenario(
    mcp_url: str, tmp_path: Path, version: str
) -> None:
    """The scenarios of one protocol version, a few at a time (each is its own node process)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(
            pool.map(
                lambda s: _run_scenario(mcp_url, version, s, tmp_path / s), APPLICABLE[version]
            )
        )
    failed = [r for r in results if r is not None]
    assert not failed, "\n\n".join(failed)


@needs_node
def test_every_server_scenario_of_the_pinned_suite_is_run_or_explained() -> None:
    """A new version of the suite brings new scenarios: each must be run or said not to apply."""
    listed = _node("list", "--server")
    assert listed.returncode == 0, listed.stderr
    names = [line.split()[1] for line in listed.stdout.splitlines() if line.startswith("  - ")]
    assert len(names) > 20
    run = {s for names_ in APPLICABLE.values() for s in names_}

    def explained(name: str) -> bool:
        return any(
            name == key or (key.endswith("*") and name.startswith(key[:-1]))
            for key in NOT_APPLICABLE
        )

    unaccounted = [n for n in names if n not in run and not explained(n)]
    assert not unaccounted, unaccounted
    stale = [k for k in NOT_APPLICABLE if not k.endswith("*") and k not in names]
    assert not stale, stale
