"""Reads of the owner's connected apps. (What a grant lets an app see, counted over memories, is
`memories.grants`.)"""

from __future__ import annotations

from django.db.models import F

from accounts.actors import Actor, require_owner
from accounts.models import ConnectedApp


def app_list(*, actor: Actor, include_revoked: bool = False) -> list[ConnectedApp]:
    """The owner's apps, most recently seen first (never-seen ones last, newest first)."""
    require_owner(actor)
    qs = ConnectedApp.objects.filter(owner=actor.user)
    if not include_revoked:
        qs = qs.filter(revoked_at__isnull=True)
    return list(qs.order_by(F("last_seen_at").desc(nulls_last=True), "-created_at", "-pk"))


def any_app_reviewed(*, actor: Actor) -> bool:
    """Whether the owner reviews the changes of at least one live app (the Review link's rule)."""
    require_owner(actor)
    return ConnectedApp.objects.filter(
        owner=actor.user, revoked_at__isnull=True, review_writes=True
    ).exists()
