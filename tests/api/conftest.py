"""API fixtures: programs holding real client tokens (tests/api/tokens.py), and the owner's own
door (the session).

Every token here is a real client token (`accounts.client_tokens`), so each request goes through
the bearer resolution production uses (`accounts.api_auth` → `accounts.credentials`): a
revoked, expired or made-up token, a paused app or a missing scope is refused by that code.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client

from accounts.models import ALL_SCOPES, User
from tests.api.tokens import TokenFactory
from tests.personas import issue_token, signed_in


@pytest.fixture
def make_token(db: None) -> TokenFactory:
    """The secret of a new client token for `user`, through its own app, with these scopes
    (default: all) and, if given, only these categories (none without a category)."""
    made: Counter[tuple[int, str]] = Counter()

    def make(
        user: User,
        *,
        scopes: tuple[str, ...] = ALL_SCOPES,
        name: str = "script",
        categories: list[str] | None = None,
    ) -> str:
        made[(user.pk, name)] += 1  # a live token's name is unique: number the second "script"
        unique = name if made[(user.pk, name)] == 1 else f"{name} {made[(user.pk, name)]}"
        issued = issue_token(
            user,
            name=unique,
            scopes=scopes,
            categories=None if categories is None else ",".join(categories),
        )
        return issued.secret

    return make


@pytest.fixture
def owner_api(owner: User) -> Client:
    """The owner's own door (every scope, every memory, versions): the signed-in session, as
    the dashboard's scripts call the API. CSRF is not enforced here; a test about CSRF signs in
    with `signed_in(owner, enforce_csrf=True)`."""
    return signed_in(owner)
