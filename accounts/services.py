"""Grants and connected apps: consent creates a grant; the owner pauses, edits or revokes it.

Every function takes an explicit actor and acts only on the actor's own apps: another user's app
id behaves exactly like a missing one (NotFound).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from allauth.idp.oidc.models import Client, Token
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.access_changes import access_changed
from accounts.actors import Actor
from accounts.app_names import third_party_name
from accounts.models import ALL_SCOPES, ClientToken, ConnectedApp, DisconnectedApp, User
from accounts.oauth_clients import client_key
from accounts.selectors import app_get
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.category_names import fold
from kernel.errors import Conflict, InvalidInput, NotFound
from kernel.gates import require_owner

# Key of the pending grant in an authorization code's data: consent is recorded on the code and
# becomes a ConnectedApp only when the code is redeemed (`oauth_grant_issue`).
PENDING_GRANT = "contextlayer_grant"


class KnownCategory(Protocol):
    """A category a grant can name. The vocabulary (the defaults, then the user's own) lives in
    `memories`; the entry points hand it in (`memories.selectors.grants.known_categories`), so this
    module never looks it up."""

    @property
    def slug(self) -> str: ...

    @property
    def sensitive(self) -> bool: ...


@dataclass(frozen=True)
class Grant:
    """What the owner allowed an app: memory scopes, and the categories ticked and unticked.

    One model: what is unticked is hidden, whatever else is chosen; a sensitive category is
    hidden unless ticked; `sees_uncategorised` covers memories without any category. The rule
    itself is `memories.visibility.hidden_categories`.
    """

    scopes: tuple[str, ...]
    categories: tuple[str, ...]  # ticked
    hidden_categories: tuple[str, ...]  # unticked
    sees_uncategorised: bool = True
    # "Review this app's changes before they're saved" (memories/services/app_review.py): chosen on
    # the consent page; None leaves the app's choice as it is (the Edit page, a silent re-consent).
    review_writes: bool | None = None

    @classmethod
    def from_ticks(
        cls,
        *,
        known: Sequence[KnownCategory],
        scopes: Iterable[str],
        ticked: Iterable[str],
        sees_uncategorised: bool,
    ) -> Grant:
        """The grant for these ticks among the user's categories, `known` (unknown names are
        refused)."""
        slugs = [c.slug for c in known]
        wanted = {fold(c) for c in ticked if c.strip()}
        unknown = wanted - set(slugs)
        if unknown:
            raise InvalidInput(
                gettext_noop("Unknown categories: %(names)s."),
                field="categories",
                names=", ".join(sorted(unknown)),
            )
        if not wanted and not sees_uncategorised:
            raise InvalidInput(
                gettext_noop(
                    "Tick at least one category (or memories without a category); "
                    "to share nothing, disconnect the app instead."
                ),
                field="categories",
            )
        return cls(
            scopes=tuple(s for s in ALL_SCOPES if s in set(scopes)),
            categories=tuple(c for c in slugs if c in wanted),
            hidden_categories=tuple(c for c in slugs if c not in wanted),
            sees_uncategorised=sees_uncategorised,
        )

    @classmethod
    def default(cls, *, known: Sequence[KnownCategory], scopes: Iterable[str]) -> Grant:
        """What the consent page proposes: every category that is not sensitive."""
        ticked = [c.slug for c in known if not c.sensitive]
        return cls.from_ticks(known=known, scopes=scopes, ticked=ticked, sees_uncategorised=True)

    def apply_to(self, app: ConnectedApp) -> None:
        app.scopes = list(self.scopes)
        app.categories = list(self.categories)
        app.hidden_categories = list(self.hidden_categories)
        app.sees_uncategorised = self.sees_uncategorised
        if self.review_writes is not None:
            app.review_writes = self.review_writes

    def to_data(self) -> dict[str, Any]:
        return {
            "scopes": list(self.scopes),
            "categories": list(self.categories),
            "hidden_categories": list(self.hidden_categories),
            "sees_uncategorised": self.sees_uncategorised,
            "review_writes": self.review_writes,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Grant:
        return cls(
            scopes=tuple(data["scopes"]),
            categories=tuple(data["categories"]),
            hidden_categories=tuple(data["hidden_categories"]),
            sees_uncategorised=bool(data["sees_uncategorised"]),
            review_writes=data.get("review_writes"),
        )


GRANT_FIELDS = ["scopes", "categories", "hidden_categories", "sees_uncategorised"]


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


def oauth_app_for(user: User, client: Client) -> ConnectedApp | None:
    """The live grant this user gave this client, or another registration of the same client."""
    return ConnectedApp.objects.filter(
        owner=user,
        kind=ConnectedApp.Kind.OAUTH,
        oauth_client_key=client_key(client),
        revoked_at=None,
    ).first()


def oauth_grant_save(*, user: User, client: Client, grant: Grant | None) -> ConnectedApp:
    """Record a grant on the user's app for this client (one app per client name + redirect
    origins: a re-registration takes the app over). `grant=None` keeps the app's grant (a silent
    re-authorisation, `prompt=none`); with no app to keep, it is refused."""
    key = client_key(client)
    for _attempt in range(3):
        try:
            with transaction.atomic():
                app = (
                    ConnectedApp.objects.select_for_update()
                    .filter(
                        owner=user,
                        kind=ConnectedApp.Kind.OAUTH,
                        oauth_client_key=key,
                        revoked_at=None,
                    )
                    .first()
                )
                if app is None:
                    if grant is None:
                        raise InvalidInput("No consent was recorded for this authorization.")
                    app = ConnectedApp(
                        owner=user,
                        kind=ConnectedApp.Kind.OAUTH,
                        oauth_client_key=key,
                        # The client names itself: never as one of the owner's apps, and
                        # never the same as another of the owner's apps of any kind.
                        name=_unique_name(user, None, third_party_name(client.name)),
                    )
                if grant is not None:
                    grant.apply_to(app)
                    app.paused = False
                app.oauth_client_id = client.id
                app.save()
                return app
        except IntegrityError:  # a concurrent grant took the name or the key; look again
            continue
    raise InvalidInput(gettext_noop("Could not record the grant; try again."))


def oauth_code_hold_grant(*, code: str, grant: Grant) -> None:
    """Consent given: keep the grant on the authorization code until the code is redeemed."""
    token = Token.objects.filter(type=Token.Type.AUTHORIZATION_CODE).by_value(code).first()
    if token is None:
        raise InvalidInput("The authorization code vanished before the grant was recorded.")
    data = dict(token.data) if isinstance(token.data, dict) else {}
    data[PENDING_GRANT] = grant.to_data()
    Token.objects.filter(pk=token.pk).update(data=data)


def oauth_grant_issue(*, code: str) -> ConnectedApp:
    """The code was just redeemed for tokens (same transaction): the grant is really issued now,
    so this is where the ConnectedApp is created or updated. A consent the browser never carried
    to the client, or one cancelled, leaves nothing behind."""
    token = (
        Token.objects.select_related("client", "user")
        .filter(type=Token.Type.AUTHORIZATION_CODE)
        .by_value(code)
        .first()
    )
    if token is None or token.user is None or token.client is None:
        raise InvalidInput("Unknown authorization code.")
    pending = token.data.get(PENDING_GRANT) if isinstance(token.data, dict) else None
    grant = Grant.from_data(pending) if pending else None
    return oauth_grant_save(user=token.user, client=token.client, grant=grant)


def _oauth_client_ids(user: User, app: ConnectedApp) -> list[str]:
    """Every registration of this app's client that holds a token of this user."""
    ids = set(Token.objects.filter(user=user).values_list("client_id", flat=True).distinct())
    same = [
        c.id for c in Client.objects.filter(id__in=ids) if client_key(c) == app.oauth_client_key
    ]
    return sorted({*same, app.oauth_client_id} - {""})


