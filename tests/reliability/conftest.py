"""Shared pieces of the reliability properties. The MCP server fixtures live with the MCP tests;
reliability tests reuse them. `traced` runs a test under tracemalloc (the ingest tests hold
parsing to a memory bound). The door properties' figures are reported at the end of
the run."""

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


# What the door properties measured: property ("isolation", "oracles") → door → (attempts, leaks).
# Each door test asserts its own leaks; this only reports the figures at the end of the run.
DOOR_FIGURES: dict[str, dict[str, tuple[int, int]]] = {}


def record_figures(prop: str, door: str, attempts: int, leaks: int) -> None:
    DOOR_FIGURES.setdefault(prop, {})[door] = (attempts, leaks)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The figures docs/reliability.md quotes, for the doors this run went through."""
    if not DOOR_FIGURES:
        return
    terminalreporter.write_sep("-", "properties through every door")
    for prop, doors in DOOR_FIGURES.items():
        for door, (attempts, leaks) in doors.items():
            terminalreporter.write_line(f"{prop}[{door}]: attempts={attempts} leaks={leaks}")
        attempts = sum(a for a, _ in doors.values())
        leaks = sum(n for _, n in doors.values())
        terminalreporter.write_line(
            f"{prop}[all doors]: doors={len(doors)} attempts={attempts} leaks={leaks}"
        )


@pytest.fixture
def traced() -> Iterator[None]:
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()
