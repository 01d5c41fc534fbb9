"""The real ASGI app under uvicorn in a thread, and real MCP SDK clients talking to it; the
stdio server as a subprocess.

The server thread reads the test database through its own connection, so tests that use it
need `@pytest.mark.django_db(transaction=True)`: rows must be committed to be seen.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx2
import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from accounts.models import User
from tests.conftest import issue_token
from tests.servers import start_server, subprocess_database_url

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def server_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    with django_db_blocker.unblock():
        live = start_server("contextlayer.asgi:application", lifespan="on", start_timeout=120)
        yield live.url
        live.server.should_exit = True
        live.thread.join(timeout=30)
        # The server's ORM work ran in asgiref's sync thread; close its connection so the test
        # database can be dropped.
        anyio.run(sync_to_async(connections.close_all, thread_sensitive=True))


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


@pytest.fixture
def mcp_for(server_url: str) -> Callable[..., McpHttp]:
    """`mcp_for(user, scopes=...)`: a new client token for the user and a client holding it."""

    def make(
        user: User, scopes: str = "read,write,delete", name: str = "Cursor on laptop"
    ) -> McpHttp:
        issued = issue_token(
            user,
            name=name,
            scopes=scopes.split(","),
        )
        return McpHttp(server_url, issued.secret)

    return make


def text_of(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)
