"""The owner outranks every app, through MCP over Streamable HTTP with the real SDK client (and
the REST API with the same client token, where the two must answer in the same words)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client as ApiClient

from accounts.actors import owner_actor
from accounts.models import ConnectedApp, User
from activity.models import AccessEvent
from kernel.gates import SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE
from memories.models import Memory, MemoryState
from memories.services.adding import memory_create
from memories.services.changing import memory_set_state
from tests.mcpbridge.mcp_clients import McpHttp, text_of
from tests.memories.fake_llm import Brain
from tests.personas import issue_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

HEALTH = "Alice was treated for depression in 2023"  # the classifier files it under health


def _client(server_url: str, user: User, *, categories: str | None = None, **kw: Any) -> McpHttp:
    issued = issue_token(user, name=kw.pop("name", "Cursor on laptop"), categories=categories, **kw)
    return McpHttp(server_url, issued.secret)


def test_an_update_into_a_hidden_category_says_so_in_the_same_words_as_the_api(
    owner: User, server_url: str
) -> None:
    """Measured: "Updated … [health]", then "No memory with that id", and nothing in between."""
    dashboard = owner_actor(owner)
    first = memory_create(actor=dashboard, text="Collects vintage stamps").memory
    second = memory_create(actor=dashboard, text="Plays the guitar in a band").memory
    mcp = _client(server_url, owner, scopes=[SCOPE_READ, SCOPE_WRITE])  # not granted health
    answer = mcp.call("update_memory", {"memory_id": str(first.id), "text": HEALTH})
    assert not answer.is_error, text_of(answer)
    note = "Now in Health, which this app is not granted, so this app can no longer read it."
    assert answer.structured_content["note"] == note
    assert text_of(answer).endswith(f"[health]\n{note}")
    again = mcp.call("get_memory", {"memory_id": str(first.id)})
    assert again.is_error and "No memory with that id" in text_of(again)

    api = ApiClient(headers={"Authorization": f"Bearer {mcp.token}"})
    response = api.patch(
        f"/api/v1/memories/{second.id}",
        {"text": "Takes insulin for type 1 diabetes"},
        "application/json",
    )
    assert response.status_code == 200 and response.json()["note"] == note


def test_an_apps_rewrite_through_mcp_keeps_the_sensitive_label(
    owner: User, server_url: str
) -> None:
    memory = memory_create(actor=owner_actor(owner), text=HEALTH).memory  # health, automatic
    writer = _client(server_url, owner, scopes=[SCOPE_READ, SCOPE_WRITE], categories="all")
    reader = _client(server_url, owner, scopes=[SCOPE_READ], name="Claude Desktop")
    answer = writer.call(
        "update_memory", {"memory_id": str(memory.id), "text": "Enjoys hiking on weekends"}
    )
    assert not answer.is_error, text_of(answer)
    assert answer.structured_content["memory"]["categories"] == ["hobbies", "health"]
    found = reader.call("search_memory", {"query": "hiking on weekends"})
    assert found.structured_content["results"] == []
    assert reader.call("get_memory", {"memory_id": str(memory.id)}).is_error


def test_add_memory_answers_alike_for_an_explicit_and_an_automatic_category(
    owner: User, server_url: str
) -> None:
    """Measured: with category "food" it was refused ("This app was not granted the categories:
    food."), while the same kind of text without a category was filed into Food and stored."""
    ticked = "work,hobbies,travel,preferences"  # no food
    mcp = _client(server_url, owner, scopes=[SCOPE_READ, SCOPE_WRITE], categories=ticked)
    explicit = mcp.call("add_memory", {"text": "Loves sushi and ramen", "category": "food"})
    automatic = mcp.call("add_memory", {"text": "Prefers oat milk in coffee"})
    note = (
        "Stored in Food, which this app is not granted: this app can read it back because it "
        "wrote it; other apps without Food cannot."
    )
    for answer in (explicit, automatic):
        assert not answer.is_error, text_of(answer)
        assert answer.structured_content["created"] == 1
        assert answer.structured_content["memories"][0]["categories"] == ["food"]
        assert answer.structured_content["note"] == note
        assert text_of(answer).endswith(note)
    listed = mcp.call("list_memories", {}).structured_content["memories"]
    assert {m["text"] for m in listed} == {"Loves sushi and ramen", "Prefers oat milk in coffee"}


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)")


def _transcript(answers: list[Any]) -> str:
    """The answers as one text, uuids numbered in order of appearance and times removed."""
    raw = repr([(a.is_error, text_of(a), a.structured_content) for a in answers])
    names: dict[str, str] = {}
    raw = _UUID.sub(lambda m: names.setdefault(m.group(), f"<id{len(names)}>"), raw)
    return _STAMP.sub("<time>", raw)


def _echo_script(mcp: McpHttp) -> list[Any]:
    return [
        mcp.call("add_memory", {"text": HEALTH}),
        mcp.call("list_memories", {}),
    ]


