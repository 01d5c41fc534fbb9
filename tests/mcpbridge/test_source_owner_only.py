"""An app reading an imported memory over MCP (the real SDK client, over HTTP) gets the memory,
never the conversation title or the message it was cut from: those are the owner's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from accounts.models import User
from memories.models import Memory
from tests.mcpbridge.mcp_clients import McpHttp, text_of
from tests.memories.exports import backfill, claude_export, write_json

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def test_an_app_gets_no_source_title_or_excerpt_over_mcp(
    owner: User, mcp_for: Callable[..., McpHttp], tmp_path: Path
) -> None:
    path = write_json(tmp_path / "conversations.json", claude_export())
    backfill(path, owner, "--yes", "--extractor", "local")
    memory = Memory.objects.get(owner=owner, text="I am vegetarian")
    assert memory.provenance["excerpt"] == "I am vegetarian and I live in Lisbon."
    client = mcp_for(owner)

    answers = [
        client.call("get_memory", {"memory_id": str(memory.id)}),
        client.call("search_memory", {"query": "vegetarian"}),
        client.call("list_memories", {}),
    ]
    for answer in answers:
        assert not answer.is_error, text_of(answer)
        said = text_of(answer) + json.dumps(answer.structured_content)
        assert "I am vegetarian" in said  # the memory itself is there
        assert "I am vegetarian and" not in said  # the message it came from is not
        assert "Trip planning" not in said
