"""Shared pieces of the reliability properties. The MCP server fixtures live with the MCP tests;
reliability tests reuse them. `traced` runs a test under tracemalloc (the ingest tests hold
parsing to a memory bound)."""

import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

from tests.mcpbridge.conftest import mcp_for, server_url  # noqa: F401


def http_answer(response: Any) -> bytes:
    """Status, every header, cookies and body of a Django test response, as bytes."""
    head = [str(response.status_code)]
    head += [f"{k}: {v}" for k, v in sorted(response.headers.items())]
    head += [f"cookie {k}={m.value}" for k, m in sorted(response.cookies.items())]
    return "\n".join(head).encode() + b"\n\n" + response.content


def report_total(
    name: str, tally: dict[str, tuple[int, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Print a property's total over its doors (the figure docs/reliability.md quotes)."""
    attempts = sum(a for a, _ in tally.values())
    leaks = sum(n for _, n in tally.values())
    with capsys.disabled():
        print(f"\n{name}[all doors]: doors={len(tally)} attempts={attempts} leaks={leaks}")
    assert leaks == 0


@pytest.fixture
def traced() -> Iterator[None]:
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()
