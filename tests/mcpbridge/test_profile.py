"""The profile through MCP: the `get_profile` tool and the `memory://profile` resource, over HTTP
(the real SDK client against the real ASGI app) and stdio (`manage.py mcp`); no tool pins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import owner_actor
from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory
from memories.services import adding, marks
from tests.mcpbridge.mcp_clients import McpHttp, stdio_server, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def _pinned(owner: User, text: str, categories: list[str]) -> Memory:
    """A memory the owner wrote and pinned."""
    dash = owner_actor(owner)
    memory = adding.memory_create(actor=dash, text=text, categories=categories).memory
    marks.memory_set_pinned(actor=dash, memory_ids=[memory.id], pinned=True)
    return memory


def test_an_app_loads_the_owners_pins_as_a_tool_and_as_a_resource(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    shared = _pinned(owner, "Works as a data engineer in Lisbon", ["work"])
    health = _pinned(owner, "Is allergic to penicillin", ["health"])  # sensitive: not granted
    client = mcp_for(owner, scopes="read")

    async def load(c: Client) -> tuple[Any, Any, Any, Any]:
        tools = await c.list_tools()
        called = await c.call_tool("get_profile", {})
        resources = await c.list_resources()
        read = await c.read_resource("memory://profile")
        return tools, called, resources, read

    tools, called, resources, read = client.run(load)
    assert not called.is_error
    profile = called.structured_content
    assert [m["id"] for m in profile["pinned"]] == [str(shared.id)]
    assert profile["most_read"] == [] and profile["truncated"] is False
    assert shared.text in text_of(called) and "Pinned by the user" in text_of(called)
    assert [str(r.uri) for r in resources.resources] == ["memory://profile"]
    resource_text = read.contents[0].text
    assert resource_text == text_of(called)
    # The sensitive pin is nowhere: not its text, not its id, not a count of what was left out.
    for said in (str(profile), text_of(called), resource_text):
        assert health.text not in said and str(health.id) not in said
    assert "left out" not in resource_text
    # Each load is a read in the owner's access log, naming what it returned.
    events = AccessEvent.objects.filter(owner=owner, detail={"profile": True})
    assert [e.memory_ids for e in events] == [[shared.id], [shared.id]]
    # No tool pins: pinning is the owner's, through the dashboard or the owner's API.
    names = {t.name for t in tools.tools}
    assert not any("pin" in name for name in names)
    unknown = client.call("pin_memory", {"memory_id": str(shared.id)})
    assert unknown.is_error
    assert Memory.objects.get(pk=health.pk).pinned_at is not None


def test_the_profile_over_mcp_keeps_within_its_bound_and_says_so(
    owner: User, mcp_for: Callable[..., McpHttp], settings: SettingsWrapper
) -> None:
    settings.PROFILE_MAX_CHARS = 200
    for n in range(8):
        _pinned(owner, f"Fact number {n} the owner pinned about their work and life", ["work"])
    called = mcp_for(owner).call("get_profile", {})
    profile = called.structured_content
    kept = profile["pinned"]
    assert sum(len(m["text"]) for m in kept) <= 200 and len(kept) == 3
    assert profile["truncated"] is True and profile["omitted"] == 5
    assert "5 more left out to stay within 200 characters" in text_of(called)


def test_a_client_without_read_is_refused_the_profile_resource(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    _pinned(owner, "Works as a data engineer in Lisbon", ["work"])
    client = mcp_for(owner, scopes="write")

    async def read(c: Client) -> str:
        try:
            await c.read_resource("memory://profile")
        except MCPError as exc:
            return str(exc)
        return "read"

    refused = client.run(read)
    assert "not granted memories:read" in refused
    assert not AccessEvent.objects.filter(owner=owner, detail={"profile": True}).exists()


def test_stdio_serves_the_profile_tool_and_resource(owner: User) -> None:
    shared = _pinned(owner, "Works as a data engineer in Lisbon", ["work"])
    params = stdio_server(owner.email)

    async def load() -> tuple[Any, Any, Any]:
        async with Client(params, mode="legacy") as c:
            called = await c.call_tool("get_profile", {})
            read = await c.read_resource("memory://profile")
            return called, read, c.instructions

    called, read, instructions = anyio.run(load)
    assert [m["id"] for m in called.structured_content["pinned"]] == [str(shared.id)]
    assert read.contents[0].text == text_of(called)
    assert "get_profile" in (instructions or "")
