"""Search in Chinese, Japanese and German through MCP, as an AI client sees it: the real MCP SDK
client over Streamable HTTP against the app under uvicorn (issue 36, "Words in every script")."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own commas

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from tests.mcpbridge.mcp_clients import McpHttp, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

MEMORIES = [
    "我对花生过敏，吃了会起疹子。",
    "我在一家软件公司做产品经理，已经工作五年了。",
    "仕事が忙しくて、最近あまり眠れていません。",
    "Die Kinder spielen jeden Nachmittag im Garten.",
    "I drink oat milk flat whites every morning.",
]


def test_a_word_in_each_script_finds_its_memory_first(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)
    added = client.call("add_memories", {"texts": MEMORIES})
    assert not added.is_error, text_of(added)
    for query, expected in (
        ("过敏", MEMORIES[0]),
        ("工作", MEMORIES[1]),
        ("仕事", MEMORIES[2]),
        ("Kind", MEMORIES[3]),
    ):
        found = client.call("search_memory", {"query": query})
        assert not found.is_error, text_of(found)
        results = found.structured_content["results"]
        assert results and results[0]["text"] == expected, (query, results)
