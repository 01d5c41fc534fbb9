"""The actor: who is calling (user), through which app (ConnectedApp), with which scopes.

Every service and selector takes one, so tenant scoping, consent and audit happen in one place.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import ALL_SCOPES, DEFAULT_APP_SCOPES, ConnectedApp, DisconnectedApp, User
from kernel.errors import AppDisconnected


@dataclass(frozen=True)
class Actor:
    user: User
    app: ConnectedApp
    scopes: frozenset[str] = field(default_factory=frozenset)
    # Who is acting, for the audit trail, when not the owner (an operator in the admin).
    operator: str = ""
    # The owner accepted this write of the app on the Review page: it is applied as the app's
    # (attribution stays right), not held for review again (memories/services/app_review.py).
    reviewed: bool = False

    @property
    def label(self) -> str:
        return self.operator or self.app.name

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes


def builtin_app(user: User, name: str) -> ConnectedApp:
    """The user's built-in app of that name (dashboard, api, cli), created on first use."""
    return live_app(user, ConnectedApp.Kind.BUILTIN, name, scopes=list(ALL_SCOPES))


def stdio_app(
    user: User, name: str = "local", scopes: Iterable[str] = DEFAULT_APP_SCOPES
) -> ConnectedApp:
    """The user's stdio client of this name; created on first use with `scopes` (by default read
    and write, not delete, like a client token), kept as it is afterwards. A name the owner
    disconnected is refused (`AppDisconnected`) until the owner allows it again."""
    if DisconnectedApp.objects.filter(owner=user, name=name).exists():
        raise stdio_disconnected(user, name)
    return live_app(user, ConnectedApp.Kind.STDIO, name, scopes=list(scopes))


def stdio_disconnected(user: User, name: str) -> AppDisconnected:
    """The refusal of a disconnected local app, with the owner's two ways to allow it again."""
    return AppDisconnected(
        name,
        "Connected apps page, “Disconnected local apps”, Allow again; or run once "
        f"`manage.py mcp --user {shlex.quote(user.email)} --app {shlex.quote(name)} "
        "--allow-again`, then restart the client.",
    )


def live_app(user: User, kind: str, name: str, **grant: Any) -> ConnectedApp:
    """The user's live app of this kind and name, created with `grant` (scopes, categories, ...)
    on first use; two first uses at once end with the same row (a unique partial index)."""
    app = ConnectedApp.objects.filter(owner=user, kind=kind, name=name, revoked_at=None).first()
    if app is not None:
        return app
    try:
        with transaction.atomic():
            return ConnectedApp.objects.create(owner=user, kind=kind, name=name, **grant)
    except IntegrityError:  # created concurrently
        return ConnectedApp.objects.get(owner=user, kind=kind, name=name, revoked_at=None)


def actor_for(
    user: User, app: ConnectedApp, scopes: Iterable[str] | None = None, *, operator: str = ""
) -> Actor:
    """An actor limited to the scopes both the app's grant and the credential allow."""
    granted = set(app.scopes)
    if scopes is not None:
        granted &= set(scopes)
    return Actor(user=user, app=app, scopes=frozenset(granted), operator=operator)


def owner_actor(user: User, app_name: str = ConnectedApp.DASHBOARD, *, operator: str = "") -> Actor:
    """The owner acting through one of their built-in apps: every scope, every memory."""
    return actor_for(user, builtin_app(user, app_name), operator=operator)


def touch_app(app: ConnectedApp) -> None:
    """Record last use, at most once a minute so hot paths do not write on every call."""
    now = timezone.now()
    if app.last_seen_at is None or (now - app.last_seen_at).total_seconds() > 60:
        ConnectedApp.objects.filter(owner_id=app.owner_id, pk=app.pk).update(last_seen_at=now)
        app.last_seen_at = now
