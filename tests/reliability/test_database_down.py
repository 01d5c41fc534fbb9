"""PostgreSQL stopped while MCP clients are connected: they get a 503 or a tool error saying so,
nothing escapes the server, and the same sessions work again once it is back.

This stops the test run's own embedded cluster (the one every test here uses) and starts it again
in a `finally`, so the tests after it find it running; the test process's connection, cut by the
stop, is closed there too. `bench faults` measures the same under load.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from django.conf import settings
from django.db import connection
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from accounts.models import User
from kernel.embedded_db import start_server, stop_server
from kernel.middleware import UNAVAILABLE
from memories.models import Memory
from tests.mcpbridge.mcp_clients import McpHttp, stdio_server, text_of

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

# Only a guard against a hang (the bench measures how fast a failure is): far above a failing
# connect, far below the gunicorn worker timeout.
HANG = 30


@pytest.fixture
def server_errors(caplog: pytest.LogCaptureFixture) -> Iterator[list[logging.LogRecord]]:
    """Error records from the server: an exception escaping the ASGI app (uvicorn's own logger,
    which does not propagate) or a tool failing unexpectedly (the MCP SDK's)."""
    uvicorn = logging.getLogger("uvicorn")
    uvicorn.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.WARNING):
            yield caplog.records
    finally:
        uvicorn.removeHandler(caplog.handler)


class Outage:
    """The embedded cluster stopped inside a `with`, and always started again after it."""

    def __init__(self) -> None:
        self.pgdata = Path(settings.EMBEDDED_PGDATA)
        self.socket_dir: str | None = None

    async def __aenter__(self) -> Outage:
        self.socket_dir = await anyio.to_thread.run_sync(
            lambda: stop_server(self.pgdata, mode="fast")
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.socket_dir is not None:
            await anyio.to_thread.run_sync(start_server, self.pgdata, self.socket_dir)


def _raw_tool_call(url: str, token: str) -> httpx2.Response:
    """One tools/call as plain HTTP, to see the status and headers an SDK client hides."""
    body = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "search_memory", "arguments": {"query": "bees"}},
    }
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18",
    }
    with httpx2.Client(timeout=HANG) as http:
        return http.post(f"{url}/mcp", json=body, headers=headers)


def test_mcp_clients_fail_fast_while_postgres_is_down_and_recover_in_the_same_sessions(
    owner: User,
    mcp_for: Callable[..., McpHttp],
    server_errors: list[logging.LogRecord],
) -> None:
    http = mcp_for(owner)
    token = http.token
    assert token is not None
    stdio = stdio_server(owner.email)
    seen: dict[str, Any] = {}

    async def drill(web: Client) -> None:
        async with Client(stdio, mode="legacy") as local:
            seen["acked_http"] = await web.call_tool(
                "add_memory", {"text": "Keeps bees on the roof"}
            )
            seen["acked_stdio"] = await local.call_tool(
                "add_memory", {"text": "Brews cider in May"}
            )
            async with Outage():
                with anyio.fail_after(HANG):
                    with pytest.raises(MCPError) as refused:
                        await web.call_tool("search_memory", {"query": "bees"})
                    seen["http_error"] = refused.value
                    seen["raw"] = await anyio.to_thread.run_sync(_raw_tool_call, http.url, token)
                    seen["stdio_down"] = await local.call_tool(
                        "add_memory", {"text": "Written while the database was down"}
                    )
            with anyio.fail_after(HANG):
                seen["http_back"] = await web.call_tool("search_memory", {"query": "bees"})
                seen["stdio_back"] = await local.call_tool("search_memory", {"query": "cider"})

    try:
        http.run(drill)
    finally:
        connection.close()  # this thread's connection died with the server; the next reconnects

    assert seen["acked_http"].structured_content["created"] == 1
    assert seen["acked_stdio"].structured_content["created"] == 1
    # Over HTTP the request is refused before any tool runs: 503, retry later, a JSON-RPC error.
    assert seen["http_error"].error.message == UNAVAILABLE
    raw = seen["raw"]
    assert raw.status_code == 503
    assert raw.headers["retry-after"] == "5"
    assert raw.json()["error"]["message"] == UNAVAILABLE
    # Over stdio the process stays up and the tool says what happened.
    assert seen["stdio_down"].is_error
    assert UNAVAILABLE in text_of(seen["stdio_down"])
    # The same sessions work again, and see the writes acknowledged before the outage.
    assert not seen["http_back"].is_error
    assert [h["text"] for h in seen["http_back"].structured_content["results"]][:1] == [
        "Keeps bees on the roof"
    ]
    assert not seen["stdio_back"].is_error
    assert "Brews cider in May" in text_of(seen["stdio_back"])
    # A new session too, and nothing acknowledged is missing.
    assert not http.call("list_memories", {}).is_error
    assert set(Memory.objects.filter(owner=owner).values_list("text", flat=True)) >= {
        "Keeps bees on the roof",
        "Brews cider in May",
    }
    escaped = [r for r in server_errors if r.levelno >= logging.ERROR]
    assert escaped == [], [r.getMessage() for r in escaped]
