"""A POST of one JSON-RPC request is answered in its own task (`mcpbridge.single_call`): the same
status, headers and bytes as the SDK's stateless transport gives, for every kind of answer; what
that path does not take (initialize, notifications, batches, bad headers, the 2026-era version)
still reaches the SDK."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest

from accounts.models import User
from mcpbridge import single_call
from memories.models import Memory
from tests.mcpbridge.mcp_clients import INIT, JSON, McpHttp

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def call(n: int | str, method: str, params: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": n, "method": method}
    if params is not None:
        body["params"] = params
    return body


def tool(n: int, name: str, arguments: Any) -> dict[str, Any]:
    return call(n, "tools/call", {"name": name, "arguments": arguments})


# Every kind of answer: results of each read tool, tool errors (domain, arguments, unknown tool),
# JSON-RPC errors (unknown method, bad params), string and integer ids, both handshake versions.
REQUESTS: list[tuple[dict[str, Any], dict[str, str]]] = [
    (call(1, "tools/list"), {}),
    (call("a-string-id", "tools/list"), {"mcp-protocol-version": "2025-06-18"}),
    (call(3, "ping"), {}),
    (call(4, "prompts/list"), {"mcp-protocol-version": "2025-11-25"}),
    (call(5, "prompts/get", {"name": "remember_what_you_know"}), {}),
    (tool(6, "search_memory", {"query": "tea"}), {"mcp-protocol-version": "2025-11-25"}),
    (tool(7, "search_memory", {"query": "tea", "limit": 1, "category": "food"}), {}),
    (tool(8, "search_memory", {"query": "zzzz qqqq nothing"}), {}),
    (tool(9, "list_memories", {"limit": 5}), {}),
    (tool(10, "get_memory", {"memory_id": "00000000-0000-0000-0000-000000000000"}), {}),
    (tool(11, "search_memory", {"query": "tea", "surprise": 1}), {}),
    (tool(12, "search_memory", {"limit": 0}), {}),
    (tool(13, "no_such_tool", {}), {}),
    (call(14, "tools/call", {"arguments": {}}), {}),
    (call(16, "resources/list"), {}),
    (call(17, "no/such/method"), {}),
    (tool(18, "delete_all_memories", {"confirm": False}), {}),
]


def post(url: str, token: str, body: Any, headers: dict[str, str]) -> httpx2.Response:
    merged = {**JSON, "authorization": f"Bearer {token}", **headers}
    return httpx2.post(f"{url}/mcp", content=json.dumps(body), headers=merged, timeout=60)


def answer_of(response: httpx2.Response) -> tuple[int, str | None, bytes]:
    return response.status_code, response.headers.get("content-type"), response.content


def taken_by_single_path(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The methods of the requests `single_call.answer` answers from now on."""
    taken: list[str] = []
    real_answer = single_call.answer

    async def counted(manager: Any, message: Any, *args: Any) -> None:
        taken.append(message.method)
        await real_answer(manager, message, *args)

    monkeypatch.setattr(single_call, "answer", counted)
    return taken


@pytest.fixture
def store(owner: User, mcp_for: Callable[..., McpHttp]) -> McpHttp:
    client = mcp_for(owner)
    for text in ("Drinks green tea every morning", "Likes jasmine tea", "Works on a compiler"):
        assert not client.call("add_memory", {"text": text}).is_error
    assert Memory.objects.filter(owner=owner).count() == 3
    return client


def test_every_kind_of_request_gets_the_same_bytes_as_from_the_sdk_transport(
    store: McpHttp, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert store.token is not None
    taken = taken_by_single_path(monkeypatch)
    ours = [answer_of(post(store.url, store.token, body, h)) for body, h in REQUESTS]
    assert len(taken) == len(REQUESTS), "every one of these is a single ordinary request"

    monkeypatch.setattr(single_call, "single_request", lambda *args: None)
    sdk = [answer_of(post(store.url, store.token, body, h)) for body, h in REQUESTS]
    assert len(taken) == len(REQUESTS)
    for (body, _), mine, theirs in zip(REQUESTS, ours, sdk, strict=True):
        assert mine == theirs, body
    assert all(status == 200 for status, _, _ in ours)
    found = json.loads(ours[5][2])["result"]["structuredContent"]["results"]
    assert {hit["text"] for hit in found} >= {"Drinks green tea every morning", "Likes jasmine tea"}
    assert json.loads(ours[12][2])["result"]["isError"] is True  # unknown tool: a tool error
    assert json.loads(ours[15][2])["error"]["code"] == -32601  # no such method


def test_what_the_single_path_does_not_take_still_reaches_the_sdk(
    store: McpHttp, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert store.token is not None
    taken = taken_by_single_path(monkeypatch)
    url, token = store.url, store.token
    notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert post(url, token, INIT, {}).json()["result"]["serverInfo"]["name"] == "context-layer"
    assert post(url, token, notification, {}).status_code == 202
    batch = post(url, token, [call(1, "ping"), call(2, "ping")], {})
    assert batch.status_code == 400  # the SDK's answer to a batch, unchanged
    assert post(url, token, call(3, "ping"), {"accept": "text/event-stream"}).status_code == 406
    unparsable = httpx2.post(
        f"{url}/mcp",
        content=b"{not json",
        headers={**JSON, "authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert unparsable.json()["error"]["code"] == -32700
    assert post(url, token, call(4, "ping"), {"content-type": "text/plain"}).status_code == 400
    assert post(url, token, call(6, "tools/call", "not an object"), {}).status_code == 400
    modern = post(url, token, call(5, "tools/list"), {"mcp-protocol-version": "2026-07-28"})
    assert modern.status_code in (200, 400)  # the SDK's 2026-era entry answers it, not us
    assert taken == []
