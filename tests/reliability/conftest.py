"""Fixtures and hooks of the reliability properties. `traced` runs a test under tracemalloc (the
ingest tests hold parsing to a memory bound); `quiet_audit_log` keeps the isolation doors' output
to their figures. The figures the door properties recorded
(tests/reliability/observations.py) are reported at the end of the run."""

import logging
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

from tests.reliability.observations import ENTRY_POINT_FIGURES


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The figures docs/reliability.md quotes, for the doors this run went through."""
    if not ENTRY_POINT_FIGURES:
        return
    terminalreporter.write_sep("-", "properties through every door")
    for prop, entry_points in ENTRY_POINT_FIGURES.items():
        for entry_point, (attempts, leaks) in entry_points.items():
            terminalreporter.write_line(f"{prop}[{entry_point}]: attempts={attempts} leaks={leaks}")
        attempts = sum(a for a, _ in entry_points.values())
        leaks = sum(n for _, n in entry_points.values())
        terminalreporter.write_line(
            f"{prop}[all doors]: doors={len(entry_points)} attempts={attempts} leaks={leaks}"
        )


@pytest.fixture
def traced() -> Iterator[None]:
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()


@pytest.fixture
def quiet_audit_log(settings: Any) -> Iterator[None]:
    """The audit log's per-call lines (stdout) would drown the figures; generous rate limits so
    the property, not the abuse limiter, decides every answer."""
    settings.RATE_LIMITS = {scope: "100000/m" for scope in settings.RATE_LIMITS}
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    audit = logging.getLogger("contextlayer.audit")
    level = audit.level
    audit.setLevel(logging.WARNING)
    yield
    audit.setLevel(level)
