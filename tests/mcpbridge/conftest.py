"""The real ASGI app under uvicorn in a thread, and real MCP SDK clients talking to it.

The server thread reads the test database through its own connection, so tests that use it
need `@pytest.mark.django_db(transaction=True)`: rows must be committed to be seen.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import httpx2
import pytest
import uvicorn
from asgiref.sync import sync_to_async
from django.db import connections
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from accounts.client_tokens import client_token_create
from accounts.models import User

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    port = free_port()
    config = uvicorn.Config(
        "contextlayer.asgi:application",
        host="127.0.0.1",
        port=port,
        lifespan="on",
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    with django_db_blocker.unblock():
        thread.start()
        deadline = time.monotonic() + 120
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
        server.should_exit = True
        thread.join(timeout=30)
        # The server's ORM work ran in asgiref's sync thread; close its connection so the test
        # database can be dropped.
        anyio.run(sync_to_async(connections.close_all, thread_sensitive=True))


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
        issued = client_token_create(user=user, name=name, scopes=scopes.split(","))
        return McpHttp(server_url, issued.secret)

    return make


def text_of(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)
