"""Fixtures of the accounts tests: empty rate-limit counters for every test. The whole app on a
free port (`live_url`) is in tests/conftest.py; the cookie-keeping "browser" and the client side
of OAuth are in tests/accounts/oauth_client.py."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_rate_limits(fresh_rate_limits: None) -> None:
    """Every test here starts with empty rate-limit counters (tests/conftest.py)."""
