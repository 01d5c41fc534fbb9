"""Who acts, as every layer sees it, and the two gates each read and write passes first.

`accounts.actors.Actor` (a user, a ConnectedApp and the scopes granted to it) is the one
implementation; the gates and the access log (`activity`, which accounts records into) need only
this much of it, so they sit below accounts.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from django.http import HttpRequest

from kernel.errors import AppPaused, OwnerOnly, ScopeRequired

# The scopes an app may be granted (the OAuth scope strings).
SCOPE_READ = "memories:read"
SCOPE_WRITE = "memories:write"
SCOPE_DELETE = "memories:delete"


class ActingApp(Protocol):
    """The app an actor acts through (a `ConnectedApp`)."""

    @property
    def pk(self) -> Any: ...
    @property
    def name(self) -> str: ...
    @property
    def paused(self) -> bool: ...
    @property
    def is_owner_app(self) -> bool: ...


@runtime_checkable
class Acting(Protocol):
    """Who acts: the owner (`user`), through an app, with scopes; `label` names them in the log."""

    @property
    def user(self) -> Any: ...
    @property
    def app(self) -> ActingApp: ...
    @property
    def label(self) -> str: ...
    def has_scope(self, scope: str) -> bool: ...


def require(actor: Acting, scope: str) -> None:
    """Refuse a paused app or a missing scope before anything is read or written."""
    if actor.app.paused:
        raise AppPaused(actor.app.name)
    if not actor.has_scope(scope):
        raise ScopeRequired(scope)


def require_owner(actor: Acting, scope: str | None = None) -> None:
    """The one owner-only gate: managing apps and categories, the access log, versions,
    proposals, imports, export, erasure and privacy marks are the owner's own apps' work. Any
    other app is refused with `OwnerOnly` before any id is looked at, so the answer is the same
    for every id (and every user) and tells an app nothing. As everywhere, a paused app is
    `AppPaused` and a missing scope `ScopeRequired` first."""
    if actor.app.paused:
        raise AppPaused(actor.app.name)
    if scope is not None and not actor.has_scope(scope):
        raise ScopeRequired(scope)
    if not actor.app.is_owner_app:
        raise OwnerOnly()


def request_acting(request: HttpRequest) -> Acting:
    """Who acts in an API request (set by the API's auth classes, `accounts.api_auth`)."""
    auth: Any = getattr(request, "auth", None)
    if not isinstance(auth, Acting):  # pragma: no cover - routes always run behind API_AUTH
        raise TypeError("API route called without an authenticated actor.")
    return auth
