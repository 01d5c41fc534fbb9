"""The MCP server fixtures live with the MCP tests; reliability tests reuse them. `traced` runs a
test under tracemalloc (the ingest tests hold parsing to a memory bound)."""

import tracemalloc
from collections.abc import Iterator

import pytest

from tests.mcpbridge.conftest import mcp_for, server_url  # noqa: F401


@pytest.fixture
def traced() -> Iterator[None]:
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()
