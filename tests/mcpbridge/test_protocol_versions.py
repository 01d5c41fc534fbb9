"""What connectors require of the tools and the protocol, checked through the real MCP SDK client:
both protocol versions clients speak today on the same `/mcp`, and tool annotations stated
explicitly (ChatGPT refuses an app whose tools leave a hint unset)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from accounts.models import User
from memories.models import Memory
from tests.mcpbridge.mcp_clients import McpHttp

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
HINTS = ("read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint")
# The initialize handshake (2025-11-25, what most clients send today) and the stateless
# `server/discover` era (2026-07-28); "auto" is the SDK default: probe discover, fall back.
MODES = [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28"), ("auto", "2026-07-28")]


@pytest.mark.parametrize(("mode", "version"), MODES)
def test_both_protocol_versions_are_served_on_the_same_mcp_endpoint(
    owner: User, mcp_for: Callable[..., McpHttp], mode: str, version: str
) -> None:
    client = mcp_for(owner)

    async def work(c: Any) -> tuple[str, Any, Any]:
        await c.call_tool("add_memory", {"text": f"Reads the {version} spec", "category": "work"})
        found = await c.call_tool("search_memory", {"query": "spec"})
        return c.protocol_version, found, await c.list_prompts()

    negotiated, found, prompts = client.run(work, mode=mode)
    assert negotiated == version
    assert not found.is_error, found
    assert [h["text"] for h in found.structured_content["results"]] == [f"Reads the {version} spec"]
    assert [p.name for p in prompts.prompts] == ["remember_what_you_know"]
    assert Memory.objects.get(owner=owner).categories == ["work"]


@pytest.mark.parametrize(("mode", "version"), MODES[:2])
def test_every_tool_states_all_four_annotation_hints_explicitly(
    owner: User, mcp_for: Callable[..., McpHttp], mode: str, version: str
) -> None:
    listed = mcp_for(owner).run(lambda c: c.list_tools(), mode=mode)
    assert len(listed.tools) == 9
    for tool in listed.tools:
        assert tool.annotations is not None, tool.name
        hints = tool.annotations.model_dump()
        missing = [h for h in HINTS if hints[h] is None]
        assert not missing, f"{tool.name} leaves {missing} unset ({version})"
        assert hints["open_world_hint"] is False, tool.name  # only the user's own store
        assert tool.annotations.title, tool.name
    by_name = {t.name: t.annotations for t in listed.tools if t.annotations is not None}
    for name in ("get_profile", "search_memory", "list_memories", "get_memory"):
        assert by_name[name].read_only_hint is True and by_name[name].destructive_hint is False
    for name in ("update_memory", "delete_memory", "delete_all_memories"):
        assert by_name[name].read_only_hint is False and by_name[name].destructive_hint is True
    for name in ("add_memory", "add_memories"):
        assert by_name[name].read_only_hint is False and by_name[name].destructive_hint is False


def test_the_category_of_an_add_labels_the_new_memory_and_the_schema_says_so(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    listed = mcp_for(owner).run(lambda c: c.list_tools())
    schemas = {
        t.name: t.input_schema["properties"]["category"]
        for t in listed.tools
        if "category" in t.input_schema["properties"]
    }
    for name in ("add_memory", "add_memories"):
        text = str(schemas[name])
        assert "Only memories" not in text, text
        assert "new memor" in text.lower(), text
    for name in ("search_memory", "list_memories"):
        assert "Only memories in this category" in str(schemas[name])


def test_every_tool_schema_is_valid_json_schema_2020_12(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    """What the conformance scenario json-schema-2020-12 asks of its fixture tool, asked of ours:
    input and output schemas as listed are valid 2020-12 schemas, and strict about arguments."""
    listed = mcp_for(owner).run(lambda c: c.list_tools(), mode="2026-07-28")
    for tool in listed.tools:
        for schema in (tool.input_schema, tool.output_schema):
            assert schema is not None, tool.name
            assert schema.get("$schema", DIALECT) == DIALECT, tool.name
            Draft202012Validator.check_schema(schema)
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema["additionalProperties"] is False, tool.name
        validator = Draft202012Validator(tool.input_schema)
        assert not validator.is_valid({"no_such_argument": 1}), tool.name
