"""API fixtures: a test-only bearer resolution (the real one comes with client tokens), clients."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from accounts.services import Grant
from contextlayer import api_auth

TokenFactory = Callable[..., str]


@pytest.fixture
def bearer_tokens(monkeypatch: pytest.MonkeyPatch) -> dict[str, Actor]:
    """Tokens the API accepts during this test: raw token → actor, via the one resolution hook."""
    tokens: dict[str, Actor] = {}

    def resolve(raw: str, *, resource: str) -> Actor | None:
        # Like the real store: only tokens for this API's resource are accepted here.
        return tokens.get(raw) if resource.endswith("/api/v1") else None

    monkeypatch.setattr(api_auth, "resolve_api_bearer", resolve)
    return tokens


@pytest.fixture
def make_token(bearer_tokens: dict[str, Actor]) -> TokenFactory:
    """A token for `user` through a token app with these scopes (default: all) and categories."""

    def make(
        user: User,
        *,
        scopes: tuple[str, ...] = ALL_SCOPES,
        name: str = "script",
        categories: list[str] | None = None,
        owner_door: bool = False,
    ) -> str:
        if owner_door:
            actor = owner_actor(user, ConnectedApp.API)
        else:
            app = ConnectedApp(owner=user, kind=ConnectedApp.Kind.TOKEN, name=name)
            if categories is None:
                grant = Grant.default(user=user, scopes=scopes)
            else:  # only memories in these categories
                grant = Grant.from_ticks(
                    user=user, scopes=scopes, ticked=categories, sees_uncategorised=False
                )
            grant.apply_to(app)
            app.save()
            actor = actor_for(user, app)
        raw = f"tok-{user.pk}-{name}-{len(bearer_tokens)}"
        bearer_tokens[raw] = actor
        return raw

    return make


@pytest.fixture
def owner_client(owner: User) -> Client:
    """The owner signed in in a browser, with CSRF enforced like a real browser."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    return client


@pytest.fixture
def owner_api(owner: User, make_token: TokenFactory) -> Client:
    """A program acting for the owner with the owner's own door (all scopes, all memories)."""
    token = make_token(owner, owner_door=True)
    return Client(headers={"Authorization": f"Bearer {token}"})
