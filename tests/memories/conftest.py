"""Fixtures for the dashboard view tests: signed-in browsers for the owner and the stranger."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User


@pytest.fixture
def owner_client(owner: User) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def stranger_client(stranger: User) -> Client:
    client = Client()
    client.force_login(stranger)
    return client


@pytest.fixture
def htmx() -> dict[str, str]:
    """Headers htmx sends with a request."""
    return {"HX-Request": "true"}