def app_update_grant(*, actor: Actor, app_id: object, grant: Grant) -> ConnectedApp:
    """The owner changes what an app may do (scopes) and see (categories), for every kind of
    app. It applies at the app's next call: its credentials act with the app's current grant
    (an OAuth token's scopes narrow at once; a client token takes the new scopes as its own)."""
    require_owner(actor)
    with transaction.atomic():
        app = _managed_app(actor, app_id)
        before = _logged_grant(app)
        grant.apply_to(app)
        app.save(update_fields=GRANT_FIELDS)
        if app.kind == ConnectedApp.Kind.TOKEN:
            # A client token was issued with the scopes the owner chose then; the owner's new
            # choice replaces them (an OAuth token keeps what its client asked for, narrowed).
            ClientToken.objects.filter(owner=actor.user, app=app, revoked_at=None).update(
                scopes=list(app.scopes)
            )
        after = _logged_grant(app)
        changed = {f: {"from": before[f], "to": after[f]} for f in after if before[f] != after[f]}
        if changed:
            app_change_record(actor, app, changed)
    return app


def app_set_scopes(*, actor: Actor, app_id: object, scopes: Iterable[str]) -> ConnectedApp:
    """Only the scopes of an app's grant (`manage.py mcp --scopes`), its categories unchanged."""
    app = app_get(actor=actor, app_id=app_id)
    grant = Grant(
        scopes=tuple(s for s in ALL_SCOPES if s in set(scopes)),
        categories=tuple(app.categories),
        hidden_categories=tuple(app.hidden_categories),
        sees_uncategorised=app.sees_uncategorised,
    )
    return app_update_grant(actor=actor, app_id=app.pk, grant=grant)


