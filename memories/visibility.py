"""Which of the owner's memories an actor may see or write: the consent rules, in one place."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from accounts.actors import Actor
from accounts.models import ConnectedApp
from memories.categories import SENSITIVE
from memories.errors import AppPaused, InvalidInput, NotFound, ScopeRequired
from memories.models import MemoryState, UserCategory


def require(actor: Actor, scope: str) -> None:
    """Refuse a paused app or a missing scope before anything is read or written."""
    if actor.app.paused:
        raise AppPaused(actor.app.name)
    if not actor.has_scope(scope):
        raise ScopeRequired(scope)


def require_owner_door(actor: Actor, scope: str, what: str) -> None:
    """Store-wide work (export, import, the access log) is for the owner's own doors; to a
    connected app it does not exist (NotFound, like another user's object)."""
    require(actor, scope)
    if not actor.app.is_owner_door:
        raise NotFound(what)


def hidden_categories(app: ConnectedApp) -> list[str]:
    """The categories this app's grant hides: every one the owner unticked, and every sensitive
    one (default, or the owner's own flagged sensitive) the owner did not tick. A category created
    after the grant is in neither list, so it is hidden exactly when it is sensitive."""
    own = UserCategory.objects.filter(owner_id=app.owner_id, sensitive=True).values_list(
        "slug", flat=True
    )
    return sorted(set(app.hidden_categories) | ((SENSITIVE | set(own)) - set(app.categories)))


def _grant_q(app: ConnectedApp) -> Q:
    """The grant: no memory in a hidden category; no uncategorised one unless it was ticked."""
    q = Q()
    hidden = hidden_categories(app)
    if hidden:
        q &= ~Q(categories__overlap=hidden)
    if not app.sees_uncategorised:
        q &= Q(categories__len__gt=0)
    return q


def _grant_sql(app: ConnectedApp, alias: str, params: dict[str, Any]) -> list[str]:
    """`_grant_q` as SQL clauses (adds its parameters to `params`)."""
    clauses = []
    hidden = hidden_categories(app)
    if hidden:
        clauses.append(f"NOT ({alias}.categories && %(vis_hidden)s::varchar[])")
        params["vis_hidden"] = hidden
    if not app.sees_uncategorised:
        clauses.append(f"cardinality({alias}.categories) > 0")
    return clauses


def visible_q(actor: Actor) -> Q:
    """Rows of this owner the actor may see (before state filters)."""
    q = Q(owner=actor.user)
    app = actor.app
    if app.is_owner_door:
        return q
    q &= Q(is_private=False, state=MemoryState.ACTIVE, superseded_by__isnull=True)
    q &= ~Q(hidden_from__contains=[app.pk])
    q &= _grant_q(app)
    return q


def visible_sql(actor: Actor, alias: str = "m") -> tuple[str, dict[str, Any]]:
    """The same rule as `visible_q`, as an SQL fragment for the hand-written search queries."""
    app = actor.app
    params: dict[str, Any] = {"vis_owner": actor.user.pk}
    clauses = [f"{alias}.owner_id = %(vis_owner)s"]
    if not app.is_owner_door:
        clauses.append(f"NOT {alias}.is_private")
        clauses.append(f"NOT ({alias}.hidden_from @> ARRAY[%(vis_app)s]::bigint[])")
        params["vis_app"] = app.pk
        clauses.extend(_grant_sql(app, alias, params))
    return " AND ".join(clauses), params


def check_write_categories(actor: Actor, categories: Iterable[str]) -> None:
    """A write may not label a memory with a category the app was not granted."""
    app = actor.app
    if app.is_owner_door:
        return
    outside = set(categories) & set(hidden_categories(app))
    if outside:
        raise InvalidInput(
            f"This app was not granted the categories: {', '.join(sorted(outside))}.",
            field="category",
        )
