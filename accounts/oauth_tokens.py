"""allauth-issued OAuth tokens as seen by our resource servers, and their clean-up."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from allauth.idp.oidc.models import Client, Token
from django.db.models import Exists, OuterRef, Q
from django.db.models.fields.json import KeyTextTransform
from django.utils import timezone

from accounts.models import ALL_SCOPES, ConnectedApp, RotatedRefreshToken, User
from accounts.oauth_clients import client_key
from kernel.tenancy import cross_tenant


@dataclass(frozen=True)
class OAuthAccess:
    token: Token
    user: User
    app: ConnectedApp
    client: Client
    scopes: frozenset[str]


def oauth_token_lookup(raw: str, *, resource: str) -> OAuthAccess | None:
    """The grant behind an access token, only if the token is ours, unexpired, bound to exactly
    this resource (RFC 8707) and the user and the app's grant are still live.

    Unbound tokens are refused: allauth treats "no resource" as valid anywhere; we do not.
    """
    if not raw or len(raw) > 4096:
        return None
    token = (
        Token.objects.select_related("user", "client")
        .filter(type=Token.Type.ACCESS_TOKEN)
        .valid()
        .by_value(raw)
        .first()
    )
    if token is None or token.user is None or token.client is None:
        return None
    user = token.user
    if not user.is_active:
        return None
    wanted = resource.rstrip("/")
    if wanted not in {r.rstrip("/") for r in token.get_resources()}:
        return None
    # Any registration of the same client (name + redirect origins) speaks for the one app.
    app = ConnectedApp.objects.filter(
        owner=user,
        kind=ConnectedApp.Kind.OAUTH,
        oauth_client_key=client_key(token.client),
        revoked_at=None,
    ).first()
    if app is None:  # the grant was revoked (or never recorded): the token speaks for nobody
        return None
    scopes = frozenset(s for s in token.get_scopes() if s in ALL_SCOPES)
    return OAuthAccess(token=token, user=user, app=app, client=token.client, scopes=scopes)


@cross_tenant("scheduled cleanup of stale OAuth clients and grants of all users")
def oauth_cleanup(*, orphan_after: timedelta) -> dict[str, int]:
    """Delete expired tokens and DCR/CIMD clients older than `orphan_after` that never got a grant
    and hold no token (Claude registers a new client on every fresh connection); end grants that
    have no token left."""
    now = timezone.now()
    expired, _ = Token.objects.filter(expires_at__lte=now).delete()
    granted = ConnectedApp.objects.filter(
        kind=ConnectedApp.Kind.OAUTH, oauth_client_id=OuterRef("id")
    )
    tokens = Token.objects.filter(client_id=OuterRef("id"))
    orphans = (
        Client.objects.filter(created_at__lt=now - orphan_after)
        .filter(Q(data__dcr=True) | Q(data__cimd=True))
        .annotate(granted=Exists(granted), has_tokens=Exists(tokens))
        .filter(granted=False, has_tokens=False)
    )
    removed = 0
    for client in orphans:
        client.delete()
        removed += 1
    # A grant whose tokens are all gone (expired, or the client re-registered and dropped them)
    # can never be used again; take it off the connected apps page. Reconnecting asks again.
    # Tokens of any registration with the app's key count (accounts/oauth_clients.py).
    stale = (
        ConnectedApp.objects.filter(kind=ConnectedApp.Kind.OAUTH, revoked_at=None)
        .filter(Q(last_seen_at__lt=now - orphan_after) | Q(last_seen_at=None))
        .filter(created_at__lt=now - orphan_after)
    )
    held = {
        (user_id, client_key(client))
        for user_id, client in (
            (t.user_id, t.client)
            for t in Token.objects.filter(
                user_id__in=stale.values("owner_id"), client__isnull=False
            ).select_related("client")
        )
    }
    dead = [app.pk for app in stale if (app.owner_id, app.oauth_client_key) not in held]
    ended = ConnectedApp.objects.filter(pk__in=dead).update(revoked_at=now)
    # Spent refresh tokens are remembered to catch a replay; once they would have expired, or
    # their grant has no token left to revoke, there is nothing to protect.
    grant_tokens = Token.objects.annotate(grant=KeyTextTransform("grant_id", "data")).filter(
        client_id=OuterRef("client_id"), user_id=OuterRef("user_id"), grant=OuterRef("grant_id")
    )
    spent, _ = (
        RotatedRefreshToken.objects.annotate(live=Exists(grant_tokens))
        .filter(Q(expires_at__lte=now) | Q(live=False))
        .delete()
    )
    return {
        "expired_tokens": expired,
        "orphan_clients": removed,
        "dead_grants": ended,
        "spent_refresh_tokens": spent,
    }
