"""Sensitive facts in Chinese and German through MCP, as AI clients see them: the real MCP SDK
client over Streamable HTTP against the app under uvicorn (issue 36, "Sensitive labels in every
language"). One app writes; a second app with the default consent (sensitive categories hidden)
neither lists, finds nor opens them; the owner sees them."""

# ruff: noqa: RUF001 - Chinese text is written with its own commas

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from memories.models import Memory
from tests.mcpbridge.mcp_clients import McpHttp, text_of
from tests.personas import signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

HIV = "我是艾滋病病毒携带者，每天按时吃抗病毒药。"
SALARY = "Ich verdiene 5.200 Euro brutto im Monat."
ORDINARY = "Wir haben einen Dackel namens Bruno."


def test_a_chinese_hiv_fact_and_a_german_salary_are_hidden_from_a_default_app_not_the_owner(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    writer = mcp_for(owner)  # the default consent: sensitive categories hidden
    reader = mcp_for(owner, name="Claude Desktop")
    added = writer.call("add_memories", {"texts": [HIV, SALARY, ORDINARY]})
    assert not added.is_error, text_of(added)
    labels = {m["text"]: m["categories"] for m in added.structured_content["memories"]}
    assert "health" in labels[HIV] and "finance" in labels[SALARY], labels

    listed = reader.call("list_memories", {}).structured_content["memories"]
    assert [m["text"] for m in listed] == [ORDINARY]
    for query in ("艾滋病", "HIV", "Gehalt", "salary", "brutto"):
        found = reader.call("search_memory", {"query": query}).structured_content["results"]
        assert all(hit["text"] == ORDINARY for hit in found), (query, found)
    for text in (HIV, SALARY):
        memory = Memory.objects.get(owner=owner, text=text)
        opened = reader.call("get_memory", {"memory_id": str(memory.id)})
        assert opened.is_error and text not in text_of(opened)

    # The app that wrote them reads them back; the owner sees them on the dashboard.
    own = {m["text"] for m in writer.call("list_memories", {}).structured_content["memories"]}
    assert {HIV, SALARY} <= own
    page = signed_in(owner).get("/").content.decode()
    assert HIV in page and SALARY in page
