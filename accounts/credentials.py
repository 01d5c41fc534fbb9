"""Who a bearer token speaks for: the one place where a token becomes a user, an app and scopes.

`resolve_bearer` is the extension point for every kind of bearer token the MCP endpoint accepts.
Client tokens (`clt_…`) are resolved here; OAuth access tokens are added as another branch that
returns the same `Credential`. The HTTP layer never looks inside a token itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from accounts.actors import Actor, actor_for, touch_app
from accounts.client_tokens import TOKEN_PREFIX, client_token_lookup
from accounts.models import ConnectedApp, User
from accounts.oauth_tokens import oauth_token_lookup


@dataclass(frozen=True)
class Credential:
    """A verified bearer token: whose it is, which door it opens, what it may do."""

    user: User
    app: ConnectedApp  # the door; every AccessEvent names this app, never a User-Agent
    scopes: frozenset[str]  # what the token grants (narrowed again by the app's own grant)
    client_name: str  # shown in audit lines: the token's name or the OAuth client's name
    expires_at: datetime | None = None
    kind: str = "client_token"  # "client_token" | "oauth"
    token_id: str = ""  # e.g. "clt:12"; for logs, never the secret

    def actor(self) -> Actor:
        return actor_for(self.user, self.app, self.scopes)


def resolve_bearer(raw: str, *, resource: str) -> Credential | None:
    """The credential for a bearer token presented at `resource` (e.g. `https://host/mcp`).

    None when the token is unknown, expired, revoked, or not valid for that resource; the caller
    answers 401. Synchronous (it reads the database): call it through `sync_to_async`.
    """
    raw = raw.strip()
    if raw.startswith(TOKEN_PREFIX):
        # Client tokens are issued by this server for all of its resources (/mcp, /api/v1).
        token = client_token_lookup(raw)
        if token is None:
            return None
        touch_app(token.app)
        return Credential(
            user=token.owner,
            app=token.app,
            scopes=frozenset(token.scopes),
            client_name=token.name,
            expires_at=token.expires_at,
            kind="client_token",
            token_id=f"clt:{token.pk}",
        )
    # OAuth access tokens (allauth IdP): only if bound to this very resource, and only with the
    # scopes both the token and the app's current grant allow (Credential.actor narrows).
    access = oauth_token_lookup(raw, resource=resource)
    if access is None:
        return None
    touch_app(access.app)
    return Credential(
        user=access.user,
        app=access.app,
        scopes=access.scopes,
        client_name=access.client.name,
        expires_at=access.token.expires_at,
        kind="oauth",
        token_id=f"oauth:{access.token.pk}",
    )
