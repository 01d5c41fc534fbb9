"""MCP clients the tests drive: a real SDK client over Streamable HTTP per bearer token
(`McpHttp`), the stdio server as a client configures it, and a raw JSON-RPC initialize for
tests below the SDK. The HTTP server they talk to is the `server_url` fixture
(tests/conftest.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx2
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from tests.servers import subprocess_database_url

T = TypeVar("T")


ROOT = Path(__file__).resolve().parents[2]


# A raw JSON-RPC initialize, and the headers Streamable HTTP wants (for tests below the SDK).
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}


JSON = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def stdio_env() -> dict[str, str]:
    """`manage.py mcp` as a subprocess uses this run's test database (on the embedded server)
    and data folder."""
    return {
        "DATABASE_URL": subprocess_database_url(),
        "CONTEXT_LAYER_HOME": os.environ["CONTEXT_LAYER_HOME"],
        "DJANGO_SETTINGS_MODULE": "contextlayer.settings",
        "LOG_LEVEL": "WARNING",
    }


def stdio_server(user: str, *extra: str) -> StdioServerParameters:
    """The stdio MCP server for `user`, as a client configures it."""
    return StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp", "--user", user, *extra],
        env=stdio_env(),
        cwd=str(ROOT),
    )


def stdio_call(user: str, app: str, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    """One tool call through the stdio server for `user`'s app `app`, in a thread of its own: a
    browser test's Playwright owns this thread's event loop."""

    async def session() -> CallToolResult:
        async with Client(stdio_server(user, "--app", app), mode="legacy") as c:
            return await c.call_tool(tool, arguments)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, session).result()


@dataclass
class McpHttp:
    """A client for one bearer token; each call opens a fresh (stateless) MCP session."""

    url: str
    token: str | None
    headers: dict[str, str] | None = None

    def run(self, work: Callable[[Client], Awaitable[T]], mode: str = "legacy") -> T:
        async def main() -> T:
            headers = dict(self.headers or {})
            if self.token:
                headers["Authorization"] = f"Bearer {self.token}"
            async with (
                httpx2.AsyncClient(headers=headers, timeout=60) as http,
                Client(streamable_http_client(f"{self.url}/mcp", http_client=http), mode=mode) as c,
            ):
                return await work(c)

        return anyio.run(main)

    def call(self, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        return self.run(lambda c: c.call_tool(tool, arguments))


def text_of(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)
