"""A gunicorn server (gunicorn.conf.py) on the test database, shared by the deployment tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.gunicorn_server import Gunicorn, gunicorn_on_test_database

# This test process is not the proxy the server trusts; registrations are counted per hour.
GUNICORN_ENV = {"TRUSTED_PROXIES": "192.0.2.1", "RATE_LIMIT_CLIENT_REGISTRATION": "60/h"}


@pytest.fixture(scope="session")
def gunicorn(django_db_setup: None, django_db_blocker: Any) -> Iterator[Gunicorn]:
    with django_db_blocker.unblock(), gunicorn_on_test_database(**GUNICORN_ENV) as server:
        yield server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder starts servers or commands in subprocesses: all are slow
    (`-m "not slow"` leaves them out)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.slow)
