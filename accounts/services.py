"""Grants and connected apps: consent creates a grant; the owner pauses, edits or revokes it.

Every function takes an explicit actor and acts only on the actor's own apps: another user's app
id behaves exactly like a missing one (NotFound).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from allauth.idp.oidc.models import Client, Token
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import ALL_SCOPES, ClientToken, ConnectedApp, User
from accounts.oidc import third_party_name
from memories import audit
from memories.categories import DEFAULT_SLUGS
from memories.errors import AppPaused, Conflict, InvalidInput, NotFound, OwnerOnly
from memories.models import AccessEvent

# Kinds the owner manages on the connected apps page (built-in doors are always theirs).
MANAGED_KINDS = (ConnectedApp.Kind.OAUTH, ConnectedApp.Kind.TOKEN, ConnectedApp.Kind.STDIO)


@dataclass(frozen=True)
class Grant:
    """What the owner allowed an app: memory scopes and which categories it may see."""

    scopes: tuple[str, ...]
    all_categories: bool
    categories: tuple[str, ...]

    @classmethod
    def clean(
        cls, *, scopes: Iterable[str], all_categories: bool, categories: Iterable[str]
    ) -> Grant:
        memory_scopes = tuple(s for s in ALL_SCOPES if s in set(scopes))
        cats = sorted({c.strip().lower() for c in categories if c.strip()})
        unknown = set(cats) - DEFAULT_SLUGS
        if unknown:
            raise InvalidInput(
                f"Unknown categories: {', '.join(sorted(unknown))}.", field="categories"
            )
        if not all_categories and not cats:
            raise InvalidInput("Choose at least one category, or allow all.", field="categories")
        return cls(scopes=memory_scopes, all_categories=all_categories, categories=tuple(cats))


def _require_owner(actor: Actor) -> None:
    """Only the owner, through a built-in door, manages grants (an app cannot widen its own)."""
    if not actor.app.is_owner_door:
        raise NotFound("app")


def app_get(*, actor: Actor, app_id: object) -> ConnectedApp:
    _require_owner(actor)
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


def _unique_name(user: User, kind: str | None, name: str) -> str:
    """`name`, or `name (2)`… if a live app of this kind (any kind when None) already has it."""
    live = ConnectedApp.objects.filter(owner=user, revoked_at=None)
    if kind is not None:
        live = live.filter(kind=kind)
    taken = set(live.values_list("name", flat=True))
    base = (name or "App")[:110]
    if base not in taken:
        return base
    n = 2
    while f"{base} ({n})" in taken:
        n += 1
    return f"{base} ({n})"


def oauth_app_for_client(user: User, client_id: str) -> ConnectedApp | None:
    """The live grant this user gave this OAuth client, if any."""
    return ConnectedApp.objects.filter(
        owner=user, kind=ConnectedApp.Kind.OAUTH, oauth_client_id=client_id, revoked_at=None
    ).first()


def oauth_grant_save(*, actor: Actor, client: Client, grant: Grant) -> ConnectedApp:
    """Consent given at the authorize step: create the app's grant, or replace an existing one."""
    _require_owner(actor)
    user = actor.user
    for _attempt in range(3):
        try:
            with transaction.atomic():
                app = (
                    ConnectedApp.objects.select_for_update()
                    .filter(
                        owner=user,
                        kind=ConnectedApp.Kind.OAUTH,
                        oauth_client_id=client.id,
                        revoked_at=None,
                    )
                    .first()
                )
                if app is None:
                    app = ConnectedApp(
                        owner=user,
                        kind=ConnectedApp.Kind.OAUTH,
                        oauth_client_id=client.id,
                        # The client names itself: never as one of the owner's doors, and
                        # never the same as another of the owner's apps of any kind.
                        name=_unique_name(user, None, third_party_name(client.name)),
                    )
                app.scopes = list(grant.scopes)
                app.all_categories = grant.all_categories
                app.categories = list(grant.categories)
                app.paused = False
                app.save()
                return app
        except IntegrityError:  # a concurrent consent took the name; pick the next one
            continue
    raise InvalidInput("Could not record the grant; try again.")


def app_update_grant(*, actor: Actor, app_id: object, grant: Grant) -> ConnectedApp:
    app = app_get(actor=actor, app_id=app_id)
    app.scopes = list(grant.scopes)
    app.all_categories = grant.all_categories
    app.categories = list(grant.categories)
    app.save(update_fields=["scopes", "all_categories", "categories"])
    return app


def require_owner(actor: Actor) -> None:
    """Refuse a paused door, then anything that is not one of the owner's built-in doors."""
    if actor.app.paused:
        raise AppPaused(actor.app.name)
    if not actor.app.is_owner_door:
        raise OwnerOnly()


def _owned_app(actor: Actor, app_id: object) -> ConnectedApp:
    """The actor's app of any kind, row-locked; NotFound for a missing or another user's id."""
    try:
        pk = int(str(app_id))
    except ValueError:
        raise NotFound("app") from None
    app = ConnectedApp.objects.select_for_update().filter(owner=actor.user, pk=pk).first()
    if app is None:
        raise NotFound("app")
    return app


def app_set_paused(*, actor: Actor, app_id: object, paused: bool) -> ConnectedApp:
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


def app_revoke(*, actor: Actor, app_id: object) -> ConnectedApp:
    """Revoke for good: the app's tokens are deleted, so its very next request fails."""
    require_owner(actor)
    with transaction.atomic():
        app = _owned_app(actor, app_id)
        if app.is_owner_door:
            raise Conflict("A built-in door cannot be revoked.")
        if app.revoked_at is None:
            now = timezone.now()
            if app.kind == ConnectedApp.Kind.OAUTH and app.oauth_client_id:
                Token.objects.filter(user=actor.user, client_id=app.oauth_client_id).delete()
            if app.kind == ConnectedApp.Kind.TOKEN:
                ClientToken.objects.filter(owner=actor.user, app=app, revoked_at=None).update(
                    revoked_at=now
                )
            app.revoked_at = now
            app.paused = True
            app.save(update_fields=["revoked_at", "paused"])
            audit.record(
                actor,
                AccessEvent.Action.STATE,
                detail={"app_id": app.pk, "app": app.name, "revoked": True},
            )
    return app
