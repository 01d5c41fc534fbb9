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


def _denied_sensitive(app: ConnectedApp) -> list[str]:
    """Default sensitive categories plus the ones the user flagged, unless granted by name."""
    own = UserCategory.objects.filter(owner_id=app.owner_id, sensitive=True).values_list(
        "slug", flat=True
    )
    return sorted((SENSITIVE | set(own)) - set(app.categories))


def visible_q(actor: Actor) -> Q:
    """Rows of this owner the actor may see (before state filters)."""
    q = Q(owner=actor.user)
    app = actor.app
    if app.is_owner_door:
        return q
    q &= Q(is_private=False, state=MemoryState.ACTIVE, superseded_by__isnull=True)
    q &= ~Q(hidden_from__contains=[app.pk])
    if app.all_categories:
        denied = _denied_sensitive(app)
        if denied:
            q &= ~Q(categories__overlap=denied)
    else:
        q &= Q(categories__len__gt=0, categories__contained_by=list(app.categories))
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
        if app.all_categories:
            denied = _denied_sensitive(app)
            if denied:
                clauses.append(f"NOT ({alias}.categories && %(vis_denied)s::varchar[])")
                params["vis_denied"] = denied
        else:
            clauses.append(f"cardinality({alias}.categories) > 0")
            clauses.append(f"{alias}.categories <@ %(vis_granted)s::varchar[]")
            params["vis_granted"] = list(app.categories)
    return " AND ".join(clauses), params


def check_write_categories(actor: Actor, categories: Iterable[str]) -> None:
    """A write may not label a memory with a category the app was not granted."""
    app = actor.app
    if app.is_owner_door:
        return
    cats = set(categories)
    if app.all_categories:
        outside = cats & set(_denied_sensitive(app))
    else:
        outside = cats - set(app.categories)
    if outside:
        raise InvalidInput(
            f"This app was not granted the categories: {', '.join(sorted(outside))}.",
            field="category",
        )