def _after_archive(mcp: McpHttp) -> list[Any]:
    return [
        mcp.call("add_memory", {"text": HEALTH}),
        mcp.call("add_memory", {"text": HEALTH.upper() + "!"}),
        mcp.call("add_memories", {"texts": [HEALTH, "Plays the guitar in a band"]}),
        mcp.call("list_memories", {}),
        mcp.call("search_memory", {"query": "treated for depression"}),
    ]


def test_after_the_owner_archives_a_hidden_memory_the_app_learns_nothing(
    owner: User, stranger: User, server_url: str
) -> None:
    """Issue 24 item 6: the owner holds T in health; a default-grant app adds T (an echo); the
    owner archives their memory; the app adds T again. Measured: "Stored", and two identical
    active memories in the app's list (one without the hidden memory)."""
    memory_create(actor=owner_actor(owner), text=HEALTH, categories=["health"])
    worlds = {}
    for user in (owner, stranger):  # the stranger holds nothing: the control world
        mcp = _client(server_url, user, scopes=[SCOPE_READ, SCOPE_WRITE])
        first = _echo_script(mcp)
        for held in Memory.objects.filter(owner=user, echo_of=None, text=HEALTH):
            if held.origin_app_id == owner_actor(user).app.pk:
                memory_set_state(actor=owner_actor(user), memory_ids=[held.id], state="archived")
        worlds[user.email] = _transcript(first + _after_archive(mcp))
    assert worlds[owner.email] == worlds[stranger.email]
    assert "Already known" in worlds[owner.email]
    # Stored once: the app's statement is one echo of the owner's (archived) memory.
    statements = Memory.objects.filter(
        owner=owner,
        text_key=Memory.objects.get(owner=owner, echo_of=None, text=HEALTH).text_key,
        state=MemoryState.ACTIVE,
    )
    assert statements.count() == 1 and statements.get().echo_of_id is not None


def test_delete_memory_tells_an_app_nothing_about_the_other_apps(
    owner: User, server_url: str
) -> None:
    """Measured: the answer's `previously_read_by` named the other apps the owner connected."""
    memory = memory_create(actor=owner_actor(owner), text="I like green tea").memory
    reader = _client(server_url, owner, scopes=[SCOPE_READ], name="Claude Desktop")
    assert not reader.call("get_memory", {"memory_id": str(memory.id)}).is_error
    deleter = _client(server_url, owner, scopes=[SCOPE_READ, SCOPE_WRITE, SCOPE_DELETE])
    answer = deleter.call("delete_memory", {"memory_id": str(memory.id)})
    assert not answer.is_error, text_of(answer)
    assert answer.structured_content == {"deleted_id": str(memory.id), "restorable_days": 30}
    assert "Claude Desktop" not in text_of(answer)
    event = AccessEvent.objects.get(owner=owner, action=AccessEvent.Action.DELETE)
    assert event.detail["read_by"] == ["Claude Desktop"]  # the owner's log keeps it


def test_a_model_superseding_for_an_app_carries_the_owners_label_to_the_new_fact(
    owner: User, server_url: str, fake_provider: Brain
) -> None:
    """The remember path acting for an app: a supersede may not drop the owner's label."""
    old = memory_create(
        actor=owner_actor(owner), text="Takes sertraline every morning", categories=["health"]
    ).memory
    fake_provider.facts = {"stopped": ["Stopped taking sertraline in May"]}
    fake_provider.supersede = [("Stopped", "sertraline every", "No longer takes it.")]
    writer = _client(server_url, owner, scopes=[SCOPE_READ, SCOPE_WRITE], categories="all")
    answer = writer.call(
        "add_memory", {"text": "I stopped taking sertraline", "category": "hobbies"}
    )
    assert not answer.is_error, text_of(answer)
    new = Memory.objects.get(owner=owner, text="Stopped taking sertraline in May")
    assert new.categories == ["hobbies", "health"] and new.categories_set_by_user
    old.refresh_from_db()
    assert old.superseded_by_id == new.id
    assert old.changed_by_name == "Cursor on laptop"
    event = AccessEvent.objects.get(owner=owner, action="update", detail__superseded=str(old.id))
    assert event.app_name == "Cursor on laptop"
    app = ConnectedApp.objects.get(owner=owner, name="Cursor on laptop")
    assert event.app_id == app.pk


def test_a_deleted_sensitive_categorys_memory_stays_hidden_from_a_client_connected_later(
    owner: User, mcp_for: Any
) -> None:
    """Issue 39, item 2, over MCP: a client token made after the delete finds nothing, and
    cannot open the memory by id."""
    from memories.services.categories import category_add
    from memories.services.category_changes import category_delete

    dash = owner_actor(owner)
    category_add(actor=dash, slug="fertility", description="", sensitive=True)
    memory = memory_create(
        actor=dash, text="Second IVF round is in May", categories=["fertility"]
    ).memory
    category_delete(actor=dash, slug="fertility")
    later = mcp_for(owner, scopes="read", name="Connected later")
    found = later.call("search_memory", {"query": "IVF round in May"})
    assert not found.is_error and found.structured_content["results"] == []
    opened = later.call("get_memory", {"memory_id": str(memory.id)})
    assert opened.is_error and "No memory with that id" in text_of(opened)
