"""Reads of the owner's connected apps. (What a grant lets an app see, counted over memories, is
`memories.selectors.grants`.)"""

from __future__ import annotations

from django.db.models import F

from accounts.actors import Actor
from accounts.models import MANAGED_KINDS, ConnectedApp, DisconnectedApp
from kernel.errors import NotFound
from kernel.gates import require_owner


def app_list(*, actor: Actor, include_revoked: bool = False) -> list[ConnectedApp]:
    """The owner's apps, most recently seen first (never-seen ones last, newest first)."""
    require_owner(actor)
    qs = ConnectedApp.objects.filter(owner=actor.user)
    if not include_revoked:
        qs = qs.filter(revoked_at__isnull=True)
    return list(qs.order_by(F("last_seen_at").desc(nulls_last=True), "-created_at", "-pk"))


def disconnected_apps(*, actor: Actor) -> list[DisconnectedApp]:
    """The local apps the owner disconnected (by name, newest first): each stays refused when a
    client launches its command again, until the owner allows it again."""
    require_owner(actor)
    disconnected = DisconnectedApp.objects.filter(owner=actor.user)
    return list(disconnected.order_by("-disconnected_at", "-pk"))


def app_names(*, actor: Actor, app_ids: list[int]) -> list[str]:
    """The names of those of the owner's live apps, in the order they connected."""
    require_owner(actor)
    apps = ConnectedApp.objects.filter(owner=actor.user, pk__in=app_ids, revoked_at=None)
    return list(apps.order_by("pk").values_list("name", flat=True))


def any_app_reviewed(*, actor: Actor) -> bool:
    """Whether the owner reviews the changes of at least one live app (the Review link's rule)."""
    require_owner(actor)
    return ConnectedApp.objects.filter(
        owner=actor.user, revoked_at__isnull=True, review_writes=True
    ).exists()


def app_get(*, actor: Actor, app_id: object) -> ConnectedApp:
    """One of the apps the owner manages, or NotFound (any other id, or another user's)."""
    require_owner(actor)
    try:
        pk = int(str(app_id))
    except ValueError:
        raise NotFound("app") from None
    app = ConnectedApp.objects.filter(
        pk=pk, owner=actor.user, kind__in=MANAGED_KINDS, revoked_at=None
    ).first()
    if app is None:
        raise NotFound("app")
    return app
