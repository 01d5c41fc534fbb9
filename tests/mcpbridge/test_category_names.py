"""Category names through MCP with the real SDK client (issue 24 item 12): a look-alike of a
sensitive category is that category, a new sensitive-looking name is not granted, and a new
shared name is the owner's to see and take back."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.actors import owner_actor
from accounts.models import User
from memories.category_changes import category_update
from memories.models import Memory, UserCategory
from tests.conftest import issue_token
from tests.mcpbridge.conftest import McpHttp, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

FULLWIDTH_HEALTH = "\uff48\uff45\uff41\uff4c\uff54\uff48"


def test_add_memory_under_a_fullwidth_health_is_refused_like_health(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)  # the default grant: nothing sensitive
    text = "Was treated for depression in 2023"
    plain = client.call("add_memory", {"text": text, "category": "health"})
    look_alike = client.call("add_memory", {"text": text, "category": FULLWIDTH_HEALTH})
    assert plain.is_error and look_alike.is_error
    assert text_of(look_alike) == text_of(plain)
    assert "not granted the categories: health" in text_of(look_alike)
    medical = client.call("add_memory", {"text": text, "category": "Medical"})
    assert medical.is_error and "medical" in text_of(medical)
    assert not Memory.objects.filter(owner=owner).exists()
    assert not UserCategory.objects.filter(owner=owner).exists()


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
