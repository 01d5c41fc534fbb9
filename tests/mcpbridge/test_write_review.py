"""Write review per app through MCP, with the real SDK client over HTTP and over stdio: an app
the owner reviews gets "pending" answers, stores nothing, and reads its pending writes back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest
from mcp.client import Client

from accounts.actors import owner_actor, stdio_app
from accounts.models import ALL_SCOPES, ClientToken, User
from accounts.services import app_set_review
from memories.models import Memory, MemoryProposal, MemoryState
from memories.selectors.proposals import proposal_list
from memories.services import adding
from memories.services.proposals import proposal_accept
from tests.mcpbridge.mcp_clients import McpHttp, stdio_server, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def _review_token_app(owner: User) -> None:
    app = ClientToken.objects.get(owner=owner, name="Cursor on laptop").app
    app_set_review(actor=owner_actor(owner), app_id=app.pk, review=True)


def test_over_http_an_apps_writes_wait_for_the_owner_and_it_reads_them_back_pending(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    dash = owner_actor(owner)
    kept = adding.memory_create(actor=dash, text="Lives in Berlin", categories=["hobbies"])
    mcp = mcp_for(owner)
    _review_token_app(owner)

    added = mcp.call("add_memory", {"text": "Drinks green tea every morning"})
    assert not added.is_error
    assert added.structured_content["memories"] == []
    [pending] = added.structured_content["pending"]
    assert pending["kind"] == "add" and pending["pending"] is True
    assert "Review" in text_of(added) and "pending" in text_of(added)
    assert not Memory.objects.filter(owner=owner, text__icontains="green tea").exists()

    mid = str(kept.memory.id)
    updated = mcp.call("update_memory", {"memory_id": mid, "text": "Lives in Lisbon"})
    assert updated.structured_content["memory"]["text"] == "Lives in Berlin"
    assert updated.structured_content["pending"][0]["text"] == "Lives in Lisbon"
    deleted = mcp.call("delete_memory", {"memory_id": mid})
    assert deleted.structured_content["deleted_id"] == ""
    assert deleted.structured_content["pending"][0]["kind"] == "delete"

    listed = mcp.call("list_memories", {})
    assert [m["text"] for m in listed.structured_content["memories"]] == ["Lives in Berlin"]
    assert [(p["kind"], p["text"]) for p in listed.structured_content["pending"]] == [
        ("add", "Drinks green tea every morning"),
        ("update", "Lives in Lisbon"),
        ("delete", ""),
    ]
    got = mcp.call("get_memory", {"memory_id": mid})  # the pending delete hides nothing
    assert got.structured_content["memory"]["text"] == "Lives in Berlin"
    assert {p["kind"] for p in got.structured_content["pending"]} == {"update", "delete"}
    found = mcp.call("search_memory", {"query": "green tea"})
    assert [p["kind"] for p in found.structured_content["pending"]] == ["add"]

    add = MemoryProposal.objects.get(owner=owner, kind="add")
    proposal_accept(actor=dash, proposal_id=add.pk)
    stored = Memory.objects.get(owner=owner, text="Drinks green tea every morning")
    assert stored.origin_app_name == "Cursor on laptop"
    listed = mcp.call("list_memories", {})
    assert "Drinks green tea every morning" in [
        m["text"] for m in listed.structured_content["memories"]
    ]
    assert [p["kind"] for p in listed.structured_content["pending"]] == ["update", "delete"]


def test_over_http_delete_all_and_add_memories_cannot_bypass_review(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    dash = owner_actor(owner)
    adding.memory_create(actor=dash, text="Plays chess", categories=["hobbies"])
    mcp = mcp_for(owner)
    _review_token_app(owner)
    many = mcp.call("add_memories", {"texts": ["Likes jazz", "Likes blues"]})
    assert [p["text"] for p in many.structured_content["pending"]] == ["Likes jazz", "Likes blues"]
    wiped = mcp.call("delete_all_memories", {"confirm": True})
    assert wiped.structured_content["deleted"] == 0 and wiped.structured_content["pending"] == 1
    assert list(Memory.objects.filter(owner=owner).values_list("text", "state")) == [
        ("Plays chess", MemoryState.ACTIVE)
    ]
    assert len(proposal_list(actor=dash)) == 3


def test_over_stdio_an_add_waits_and_lists_as_pending_until_the_owner_accepts(
    owner: User,
) -> None:
    app = stdio_app(owner, "local", scopes=ALL_SCOPES)
    app_set_review(actor=owner_actor(owner), app_id=app.pk, review=True)
    params = stdio_server(owner.email)

    async def session() -> tuple[Any, Any]:
        async with Client(params, mode="legacy") as c:
            added = await c.call_tool("add_memory", {"text": "Writes Rust at work"})
            listed = await c.call_tool("list_memories", {})
            return added, listed

    added, listed = anyio.run(session)
    assert added.structured_content["pending"][0]["kind"] == "add"
    assert listed.structured_content["memories"] == []
    assert listed.structured_content["pending"][0]["text"] == "Writes Rust at work"
    assert "pending" in text_of(listed)
    assert not Memory.objects.filter(owner=owner).exists()
    [waiting] = proposal_list(actor=owner_actor(owner))
    proposal_accept(actor=owner_actor(owner), proposal_id=waiting.pk)
    assert Memory.objects.get(owner=owner).origin_app_name == "local"
