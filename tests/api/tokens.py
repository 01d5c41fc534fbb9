"""Programs holding real client tokens: the type of the `make_token` fixture
(tests/api/conftest.py), the app a token acts as, and a client that sends one."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client

from accounts.client_tokens import hash_secret
from accounts.models import ClientToken, ConnectedApp

TokenFactory = Callable[..., str]


def token_app(secret: str) -> ConnectedApp:
    """The connected app a client token acts as."""
    return ClientToken.objects.select_related("app").get(token_hash=hash_secret(secret)).app


def bearer(secret: str) -> Client:
    """A program holding this client token (no session, no cookies)."""
    return Client(headers={"Authorization": f"Bearer {secret}"})
