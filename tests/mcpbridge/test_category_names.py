"""Category names through MCP with the real SDK client (issue 24 item 12): a look-alike of a
sensitive category is that category, a new sensitive-looking name is not granted, and a new
shared name is the owner's to see and take back."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import UserCategory
from memories.services.category_changes import category_update
from tests.mcpbridge.mcp_clients import McpHttp, text_of
from tests.personas import issue_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

FULLWIDTH_HEALTH = "\uff48\uff45\uff41\uff4c\uff54\uff48"


def test_add_memory_under_a_fullwidth_health_lands_in_health_like_health(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    """The look-alike is health, never a new shared category: what the app wrote stays out of
    every other app's sight, and the app is told so in health's own words."""
    client = mcp_for(owner)  # the default grant: nothing sensitive
    reader = mcp_for(owner, name="Claude Desktop")
    plain = client.call("add_memory", {"text": "Was treated for depression", "category": "health"})
    look_alike = client.call(
        "add_memory", {"text": "Sees a therapist weekly", "category": FULLWIDTH_HEALTH}
    )
    assert not plain.is_error and not look_alike.is_error, text_of(look_alike)
    assert look_alike.structured_content["memories"][0]["categories"] == ["health"]
    assert "not granted" in text_of(look_alike) and "Health" in text_of(look_alike)
    medical = client.call("add_memory", {"text": "Sees a cardiologist", "category": "Medical"})
    assert not medical.is_error and "Medical" in text_of(medical)
    assert UserCategory.objects.get(owner=owner, slug="medical").sensitive
    assert not UserCategory.objects.filter(owner=owner, slug__contains="health").exists()
    listed = reader.call("list_memories", {}).structured_content
    assert listed["memories"] == []
    for query in ("depression", "therapist", "cardiologist"):
        hits = reader.call("search_memory", {"query": query}).structured_content
        assert hits["results"] == [], query


def test_an_app_granted_health_files_the_look_alike_under_health(
    owner: User, server_url: str
) -> None:
    issued = issue_token(owner, name="Health coach", categories="health")
    client = McpHttp(server_url, issued.secret)
    added = client.call("add_memory", {"text": "Takes sertraline", "category": FULLWIDTH_HEALTH})
    assert not added.is_error, text_of(added)
    assert added.structured_content["memories"][0]["categories"] == ["health"]


def test_a_new_shared_name_is_seen_by_other_apps_until_the_owner_marks_it_sensitive(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    writer = mcp_for(owner, name="Cursor on laptop")
    reader = mcp_for(owner, name="Claude Desktop")
    added = writer.call("add_memory", {"text": "Her son Leo plays chess", "category": "Kids"})
    assert not added.is_error, text_of(added)
    assert added.structured_content["memories"][0]["categories"] == ["kids"]
    assert UserCategory.objects.get(owner=owner, slug="kids").created_by == "Cursor on laptop"

    def found() -> list[str]:
        hits = reader.call("search_memory", {"query": "Leo chess"}).structured_content
        return [h["text"] for h in hits["results"]]

    assert found() == ["Her son Leo plays chess"]
    category_update(actor=owner_actor(owner), slug="kids", sensitive=True)
    assert found() == []
    listed = reader.call("list_memories", {"category": "KIDS"}).structured_content
    assert listed["memories"] == []
    # The writer still reads back what it wrote.
    mine = writer.call("list_memories", {"category": "\uff2b\uff29\uff24\uff33"}).structured_content
    assert [m["text"] for m in mine["memories"]] == ["Her son Leo plays chess"]
