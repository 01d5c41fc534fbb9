"""Each tool's scope is declared once, next to the tool (`server.TOOLS`): the declaration must be
what the service layer really asks for, and the HTTP layer's step-up table is built from it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.actors import owner_actor
from accounts.models import ALL_SCOPES, User
from mcpbridge import http, server
from memories.services.adding import memory_create
from tests.mcpbridge.mcp_clients import McpHttp, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

SHORT = {"memories:read": "read", "memories:write": "write", "memories:delete": "delete"}


def test_a_token_without_a_tools_declared_scope_is_refused_that_scope_and_changes_nothing(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    memory = memory_create(actor=owner_actor(owner), text="Drinks green tea").memory
    arguments: dict[str, dict[str, Any]] = {
        "get_profile": {},
        "search_memory": {"query": "tea"},
        "add_memory": {"text": "Plays the oboe"},
        "add_memories": {"texts": ["Plays the oboe"]},
        "list_memories": {},
        "get_memory": {"memory_id": str(memory.id)},
        "update_memory": {"memory_id": str(memory.id), "text": "Drinks black tea"},
        "delete_memory": {"memory_id": str(memory.id)},
        "delete_all_memories": {"confirm": True},
    }
    assert sorted(arguments) == sorted(t.fn.__name__ for t in server.TOOLS)
    for tool in server.TOOLS:
        others = ",".join(SHORT[s] for s in ALL_SCOPES if s != tool.scope)
        client = mcp_for(owner, scopes=others, name=f"without {tool.scope} for {tool.fn.__name__}")
        result = client.call(tool.fn.__name__, arguments[tool.fn.__name__])
        assert result.is_error, tool.fn.__name__
        assert f"not granted {tool.scope}" in text_of(result), tool.fn.__name__
    memory.refresh_from_db()
    assert memory.text == "Drinks green tea"


def test_the_step_up_table_is_the_changing_tools_with_their_declared_scopes() -> None:
    assert http.TOOL_SCOPES == {
        "add_memory": "memories:write",
        "add_memories": "memories:write",
        "update_memory": "memories:write",
        "delete_memory": "memories:delete",
        "delete_all_memories": "memories:delete",
    }
