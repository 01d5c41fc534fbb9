"""Client tokens: create (shown once), list, revoke, and look up by the secret a client sends.

Every entry point (the `client_token` command, the apps page) calls these functions; the bearer
credential resolver (`accounts.credentials`) calls `client_token_lookup`. Each token is its own
`ConnectedApp`: revoking a token is revoking that app (`accounts.services.app_revoke`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from accounts.models import ALL_SCOPES, DEFAULT_APP_SCOPES, ClientToken, ConnectedApp, User
from accounts.services import Grant, KnownCategory, app_change_record, app_revoke
from kernel.category_names import fold
from kernel.errors import Conflict, InvalidInput, NotFound
from kernel.gates import SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE, require_owner
from kernel.tenancy import cross_tenant

TOKEN_PREFIX = "clt_"  # noqa: S105 - a public marker, not a secret
_SHOWN_PREFIX_LEN = len(TOKEN_PREFIX) + 8
_SHORT_SCOPES = {"read": SCOPE_READ, "write": SCOPE_WRITE, "delete": SCOPE_DELETE}
DEFAULT_SCOPES = DEFAULT_APP_SCOPES


@dataclass(frozen=True)
class IssuedToken:
    token: ClientToken
    secret: str  # the only time the whole secret exists outside the client


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def parse_scopes(raw: str | Iterable[str]) -> list[str]:
    """`read,write` or `memories:read memories:write` → canonical scopes, in a stable order."""
    items = raw.replace(",", " ").split() if isinstance(raw, str) else list(raw)
    wanted: set[str] = set()
    for item in items:
        scope = _SHORT_SCOPES.get(item.strip().lower(), item.strip().lower())
        if scope not in ALL_SCOPES:
            raise InvalidInput(
                f"Unknown scope {item!r}; use read, write, delete (or memories:read, …).",
                field="scopes",
            )
        wanted.add(scope)
    if not wanted:
        raise InvalidInput(gettext_noop("A token needs at least one scope."), field="scopes")
    return [s for s in ALL_SCOPES if s in wanted]


def parse_categories(
    known: Sequence[KnownCategory], raw: str | None, scopes: Iterable[str]
) -> Grant:
    """`--categories`, among the user's categories `known`: None → the default grant (every
    category that is not sensitive); `all` → every category, sensitive ones and memories without
    a category included; `work,health` → only memories in those categories (sensitive ones by
    name), none without a category."""
    if raw is None:
        return Grant.default(known=known, scopes=scopes)
    names = [fold(n) for n in raw.replace(",", " ").split() if n.strip()]
    if not names:
        raise InvalidInput("Name at least one category, or `all`.", field="categories")
    if names == ["all"]:
        every = [c.slug for c in known]
        return Grant.from_ticks(known=known, scopes=scopes, ticked=every, sees_uncategorised=True)
    return Grant.from_ticks(known=known, scopes=scopes, ticked=names, sees_uncategorised=False)


def client_token_create(
    *,
    actor: Actor,
    name: str,
    known: Sequence[KnownCategory],
    scopes: Iterable[str] = DEFAULT_SCOPES,
    expires_at: datetime | None = None,
    categories: str | None = None,
    grant: Grant | None = None,
) -> IssuedToken:
    """A new token and its own connected app; the name must not be taken by a live token. Owner
    only; the owner's access log records it in the same transaction, like every change to an app.
    `known` is the user's category vocabulary (`memories.selectors.grants.known_categories`), which
    the grant (`categories`, see `parse_categories`, or a `grant` the dashboard's ticks made) is
    made of.

    `expires_at=None` never expires; the entry points (the command, the dashboard) make a person
    choose that explicitly and default to an expiry."""
    require_owner(actor)
    user = actor.user
    name = name.strip()
    if not name or len(name) > 120:
        raise InvalidInput(gettext_noop("A token name is 1 to 120 characters."), field="name")
    granted = parse_scopes(scopes)
    if grant is None:  # `grant`: ticked on the dashboard; `categories`: the command's words
        grant = parse_categories(known, categories, granted)
    if expires_at is not None and expires_at <= timezone.now():
        raise InvalidInput(gettext_noop("The expiry must be in the future."), field="expires_at")
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            app = ConnectedApp(owner=user, kind=ConnectedApp.Kind.TOKEN, name=name)
            grant.apply_to(app)
            app.save()
            token = ClientToken.objects.create(
                owner=user,
                app=app,
                name=name,
                prefix=secret[:_SHOWN_PREFIX_LEN],
                token_hash=hash_secret(secret),
                scopes=granted,
                expires_at=expires_at,
            )
            app_change_record(actor, app, {"created": "client token", "scopes": granted})
    except IntegrityError:
        raise Conflict(
            gettext_noop(
                "A live token named %(name)r already exists; revoke it or choose another name."
            ),
            name=name,
        ) from None
    return IssuedToken(token=token, secret=secret)


def client_token_list(*, user: User, include_revoked: bool = False) -> list[ClientToken]:
    qs = ClientToken.objects.filter(owner=user).select_related("app").order_by("-created_at")
    if not include_revoked:
        qs = qs.filter(revoked_at__isnull=True)
    return list(qs)


def client_token_revoke(*, actor: Actor, token: str | int) -> ClientToken:
    """Revoke one token (by id or shown prefix): each token is its own app, so this is revoking
    that app (`app_revoke`: paused, revoked, audited in the same transaction); its next request
    gets a 401. Owner only, like every change to an app."""
    require_owner(actor)
    ref = str(token).strip()
    qs = ClientToken.objects.filter(owner=actor.user, revoked_at__isnull=True)
    if ref.isdigit():
        matches = list(qs.filter(pk=int(ref)))
    elif len(ref) >= _SHOWN_PREFIX_LEN:  # the shown prefix, or the whole secret pasted
        matches = list(qs.filter(prefix=ref[:_SHOWN_PREFIX_LEN]))
    else:
        matches = []
    if len(matches) != 1:
        raise NotFound("live client token" if not matches else "single token with that prefix")
    found = matches[0]
    app = app_revoke(actor=actor, app_id=found.app_id)
    found.revoked_at = app.revoked_at
    return found


def client_token_lookup(secret: str) -> ClientToken | None:
    """The live token for this secret (its app live too), or None. Records last use."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    with cross_tenant("bearer sign-in: the secret's hash is what identifies the owner"):
        token = (
            ClientToken.objects.select_related("app", "owner")
            .filter(token_hash=hash_secret(secret), revoked_at__isnull=True)
            .first()
        )
    if token is None or not token.is_live or token.app.revoked_at is not None:
        return None
    if not token.owner.is_active:
        return None
    now = timezone.now()
    # At most one write a minute per token: the hot path should not write on every call.
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ClientToken.objects.filter(owner_id=token.owner_id, pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
