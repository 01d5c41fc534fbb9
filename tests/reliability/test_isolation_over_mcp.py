"""Isolation through MCP, over Streamable HTTP and over stdio (real SDK clients): no user reads,
changes or learns of another user's memory (the property: tests/reliability/isolation_doors.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp.client import Client as McpClient
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.mcpbridge.mcp_clients import stdio_server
from tests.personas import issue_token
from tests.reliability.isolation_doors import (
    SCOPES,
    EntryPoint,
    Target,
    World,
    run_entry_point,
    through_an_entry_point,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.usefixtures("quiet_audit_log"),
]


class McpEntryPoint(EntryPoint):
    """One long-lived MCP SDK client session per user, driven from this thread via a portal."""

    def __init__(self, name: str, portal: BlockingPortal, clients: list[McpClient]) -> None:
        self.name, self.portal, self.clients = name, portal, clients

    def call(self, who: int, tool: str, arguments: dict[str, Any]) -> bytes:
        result = self.portal.call(self.clients[who].call_tool, tool, arguments)
        return result.model_dump_json(by_alias=True).encode()

    def add(self, who: int, text: str) -> bytes:
        return self.call(who, "add_memory", {"text": text})

    # MCP has no versions, restore, state or app tools: those steps read, change or delete.
    TOOL = {"versions": "get", "restore": "update", "state": "update", "bulk": "delete"}
    TOOL |= {"app": "get", "import": "get", "proposal": "update"}

    def by_id(self, who: int, op: str, target: Target, step: int) -> bytes | None:
        mid = str(target.memory_id)
        op = self.TOOL.get(op, op)
        if op == "get":
            return self.call(who, "get_memory", {"memory_id": mid})
        if op == "update":
            return self.call(who, "update_memory", {"memory_id": mid, "text": target.text})
        if op == "delete":
            return self.call(who, "delete_memory", {"memory_id": mid})
        return None  # restore_mix names the caller's own memory

    def sweep(self, who: int, op: str, query: str, step: int) -> bytes | None:
        if op == "list" or (op == "export" and step % 2):  # no export tool: list or search
            return self.call(who, "list_memories", {"limit": 100})
        return self.call(who, "search_memory", {"query": query, "limit": 50})


@asynccontextmanager
async def _http_session(url: str, token: str) -> AsyncIterator[McpClient]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
        McpClient(streamable_http_client(f"{url}/mcp", http_client=http), mode="legacy") as c,
    ):
        yield c


@asynccontextmanager
async def _stdio_session(params: StdioServerParameters) -> AsyncIterator[McpClient]:
    async with McpClient(params, mode="legacy") as c:
        yield c


@asynccontextmanager
async def _all_open(sessions: list[Any]) -> AsyncIterator[list[McpClient]]:
    """Open the sessions concurrently (a stdio server takes seconds to start) and keep them
    open until exit; each is entered and left in its own task, as anyio requires."""
    clients: list[McpClient | None] = [None] * len(sessions)
    ready = [anyio.Event() for _ in sessions]
    done = anyio.Event()

    async def hold(i: int) -> None:
        async with sessions[i] as client:
            clients[i] = client
            ready[i].set()
            await done.wait()

    async with anyio.create_task_group() as tg:
        for i in range(len(sessions)):
            tg.start_soon(hold, i)
        for event in ready:
            await event.wait()
        try:
            yield [c for c in clients if c is not None]
        finally:
            done.set()


def _mcp_entry_point(name: str, sessions: list[Any]) -> Iterator[McpEntryPoint]:
    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(_all_open(sessions)) as clients,
    ):
        yield McpEntryPoint(name, portal, clients)


@through_an_entry_point
def test_mcp_over_http_never_shows_or_changes_another_tenants_memory(
    server_url: str,
) -> None:
    def make(world: World) -> Iterator[EntryPoint]:
        tokens = [issue_token(u, name="Cursor", scopes=list(SCOPES)).secret for u in world.users]
        yield from _mcp_entry_point("mcp-http", [_http_session(server_url, t) for t in tokens])

    run_entry_point(make, 8)


@through_an_entry_point
def test_mcp_over_stdio_never_shows_or_changes_another_tenants_memory() -> None:
    def make(world: World) -> Iterator[EntryPoint]:
        yield from _mcp_entry_point(
            "mcp-stdio", [_stdio_session(stdio_server(u.email)) for u in world.users]
        )

    run_entry_point(make, 6)
