"""MCP over Streamable HTTP, driven by the real MCP SDK client against the app under uvicorn."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import httpx2
import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import owner_actor
from accounts.client_tokens import client_token_revoke
from accounts.models import ClientToken, ConnectedApp, User
from activity.models import AccessEvent
from memories.models import Memory, TrashBatch
from memories.search.model_profiles import current as current_profile
from tests.mcpbridge.mcp_clients import INIT, JSON, McpHttp, text_of
from tests.memories.fake_llm import Brain
from tests.memories.memory_rows import memory_snapshot, memory_with_history
from tests.personas import signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def test_tools_are_listed_with_schemas_annotations_and_instructions(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)

    async def look(c):  # type: ignore[no-untyped-def]
        return await c.list_tools(), c.instructions, await c.list_prompts()

    listed, instructions, prompts = client.run(look)
    tools = {t.name: t for t in listed.tools}
    assert set(tools) == {
        "get_profile",
        "search_memory",
        "add_memory",
        "add_memories",
        "list_memories",
        "get_memory",
        "update_memory",
        "delete_memory",
        "delete_all_memories",
    }
    search = tools["search_memory"]
    assert search.input_schema["required"] == ["query"]
    assert search.input_schema["additionalProperties"] is False
    assert search.input_schema["properties"]["limit"]["maximum"] == 50
    assert "results" in search.output_schema["properties"]
    assert search.annotations.read_only_hint is True
    assert tools["add_memory"].annotations.read_only_hint is False
    assert tools["add_memory"].annotations.destructive_hint is False
    assert tools["delete_memory"].annotations.destructive_hint is True
    assert tools["delete_all_memories"].input_schema["required"] == ["confirm"]
    assert tools["add_memories"].input_schema["properties"]["texts"]["maxItems"] == 100
    assert "search_memory" in search.description or "Call this before" in search.description
    assert "search_memory" in instructions and "add_memory" in instructions
    assert "get_profile" in instructions and "memory://profile" in instructions
    assert tools["get_profile"].input_schema.get("properties", {}) == {}
    assert [p.name for p in prompts.prompts] == ["remember_what_you_know"]


def test_add_memory_says_plainly_when_the_model_found_nothing_to_store(
    owner: User, mcp_for: Callable[..., McpHttp], fake_provider: Brain
) -> None:
    fake_provider.facts = {"Lisbon": ["Lives in Lisbon"]}
    answer = mcp_for(owner).call("add_memory", {"text": "Thanks, that was helpful!"})
    assert not answer.is_error, text_of(answer)
    assert text_of(answer) == "The model found no lasting fact in this text, so nothing was stored."
    assert answer.structured_content == {
        "memories": [],
        "created": 0,
        "already_known": 0,
        "note": "The model found no lasting fact in this text, so nothing was stored.",
    }
    assert not Memory.objects.filter(owner=owner).exists()


def test_add_search_update_delete_round_trip(owner: User, mcp_for: Callable[..., McpHttp]) -> None:
    client = mcp_for(owner)

    added = client.call("add_memory", {"text": "Drinks oat milk flat whites", "category": "food"})
    assert not added.is_error, text_of(added)
    memory_id = added.structured_content["memories"][0]["id"]
    assert added.structured_content["created"] == 1
    assert memory_id in text_of(added)

    found = client.call("search_memory", {"query": "coffee with oat milk"})
    hits = found.structured_content["results"]
    assert hits[0]["id"] == memory_id
    assert hits[0]["categories"] == ["food"]
    assert hits[0]["origin_app"] == "Cursor on laptop"

    updated = client.call(
        "update_memory", {"memory_id": memory_id, "text": "Switched to black espresso, no milk"}
    )
    assert not updated.is_error, text_of(updated)
    found = client.call("search_memory", {"query": "espresso"})
    assert [h["text"] for h in found.structured_content["results"]] == [
        "Switched to black espresso, no milk"
    ]

    gone = client.call("delete_memory", {"memory_id": memory_id})
    assert gone.structured_content["deleted_id"] == memory_id
    assert gone.structured_content["restorable_days"] == 30
    assert "moved to the user's trash, where the user can restore it for 30 days" in (
        gone.content[0].text  # type: ignore[union-attr]
    )
    assert Memory.objects.get(pk=memory_id).state == "trashed"
    event = AccessEvent.objects.get(owner=owner, action=AccessEvent.Action.DELETE)
    assert [str(i) for i in event.memory_ids] == [memory_id]
    again = client.call("get_memory", {"memory_id": memory_id})
    assert again.is_error and "No memory with that id" in text_of(again)
    assert client.call("search_memory", {"query": "espresso"}).structured_content["results"] == []


def test_search_says_when_nothing_relevant_is_stored(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)
    client.call("add_memories", {"texts": ["Drinks oat milk flat whites", "Lives in Lisbon"]})

    found = client.call("search_memory", {"query": "submarine periscope maintenance"})
    assert not found.is_error
    assert found.structured_content["results"] == []
    assert found.structured_content["min_score"] == current_profile().search.min_score
    assert "Nothing relevant to 'submarine periscope maintenance'" in text_of(found)
    # A relevant question still finds the memory, with a score above the cut-off.
    hits = client.call("search_memory", {"query": "oat milk"}).structured_content["results"]
    assert [h["text"] for h in hits] == ["Drinks oat milk flat whites"]
    assert hits[0]["score"] >= current_profile().search.min_score


def test_list_memories_pages_newest_first(owner: User, mcp_for: Callable[..., McpHttp]) -> None:
    client = mcp_for(owner)
    texts = [f"Fact number {i} about the owner" for i in range(5)]
    added = client.call("add_memories", {"texts": texts})
    assert added.structured_content["created"] == 5

    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        args: dict[str, object] = {"limit": 2}
        if cursor:
            args["cursor"] = cursor
        page = client.call("list_memories", args)
        assert not page.is_error, text_of(page)
        seen += [m["text"] for m in page.structured_content["memories"]]
        cursor = page.structured_content["next_cursor"]
        pages += 1
        if cursor is None:
            break
    assert pages == 3
    assert sorted(seen) == sorted(texts) and len(seen) == 5
    stamps = list(Memory.objects.filter(owner=owner).order_by("-created_at", "-id"))
    assert seen == [m.text for m in stamps]


def test_read_only_token_can_search_but_not_write_or_delete(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    writer = mcp_for(owner, name="writer")
    kept = writer.call("add_memory", {"text": "Lives in Lisbon"}).structured_content
    reader = mcp_for(owner, scopes="read", name="reader")

    hits = reader.call("search_memory", {"query": "Lisbon"}).structured_content["results"]
    assert [h["text"] for h in hits] == ["Lives in Lisbon"]

    refused = reader.call("add_memory", {"text": "Owns a cat"})
    assert refused.is_error and "memories:write" in text_of(refused)
    refused = reader.call("add_memories", {"texts": ["Owns a dog"]})
    assert refused.is_error
    refused = reader.call("update_memory", {"memory_id": kept["memories"][0]["id"], "text": "x y"})
    assert refused.is_error
    refused = reader.call("delete_memory", {"memory_id": kept["memories"][0]["id"]})
    assert refused.is_error and "memories:delete" in text_of(refused)
    refused = reader.call("delete_all_memories", {"confirm": True})
    assert refused.is_error
    assert list(Memory.objects.filter(owner=owner).values_list("text", flat=True)) == [
        "Lives in Lisbon"
    ]


def test_revoked_token_gets_401_on_its_next_request(
    owner: User, mcp_for: Callable[..., McpHttp], server_url: str
) -> None:
    client = mcp_for(owner)
    assert not client.call("search_memory", {"query": "anything"}).is_error
    token = ClientToken.objects.get(owner=owner)
    assert token.last_used_at is not None

    client_token_revoke(actor=owner_actor(owner), token=token.prefix)

    # The SDK client fails the call with an MCPError inside its task group's ExceptionGroup.
    with pytest.raises(ExceptionGroup) as caught:
        client.call("search_memory", {"query": "anything"})
    assert "Server returned an error response" in repr(caught.value)
    raw = httpx2.post(
        f"{server_url}/mcp", json=INIT, headers={**JSON, "authorization": f"Bearer {client.token}"}
    )
    assert raw.status_code == 401
    assert 'error="invalid_token"' in raw.headers["www-authenticate"]


def test_another_users_token_sees_none_of_the_owners_memories(
    owner: User, stranger: User, mcp_for: Callable[..., McpHttp]
) -> None:
    mine = mcp_for(owner)
    memory_id = mine.call("add_memory", {"text": "Has a peanut allergy"}).structured_content[
        "memories"
    ][0]["id"]
    theirs = mcp_for(stranger)

    assert theirs.call("search_memory", {"query": "peanut allergy"}).structured_content == {
        "query": "peanut allergy",
        "results": [],
        "min_score": current_profile().search.min_score,
    }
    assert theirs.call("list_memories", {}).structured_content["memories"] == []
    by_id = theirs.call("get_memory", {"memory_id": memory_id})
    random_id = theirs.call("get_memory", {"memory_id": str(uuid.uuid4())})
    assert by_id.is_error and random_id.is_error
    assert text_of(by_id) == text_of(random_id)
    for tool, args in (
        ("update_memory", {"memory_id": memory_id, "text": "Not allergic"}),
        ("delete_memory", {"memory_id": memory_id}),
    ):
        result = theirs.call(tool, args)
        assert result.is_error and "No memory with that id" in text_of(result)
    assert Memory.objects.get(pk=memory_id).text == "Has a peanut allergy"


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("search_memory", {"query": "x", "bogus": 1}, "unknown argument 'bogus'"),
        ("search_memory", {"query": "x", "limit": 500}, "'limit'"),
        ("search_memory", {"limit": 3}, "'query' is required"),
        ("add_memory", {"text": ["not", "a", "string"]}, "'text'"),
        ("add_memory", {"text": ""}, "'text'"),
        ("add_memories", {"texts": []}, "'texts'"),
        ("list_memories", {"cursor": "not-a-cursor"}, "cursor"),
        ("get_memory", {"memory_id": "not-a-uuid"}, "No memory with that id"),
        ("delete_all_memories", {"confirm": False}, "nothing was deleted"),
    ],
)
def test_malformed_arguments_are_tool_errors_a_model_can_act_on(
    owner: User, mcp_for: Callable[..., McpHttp], tool: str, arguments: dict, expected: str
) -> None:
    result = mcp_for(owner).call(tool, arguments)
    assert result.is_error
    assert expected in text_of(result)
    assert "Traceback" not in text_of(result)
    assert not Memory.objects.exists()


def test_delete_all_needs_confirm_and_the_delete_scope(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)
    client.call("add_memories", {"texts": ["Plays chess", "Likes jazz records"]})
    no_delete = mcp_for(owner, scopes="read,write", name="no delete")
    assert no_delete.call("delete_all_memories", {"confirm": True}).is_error
    assert Memory.objects.filter(owner=owner).count() == 2
    done = client.call("delete_all_memories", {"confirm": True})
    assert done.structured_content == {"deleted": 2, "restorable_days": 30}
    assert set(Memory.objects.filter(owner=owner).values_list("state", flat=True)) == {"trashed"}


def test_an_apps_delete_goes_to_the_trash_and_the_owner_restores_it_in_the_dashboard(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)
    other = mcp_for(owner, name="Claude Desktop")
    hidden_from = ConnectedApp.objects.get(owner=owner, name="Claude Desktop")
    memory = memory_with_history(
        owner_actor(owner), "Collects vinyl records", hide_from=hidden_from
    )
    before = memory_snapshot(owner)

    gone = client.call("delete_memory", {"memory_id": str(memory.id)})

    assert "moved to the user's trash" in text_of(gone)
    assert client.call("get_memory", {"memory_id": str(memory.id)}).is_error
    found = client.call("search_memory", {"query": "vinyl records"})
    assert found.structured_content["results"] == []
    browser = signed_in(owner)
    home = browser.get("/").content.decode()
    assert "<strong>Cursor on laptop</strong> deleted 1 memory" in home  # the notice
    batch = TrashBatch.objects.get(owner=owner)
    back = browser.post("/trash/restore/", {"batch": str(batch.id), "next": "/"})
    assert back.status_code == 302 and back["Location"] == "/"
    assert "Restored 1 memory." in browser.get("/").content.decode()

    assert memory_snapshot(owner) == before  # versions, categories, hiding: as they were
    assert (
        client.call("get_memory", {"memory_id": str(memory.id)}).structured_content["memory"][
            "text"
        ]
        == "Collects vinyl records"
    )
    assert other.call("get_memory", {"memory_id": str(memory.id)}).is_error  # still hidden


def test_missing_or_bad_token_gets_401_pointing_at_the_resource_metadata(
    owner: User, mcp_for: Callable[..., McpHttp], server_url: str
) -> None:
    token = mcp_for(owner).token
    expected = f'resource_metadata="{server_url}/.well-known/oauth-protected-resource/mcp"'

    none = httpx2.post(f"{server_url}/mcp", json=INIT, headers=JSON)
    assert none.status_code == 401
    assert none.headers["www-authenticate"].startswith("Bearer ")
    assert expected in none.headers["www-authenticate"]
    bad = httpx2.post(
        f"{server_url}/mcp", json=INIT, headers={**JSON, "authorization": "Bearer clt_nope"}
    )
    assert bad.status_code == 401 and expected in bad.headers["www-authenticate"]
    # Never from the URL, even a valid token.
    in_url = httpx2.post(f"{server_url}/mcp?access_token={token}", json=INIT, headers=JSON)
    assert in_url.status_code == 401
    ok = httpx2.post(
        f"{server_url}/mcp", json=INIT, headers={**JSON, "authorization": f"Bearer {token}"}
    )
    assert ok.status_code == 200

    metadata = httpx2.get(f"{server_url}/.well-known/oauth-protected-resource/mcp").json()
    assert metadata["resource"] == f"{server_url}/mcp"
    assert metadata["authorization_servers"] == [server_url]
    assert "memories:read" in metadata["scopes_supported"]
    root = httpx2.get(f"{server_url}/.well-known/oauth-protected-resource").json()
    assert root == metadata


def test_public_url_names_the_resource_when_set(settings: SettingsWrapper, server_url: str) -> None:
    settings.PUBLIC_URL = "https://memory.example.com"
    none = httpx2.post(f"{server_url}/mcp", json=INIT, headers=JSON)
    assert none.status_code == 401
    assert (
        'resource_metadata="https://memory.example.com/.well-known/oauth-protected-resource/mcp"'
        in none.headers["www-authenticate"]
    )
    metadata = httpx2.get(f"{server_url}/.well-known/oauth-protected-resource/mcp").json()
    assert metadata["resource"] == "https://memory.example.com/mcp"
    assert metadata["authorization_servers"] == ["https://memory.example.com"]


def test_foreign_host_and_browser_origin_are_refused(server_url: str) -> None:
    port = server_url.rsplit(":", 1)[1]
    bad_host = httpx2.post(
        f"{server_url}/mcp", json=INIT, headers={**JSON, "host": f"evil.example:{port}"}
    )
    assert bad_host.status_code == 400
    bad_origin = httpx2.post(
        f"{server_url}/mcp", json=INIT, headers={**JSON, "origin": "https://evil.example"}
    )
    assert bad_origin.status_code == 403
    # The server's own origin may call from a browser: preflight without a token, CORS headers.
    preflight = httpx2.options(f"{server_url}/mcp", headers={"origin": server_url})
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == server_url
    assert "authorization" in preflight.headers["access-control-allow-headers"]
    own = httpx2.post(f"{server_url}/mcp", json=INIT, headers={**JSON, "origin": server_url})
    assert own.status_code == 401
    assert "www-authenticate" in own.headers["access-control-expose-headers"]


def test_paused_app_is_refused_clearly_and_nothing_is_written(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)
    ConnectedApp.objects.filter(owner=owner, kind=ConnectedApp.Kind.TOKEN).update(paused=True)
    refused = client.call("add_memory", {"text": "Likes jazz"})
    assert refused.is_error and "paused" in text_of(refused)
    assert client.call("search_memory", {"query": "jazz"}).is_error
    assert not Memory.objects.exists()


def test_access_events_name_the_token_never_the_user_agent(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner, name="VS Code at work")
    client.headers = {"User-Agent": "Claude-Desktop/9.9"}
    client.call("add_memory", {"text": "Uses neovim"})
    client.call("search_memory", {"query": "editor"})
    # The token's creation is the owner's own event; the two calls are the app's.
    events = AccessEvent.objects.filter(
        owner=owner, action__in=[AccessEvent.Action.ADD, AccessEvent.Action.SEARCH]
    )
    assert len(events) == 2
    assert {e.app_name for e in events} == {"VS Code at work"}
    assert {e.app.kind for e in events if e.app} == {ConnectedApp.Kind.TOKEN}


def test_the_modern_protocol_path_is_authenticated_too(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)

    async def work(c):  # type: ignore[no-untyped-def]
        await c.call_tool("add_memory", {"text": "Speaks Portuguese"})
        return await c.call_tool("search_memory", {"query": "language"})

    found = client.run(work, mode="auto")
    assert [h["text"] for h in found.structured_content["results"]] == ["Speaks Portuguese"]


def test_prompt_asks_the_client_to_backfill_with_add_memories(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    prompt = mcp_for(owner).run(lambda c: c.get_prompt("remember_what_you_know"))
    text = getattr(prompt.messages[0].content, "text", "")
    assert "add_memories" in text and "third person" in text
