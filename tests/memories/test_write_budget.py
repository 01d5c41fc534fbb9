"""An app with write scope cannot grow its owner's store without bound (issue 24, item 4).

The attack: a client token with write scope adds memory after memory, through MCP over HTTP and
the REST API at once. Past the app's write budget (here lowered to 25 an hour), every door
refuses with a clear error and HTTP 429 + Retry-After, and stores nothing of the refused call;
the budget is one count in PostgreSQL, whichever door or worker spends it. The owner's own doors
and imports are not counted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from django.test import Client
from mcp.client import Client as McpClient
from mcp.shared.exceptions import MCPError

from accounts.actors import owner_actor
from accounts.models import User
from memories.ingest.types import Conversation, Message, ParsedExport
from memories.models import Memory
from memories.services.adding import NewMemory, memory_create_many
from memories.services.imports import import_execute
from tests.accounts.oauth_client import mcp_call
from tests.mcpbridge.mcp_clients import stdio_server, text_of
from tests.personas import issue_token, signed_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BUDGET = 25


@pytest.fixture(autouse=True)
def _small_budget(settings: Any) -> None:
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "app_writes": f"{BUDGET}/h",
        "app_writes_day": "1000/d",
    }


def _leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def test_an_app_cannot_grow_the_store_past_its_write_budget_through_any_entry_point(
    owner: User,
    server_url: str,
) -> None:
    token = issue_token(owner, name="Greedy", scopes=["memories:read", "memories:write"]).secret
    api = Client(headers={"Authorization": f"Bearer {token}"})
    texts = [f"Fact number {n} about the owner" for n in range(BUDGET + 10)]

    first = mcp_call(server_url, token, "add_memories", {"texts": texts[:20]})
    assert first.status_code == 200 and not first.json()["result"]["isError"]
    # A duplicate is not a new memory: answered, not counted.
    again = api.post(
        "/api/v1/memories", json.dumps({"text": texts[0]}), content_type="application/json"
    )
    assert again.status_code == 200
    for text in texts[20:BUDGET]:  # the REST API spends the same budget
        created = api.post(
            "/api/v1/memories", json.dumps({"text": text}), content_type="application/json"
        )
        assert created.status_code == 201, created.content
    assert Memory.objects.filter(owner=owner).count() == BUDGET

    # Past the budget: every door says so, with a time to come back, and stores nothing.
    refused_api = api.post(
        "/api/v1/memories", json.dumps({"text": texts[BUDGET]}), content_type="application/json"
    )
    assert refused_api.status_code == 429, refused_api.content
    assert 0 < int(refused_api["Retry-After"]) <= 3600
    assert refused_api.json()["error"]["code"] == "rate_limited"
    assert "Nothing was stored" in refused_api.json()["error"]["message"]
    refused_mcp = mcp_call(server_url, token, "add_memories", {"texts": texts[BUDGET:]})
    assert refused_mcp.status_code == 429
    assert 0 < int(refused_mcp.headers["retry-after"]) <= 3600
    error = refused_mcp.json()["error"]
    assert "Nothing was stored" in error["message"] and error["data"]["retry_after"] > 0
    some = Memory.objects.filter(owner=owner).first()
    assert some is not None
    changed = mcp_call(
        server_url, token, "update_memory", {"memory_id": str(some.id), "text": "Rewritten"}
    )
    assert changed.status_code == 429  # a new text is a write too (it keeps a version)
    assert Memory.objects.filter(owner=owner).count() == BUDGET
    assert not Memory.objects.filter(owner=owner, text="Rewritten").exists()

    # Reading is not writing.
    assert mcp_call(server_url, token, "search_memory", {"query": "fact"}).status_code == 200

    # The owner's own doors and imports are not this app's budget.
    owner_browser = signed_in(owner)
    added = owner_browser.post("/memories/add/", {"text": "The owner adds this by hand"})
    assert added.status_code in (200, 302)
    own_api = owner_browser.post(
        "/api/v1/memories", json.dumps({"text": "And this"}), content_type="application/json"
    )
    assert own_api.status_code == 201
    export = ParsedExport(
        source="claude",
        conversations=[
            Conversation(
                id="c-1",
                title="",
                created_at=None,
                messages=tuple(
                    Message(id=f"m-{n}", role="user", text=f"Imported fact {n}")
                    for n in range(BUDGET + 5)
                ),
            )
        ],
    )
    run = import_execute(actor=owner_actor(owner), export=export, extractor="none")
    assert run.memories_created == BUDGET + 5


def test_a_call_larger_than_the_whole_budget_is_refused_and_says_so(
    owner: User,
    mcp_for: Callable[..., Any],
) -> None:
    """Through the MCP SDK's own client: the reason reaches the model, not "Server returned an
    error response"."""
    client = mcp_for(owner, scopes="read,write")
    with pytest.raises(BaseException) as refused:  # the SDK's MCPError, in anyio's group
        client.call(
            "add_memories", {"texts": [f"One of many facts {n}" for n in range(BUDGET + 1)]}
        )
    errors = _leaves(refused.value)
    assert any(isinstance(e, MCPError) for e in errors), errors
    said = " ".join(str(e) for e in errors)
    assert "at most 25" in said and "send fewer" in said
    assert not Memory.objects.filter(owner=owner).exists()


def test_the_budget_holds_across_concurrent_writers(owner: User) -> None:
    """Two workers spending one app's budget at once cannot overdraw it: the counter row is
    locked by the first write's transaction until it commits."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    from accounts.credentials import resolve_bearer
    from memories.write_budget import WriteBudgetExceeded

    token = issue_token(owner, name="Twin", scopes=["memories:read", "memories:write"]).secret
    credential = resolve_bearer(token, resource="test")
    assert credential is not None

    def write(n: int) -> int:
        try:
            batch = [NewMemory(text=f"Parallel fact {n}-{k}") for k in range(10)]
            return len(memory_create_many(actor=credential.actor(), items=batch))
        except WriteBudgetExceeded:
            return 0
        finally:
            connections.close_all()

    with ThreadPoolExecutor(4) as pool:
        stored = sum(pool.map(write, range(4)))
    assert stored == 20  # two batches of ten fit in 25; the others were refused whole
    assert Memory.objects.filter(owner=owner).count() == 20


def test_past_its_write_budget_a_stdio_app_gets_a_clear_tool_error(owner: User) -> None:
    """Issue 24 item 4 over stdio (no HTTP status to carry it): the tool error says why and when,
    and the process keeps serving reads."""
    params = stdio_server(owner.email, "--app", "greedy")
    params.env = {**(params.env or {}), "RATE_LIMIT_APP_WRITES": "3/h"}

    async def session() -> tuple[Any, Any, Any]:
        async with McpClient(params, mode="legacy") as c:
            first = await c.call_tool("add_memories", {"texts": ["Likes tea", "Likes figs"]})
            over = await c.call_tool("add_memories", {"texts": ["Likes rain", "Likes snow"]})
            read = await c.call_tool("list_memories", {})
            return first, over, read

    first, over, read = anyio.run(session)
    assert not first.is_error and not read.is_error
    assert over.is_error and "try again in" in text_of(over)
    assert "Nothing was stored" in text_of(over)
    assert Memory.objects.filter(owner=owner).count() == 2
