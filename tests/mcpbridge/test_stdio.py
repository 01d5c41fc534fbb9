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
from tests.mcpbridge.mcp_clients import ROOT, stdio_env, stdio_server, text_of
from tests.memories.memory_rows import forty_memories, memory_snapshot
from tests.personas import signed_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


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


def test_a_new_stdio_app_may_not_delete_until_the_owner_grants_it(owner: User) -> None:
    """Measured: the app the Connect page's snippet creates held every scope, delete included."""

    runs: list[str] = []

    def try_delete(*extra: str) -> tuple[Any, Any]:
        runs.append(f"Has {len(runs) + 1} kids")
        return anyio.run(session, stdio_server(owner.email, "--app", "claude-desktop", *extra))

    async def session(params: Any) -> tuple[Any, Any]:
        async with Client(params, mode="legacy") as c:
            added = await c.call_tool("add_memory", {"text": runs[-1]})
            memory_id = added.structured_content["memories"][0]["id"]
            return added, await c.call_tool("delete_memory", {"memory_id": memory_id})

    _, refused = try_delete()
    assert refused.is_error and "not granted memories:delete" in text_of(refused)
    app = ConnectedApp.objects.get(owner=owner, kind=ConnectedApp.Kind.STDIO)
    assert app.scopes == ["memories:read", "memories:write"]
    assert Memory.objects.filter(owner=owner).exclude(state="trashed").count() == 1

    _, deleted = try_delete("--scopes", "read,write,delete")
    assert not deleted.is_error, text_of(deleted)
    app.refresh_from_db()
    assert app.scopes == ["memories:read", "memories:write", "memories:delete"]
    change = AccessEvent.objects.get(owner=owner, app_name="cli", detail__app_id=app.pk)
    assert change.detail["scopes"] == {
        "from": ["memories:read", "memories:write"],
        "to": ["memories:read", "memories:write", "memories:delete"],
    }
    # Without --scopes the app keeps what it was granted, here or on the Apps page.
    _, again = try_delete()
    assert not again.is_error
    assert Memory.objects.filter(owner=owner).exclude(state="trashed").count() == 1


def test_an_unknown_scope_stops_the_stdio_server_with_a_clear_error(owner: User) -> None:
    proc = subprocess.run(
        [sys.executable, "manage.py", "mcp", "--user", owner.email, "--scopes", "read,everything"],
        cwd=ROOT,
        env={**os.environ, **stdio_env()},
        input=b"",
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode != 0 and proc.stdout == b""
    assert b"--scopes: Unknown scope 'everything'" in proc.stderr
    assert not ConnectedApp.objects.filter(owner=owner, kind=ConnectedApp.Kind.STDIO).exists()


def test_delete_all_over_stdio_goes_to_the_trash_and_the_owner_restores_all_40(
    owner: User,
) -> None:
    """Issue 23, measured item 1: the stdio app of the Connect page's snippet answered
    `delete_all_memories {"confirm": true}` with "Deleted 40 memories." and nothing brought them
    back. Now they wait in the owner's trash, and the dashboard's notice restores all 40."""
    forty_memories(owner)
    before = memory_snapshot(owner)
    assert len([m for m in before.values() if m[6] is None]) == 40  # 40 current memories

    # The snippet's app no longer holds delete (issue 23 item 2): the owner granted it here.
    params = stdio_server(owner.email, "--scopes", "read,write,delete")

    async def wipe() -> Any:
        async with Client(params, mode="legacy") as c:
            return await c.call_tool("delete_all_memories", {"confirm": True})

    answer = anyio.run(wipe)

    assert not answer.is_error
    assert answer.structured_content == {"deleted": 40, "restorable_days": 30}
    assert text_of(answer) == (
        "Deleted 40 memories: moved to the user's trash, where the user can restore them "
        "for 30 days."
    )
    browser = signed_in(owner)
    home = browser.get("/").content.decode()
    assert "<strong>local</strong> deleted 40 memories" in home
    assert "Your memory is empty" in home
    batch = str(Memory.objects.filter(owner=owner).values_list("trash_batch", flat=True)[0])
    browser.post("/trash/restore/", {"batch": batch, "next": "/"})
    home = browser.get("/").content.decode()
    assert "Restored 40 memories." in home and "deleted 40 memories" not in home
    assert memory_snapshot(owner) == before


def test_loading_ahead_for_the_first_call_is_no_read_of_the_apps(owner: User) -> None:
    """The process loads the model and the user's index while the client initializes, through a
    search that records nothing: the owner's log shows only what the app itself asked."""
    from accounts.actors import owner_actor
    from memories.services.adding import memory_create

    memory_create(actor=owner_actor(owner), text="Keeps a red kayak in the garage")
    params = stdio_server(owner.email, "--app", "claude-desktop")

    async def session() -> Any:
        async with Client(params, mode="legacy") as c:
            await anyio.sleep(5)  # time for the load ahead, on any machine
            return await c.call_tool("search_memory", {"query": "kayak"})

    found = anyio.run(session)
    assert [h["text"] for h in found.structured_content["results"]] == [
        "Keeps a red kayak in the garage"
    ]
    reads = AccessEvent.objects.filter(owner=owner, app_name="claude-desktop")
    assert list(reads.values_list("action", flat=True)) == ["search"]


def test_a_stdio_process_sweeps_the_machines_search_files_from_its_start(owner: User) -> None:
    """Issue 39: the sweeper started at a process's first search; a stdio process that only
    lists tools now removes what another machine's erase left (here, a stray entry)."""
    import time
    from pathlib import Path

    from django.conf import settings

    from memories.search import snapshot_files

    folder = snapshot_files.folder(owner.pk)
    assert folder is not None and settings.SEARCH_SNAPSHOT_DIR
    folder.parent.mkdir(parents=True, exist_ok=True)
    stray = folder.parent / "99999999"  # a file where a user's folder should be
    stray.write_bytes(b"left behind")
    params = stdio_server(owner.email, "--app", "claude-desktop")

    async def session() -> bool:
        async with Client(params, mode="legacy") as c:
            await c.list_tools()
            deadline = time.monotonic() + 30
            while Path(stray).exists() and time.monotonic() < deadline:
                await anyio.sleep(0.1)
            return not Path(stray).exists()

    assert anyio.run(session), "the stdio process did not sweep at its start"
