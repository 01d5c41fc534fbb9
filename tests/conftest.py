"""Shared fixtures: personas (the owner, another user who must see nothing) and their actors."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.actors import Actor, owner_actor
from accounts.models import User

OWNER_PASSWORD = "correct horse battery"

# Every query our code runs on a tenant table must filter by owner (see tests/owner_queries.py).
pytest_plugins = ["tests.owner_queries"]


@pytest.fixture
def owner(db: None) -> User:
    return User.objects.create_user("owner@example.com", OWNER_PASSWORD)


@pytest.fixture
def stranger(db: None) -> User:
    return User.objects.create_user("stranger@example.com", "another horse battery")


@pytest.fixture
def owner_dash(owner: User) -> Actor:
    return owner_actor(owner)


@pytest.fixture
def stranger_dash(stranger: User) -> Actor:
    return owner_actor(stranger)


def reauthenticate(browser: Client, password: str = OWNER_PASSWORD) -> None:
    """Confirm the password again, as erase and token creation ask (accounts/adapter.py)."""
    response = browser.post("/accounts/reauthenticate/", {"password": password})
    assert response.status_code == 302, "re-authentication failed"
