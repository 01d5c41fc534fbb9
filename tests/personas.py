"""The personas' credentials and what they do with them: the owner's password, a browser signed
in as a user, re-authentication, and a client token made the way the owner makes one. The
personas themselves (`owner`, `stranger`, their actors) are fixtures in tests/conftest.py."""

from __future__ import annotations

from typing import Any

from django.test import Client

from accounts.actors import owner_actor
from accounts.client_tokens import IssuedToken, client_token_create
from accounts.models import User
from memories.selectors.grants import known_categories

OWNER_PASSWORD = "correct horse battery"


def issue_token(user: User, **options: Any) -> IssuedToken:
    """A client token of `user`, made the way the owner makes one (the `client_token` command,
    the dashboard): by the owner, over their own category vocabulary. `options` are
    `client_token_create`'s (name, scopes, categories, expires_at)."""
    return client_token_create(actor=owner_actor(user), known=known_categories(user), **options)


def signed_in(user: User, *, enforce_csrf: bool = False) -> Client:
    """A browser signed in as `user`. Django's test client skips CSRF checks unless asked;
    tests about CSRF ask (`enforce_csrf=True`)."""
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


def reauthenticate(browser: Client, password: str = OWNER_PASSWORD) -> None:
    """Confirm the password again, as erase and token creation ask (accounts/adapter.py)."""
    response = browser.post("/accounts/reauthenticate/", {"password": password})
    assert response.status_code == 302, "re-authentication failed"