def _logged_grant(app: ConnectedApp) -> dict[str, Any]:
    """A grant as the access log records it: the scopes, the ticked categories (shown by the
    admin as custodian counts) and the uncategorised switch. An app that was never edited holds
    the default grant (no list at all): "default", not "none"."""
    default = not app.categories and not app.hidden_categories
    return {
        "scopes": list(app.scopes),
        "categories": "default" if default else list(app.categories),
        "sees_uncategorised": app.sees_uncategorised,
    }


def _managed_app(actor: Actor, app_id: object) -> ConnectedApp:
    """A live app the owner manages (`app_get`), row-locked for a change."""
    app = app_get(actor=actor, app_id=app_id)
    return ConnectedApp.objects.select_for_update().get(owner=actor.user, pk=app.pk)


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
    return _app_set_flag(
        actor,
        app_id,
        "paused",
        paused,
        owner_app=gettext_noop("A built-in door cannot be paused."),
        revoked=gettext_noop("This app was revoked; it cannot be paused or resumed."),
    )


def app_set_review(*, actor: Actor, app_id: object, review: bool) -> ConnectedApp:
    """Turn on or off the owner's review of this app's writes (memories/services/app_review.py): on,
    its adds, updates and deletes wait on the Review page until the owner accepts them. Turning it
    off leaves what already waits there to the owner's decision."""
    return _app_set_flag(
        actor,
        app_id,
        "review_writes",
        review,
        owner_app=gettext_noop("The owner's own changes are never held for review."),
        revoked=gettext_noop("This app was revoked; its changes can no longer be reviewed."),
    )


def _app_set_flag(
    actor: Actor, app_id: object, field: str, value: bool, *, owner_app: str, revoked: str
) -> ConnectedApp:
    """Set one of a live third-party app's switches under its row lock, recorded with from and
    to when it changes (the refusals name why a built-in app or a revoked app has none)."""
    require_owner(actor)
    with transaction.atomic():
        app = _owned_app(actor, app_id)
        if app.is_owner_app:
            raise Conflict(owner_app)
        if app.revoked_at is not None:
            raise Conflict(revoked)
        previous = getattr(app, field)
        if previous != value:
            setattr(app, field, value)
            app.save(update_fields=[field])
            app_change_record(actor, app, {field: {"from": previous, "to": value}})
    return app


def app_change_record(actor: Actor, app: ConnectedApp, change: dict[str, Any]) -> None:
    """The access event of a change to an app (created, paused, revoked), written in the
    caller's transaction: the owner's log says which of their apps made the change. Once it
    commits, this process reads its cached credentials again (`accounts.access_changes`)."""
    access_changed()
    access_event_create(
        actor, AccessEvent.Action.STATE, detail={"app_id": app.pk, "app": app.name, **change}
    )


def app_revoke(*, actor: Actor, app_id: object) -> ConnectedApp:
    """Revoke for good: the app's tokens are deleted, so its very next request fails; a local
    (stdio) app's name stays refused when its command is launched again (`DisconnectedApp`)
    until the owner allows it again (`app_allow_again`)."""
    require_owner(actor)
    with transaction.atomic():
        app = _owned_app(actor, app_id)
        if app.is_owner_app:
            raise Conflict(gettext_noop("A built-in door cannot be revoked."))
        if app.revoked_at is None:
            now = timezone.now()
            if app.kind == ConnectedApp.Kind.OAUTH:
                Token.objects.filter(
                    user=actor.user, client_id__in=_oauth_client_ids(actor.user, app)
                ).delete()
            if app.kind == ConnectedApp.Kind.TOKEN:
                ClientToken.objects.filter(owner=actor.user, app=app, revoked_at=None).update(
                    revoked_at=now
                )
            if app.kind == ConnectedApp.Kind.STDIO:
                stdio_disconnect(actor.user, [app.name])
            app.revoked_at = now
            app.paused = True
            app.save(update_fields=["revoked_at", "paused"])
            app_change_record(actor, app, {"revoked": True})
    return app


def stdio_disconnect(user: User, names: Iterable[str]) -> None:
    """These local apps' names stay refused (in the caller's transaction): the revoke of one,
    or an erase, which disconnects every app."""
    DisconnectedApp.objects.bulk_create(
        [DisconnectedApp(owner=user, name=name) for name in names], ignore_conflicts=True
    )
    access_changed()


def app_allow_again(*, actor: Actor, name: str) -> bool:
    """The owner lets a disconnected local app connect again: the next launch of its command
    makes a new app with the default grant (or the scopes the command names). False when no
    app of that name was disconnected (nothing changes)."""
    require_owner(actor)
    with transaction.atomic():
        lifted, _ = DisconnectedApp.objects.filter(owner=actor.user, name=name).delete()
        if lifted:
            access_event_create(
                actor, AccessEvent.Action.STATE, detail={"app": name, "allowed_again": True}
            )
    return bool(lifted)
