"""MCP over stdio: `manage.py mcp` as a subprocess, driven by the real MCP SDK client."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import anyio
import pytest
from mcp.client import Client

from accounts.models import ConnectedApp, User
from activity.models import AccessEvent
from memories.models import Memory
from tests.mcpbridge.conftest import ROOT, stdio_env, stdio_server, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def test_stdio_lists_tools_and_round_trips_through_the_services(owner: User) -> None:
    params = stdio_server(owner.email)

    async def session() -> dict[str, Any]:
        async with Client(params, mode="legacy") as c:
            tools = await c.list_tools()
            added = await c.call_tool("add_memory", {"text": "Writes Rust at work"})
            found = await c.call_tool("search_memory", {"query": "language written at work"})
            bad = await c.call_tool("search_memory", {"query": "x", "nope": True})
            return {"tools": tools, "added": added, "found": found, "bad": bad}

    out = anyio.run(session)
    assert {t.name for t in out["tools"].tools} >= {"search_memory", "add_memory"}
    memory_id = out["added"].structured_content["memories"][0]["id"]
    assert [h["id"] for h in out["found"].structured_content["results"]] == [memory_id]
    assert out["bad"].is_error and "unknown argument 'nope'" in text_of(out["bad"])

    app = ConnectedApp.objects.get(owner=owner, kind=ConnectedApp.Kind.STDIO)
    assert app.name == "local"
    assert Memory.objects.get(pk=memory_id).origin_app_name == "local"
    assert set(AccessEvent.objects.filter(owner=owner).values_list("app_name", flat=True)) == {
        "local"
    }


def test_stdio_app_is_named_and_pausable(owner: User) -> None:
    params = stdio_server(owner.email, "--app", "claude-desktop")

    async def add() -> Any:
        async with Client(params, mode="legacy") as c:
            first = await c.call_tool("add_memory", {"text": "Has two kids"})
            # Paused while the client runs: the next call is refused.
            await anyio.to_thread.run_sync(_pause, owner)
            second = await c.call_tool("add_memory", {"text": "Has three cats"})
            return first, second

    first, second = anyio.run(add)
    assert not first.is_error
    assert second.is_error and "paused" in text_of(second)
    assert list(Memory.objects.filter(owner=owner).values_list("text", flat=True)) == [
        "Has two kids"
    ]


def _pause(user: User) -> None:
    from django.db import connections

    ConnectedApp.objects.filter(owner=user, name="claude-desktop").update(paused=True)
    connections.close_all()


def test_stdio_fails_closed_for_an_unknown_user() -> None:
    proc = subprocess.run(
        [sys.executable, "manage.py", "mcp", "--user", "nobody@example.com"],
        cwd=ROOT,
        env={**os.environ, **stdio_env()},
        input=b"",
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert proc.stdout == b""
    assert b"No active user with the email 'nobody@example.com'" in proc.stderr
