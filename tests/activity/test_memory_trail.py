"""Every app action on a memory is in that memory's access trail, the bulk ones included
(`delete_all_memories` showed only the owner's restore), through MCP over HTTP and stdio, the REST
log and the dashboard; an event that names several memories opens the list of them, the owner's
own only."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from mcp.client import Client

from accounts.actors import owner_actor
from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory
from memories.selectors.memories import memory_access_trail
from memories.services.adding import memory_create
from memories.services.trash import trash_restore
from tests.mcpbridge.mcp_clients import McpHttp, stdio_server
from tests.personas import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

FACTS = ["Keeps bees on the roof", "Plays the cello on Sundays", "Allergic to walnuts"]
PLAIN = ["Keeps bees on the roof", "Plays the cello on Sundays", "Collects vintage stamps"]


def _trail(owner: User, memory_id: uuid.UUID, app: str) -> list[str]:
    """The actions of this app in the memory's trail, as the owner's dashboard reads it."""
    events = memory_access_trail(actor=owner_actor(owner), memory_id=memory_id)
    return sorted({e.action for e in events if e.app_name == app})


def test_every_mcp_action_of_an_app_is_in_each_memorys_trail_bulk_delete_included(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    app = mcp_for(owner, name="Cursor on laptop")

    async def session(c: Any) -> None:
        added = await c.call_tool("add_memories", {"texts": FACTS})
        ids = [m["id"] for m in added.structured_content["memories"]]
        await c.call_tool("search_memory", {"query": "cello"})
        await c.call_tool("get_memory", {"memory_id": ids[0]})
        await c.call_tool("update_memory", {"memory_id": ids[0], "text": "Keeps two hives of bees"})
        await c.call_tool("list_memories", {})
        deleted = await c.call_tool("delete_all_memories", {"confirm": True})
        assert not deleted.is_error

    app.run(session)
    # Measured: once the owner restored them, each trail showed the restore, not the delete.
    batch = AccessEvent.objects.get(owner=owner, action="delete").detail["trash"]
    trash_restore(actor=owner_actor(owner), batch_id=batch)
    memories = {m.text: m.id for m in Memory.objects.filter(owner=owner, echo_of=None)}
    first = memories["Keeps two hives of bees"]
    assert _trail(owner, first, "Cursor on laptop") == ["add", "delete", "list", "read", "update"]
    cello = memories["Plays the cello on Sundays"]
    assert _trail(owner, cello, "Cursor on laptop") == ["add", "delete", "list", "search"]
    for text in FACTS[1:]:
        assert "delete" in _trail(owner, memories[text], "Cursor on laptop"), text

    # The REST log, filtered by memory, names the bulk delete too.
    api = signed_in(owner)
    log = api.get("/api/v1/access-events", {"memory_id": str(memories["Allergic to walnuts"])})
    actions = [(e["app_name"], e["action"]) for e in log.json()["items"]]
    assert ("Cursor on laptop", "delete") in actions


def test_an_event_of_several_memories_opens_their_list_and_only_the_owners(
    owner: User, stranger: User
) -> None:
    dash = owner_actor(owner)
    made = [memory_create(actor=dash, text=t).memory for t in PLAIN]
    from accounts.actors import actor_for, stdio_app
    from memories.services.deleting import memory_delete_all

    cursor = actor_for(owner, stdio_app(owner, "Cursor", ["memories:read", "memories:delete"]))
    assert memory_delete_all(actor=cursor) == 3
    event = AccessEvent.objects.get(owner=owner, app_name="Cursor", action="delete")
    assert sorted(event.memory_ids) == sorted(m.id for m in made)

    browser = signed_in(owner)
    log = browser.get("/activity/").content.decode()
    assert f'href="/activity/{event.pk}/">3 memories</a>' in log
    page = browser.get(f"/activity/{event.pk}/").content.decode()
    assert "In the trash now" in page and all(t in page for t in PLAIN)

    trash_restore(actor=dash, batch_id=event.detail["trash"])
    page = browser.get(f"/activity/{event.pk}/").content.decode()
    assert "In the trash now" not in page
    assert all(f'href="/memories/{m.id}/"' in page for m in made)

    # Another user cannot open it, nor tell it from a missing one; an app's token has no log.
    assert signed_in(stranger).get(f"/activity/{event.pk}/").status_code == 404
    assert browser.get("/activity/999999999/").status_code == 404


@pytest.mark.slow
def test_delete_all_over_stdio_is_in_each_memorys_trail(owner: User) -> None:
    dash = owner_actor(owner)
    made = [memory_create(actor=dash, text=t).memory for t in PLAIN]
    params = stdio_server(owner.email, "--app", "claude-desktop", "--scopes", "read,write,delete")

    async def session() -> Any:
        async with Client(params, mode="legacy") as c:
            return await c.call_tool("delete_all_memories", {"confirm": True})

    assert not anyio.run(session).is_error
    batch = AccessEvent.objects.get(owner=owner, action="delete").detail["trash"]
    trash_restore(actor=dash, batch_id=batch)
    for memory in made:
        assert _trail(owner, memory.id, "claude-desktop") == ["delete"]
