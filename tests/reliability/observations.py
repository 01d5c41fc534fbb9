"""What the isolation and oracle properties share: a test response as bytes (two answers are
compared byte for byte), and the figures each property measured per entry point, which
tests/reliability/conftest.py reports at the end of the run."""

from __future__ import annotations

from typing import Any


def http_answer(response: Any) -> bytes:
    """Status, every header, cookies and body of a Django test response, as bytes."""
    head = [str(response.status_code)]
    head += [f"{k}: {v}" for k, v in sorted(response.headers.items())]
    head += [f"cookie {k}={m.value}" for k, m in sorted(response.cookies.items())]
    return "\n".join(head).encode() + b"\n\n" + response.content


# What the door properties measured: property ("isolation", "oracles") → door → (attempts, leaks).
# Each door test asserts its own leaks; this only reports the figures at the end of the run.
ENTRY_POINT_FIGURES: dict[str, dict[str, tuple[int, int]]] = {}


def record_figures(prop: str, entry_point: str, attempts: int, leaks: int) -> None:
    ENTRY_POINT_FIGURES.setdefault(prop, {})[entry_point] = (attempts, leaks)
