"""Writes on connected apps: pause, resume, revoke. Keyword-only, with an explicit actor, audited.

Only the owner manages their apps (a connected app cannot pause or revoke another); the built-in
doors (dashboard, api, cli) cannot be paused or revoked, or the owner would lock themself out.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import ConnectedApp
from memories import audit
from memories.errors import AppPaused, Conflict, NotFound, OwnerOnly
from memories.models import AccessEvent


def require_owner(actor: Actor) -> None:
    """Refuse a paused door, then anything that is not one of the owner's built-in doors."""
    if actor.app.paused:
        raise AppPaused(actor.app.name)
    if not actor.app.is_owner_door:
        raise OwnerOnly()


def _owned_app(actor: Actor, app_id: int) -> ConnectedApp:
    """The actor's app, row-locked; NotFound for a missing id or another user's app alike."""
    app = ConnectedApp.objects.select_for_update().filter(owner=actor.user, pk=app_id).first()
    if app is None:
        raise NotFound("app")
    return app


def app_set_paused(*, actor: Actor, app_id: int, paused: bool) -> ConnectedApp:
    """Pause (no reads, no writes) or resume one connected app; recorded with from and to."""
    require_owner(actor)
    with transaction.atomic():
        app = _owned_app(actor, app_id)
        if app.is_owner_door:
            raise Conflict("A built-in door cannot be paused.")
        if app.revoked_at is not None:
            raise Conflict("This app was revoked; it cannot be paused or resumed.")
        if app.paused != paused:
            previous = app.paused
            app.paused = paused
            app.save(update_fields=["paused"])
            audit.record(
                actor,
                AccessEvent.Action.STATE,
                detail={
                    "app_id": app.pk,
                    "app": app.name,
                    "paused": {"from": previous, "to": paused},
                },
            )
    return app


def app_revoke(*, actor: Actor, app_id: int) -> ConnectedApp:
    """Revoke an app for good: it keeps no access; its name may be connected again later."""
    require_owner(actor)
    with transaction.atomic():
        app = _owned_app(actor, app_id)
        if app.is_owner_door:
            raise Conflict("A built-in door cannot be revoked.")
        if app.revoked_at is None:
            app.revoked_at = timezone.now()
            app.paused = True
            app.save(update_fields=["revoked_at", "paused"])
            audit.record(
                actor,
                AccessEvent.Action.STATE,
                detail={"app_id": app.pk, "app": app.name, "revoked": True},
            )
    return app
