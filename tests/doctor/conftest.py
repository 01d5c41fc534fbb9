"""Fixtures of the doctor tests: empty rate-limit counters for every test (the whole app on a
free port, `live_url`, is in tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_rate_limits(fresh_rate_limits: None) -> None:
    """Every test here starts with empty rate-limit counters (tests/conftest.py)."""
