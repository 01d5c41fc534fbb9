"""Who a bearer token speaks for: the one place where a token becomes a user, an app and scopes.

`resolve_bearer` is the extension point for every kind of bearer token the MCP endpoint accepts.
Client tokens (`clt_…`) are resolved here; OAuth access tokens are added as another branch that
returns the same `Credential`. The HTTP layer never looks inside a token itself.

`CredentialCache` keeps what `resolve_bearer` answered for up to a second per process, so a
client calling often is not looked up on every call; see its docstring for what that delays.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import threading
import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from accounts.access_changes import access_changes
from accounts.actors import Actor, actor_for, touch_app
from accounts.client_tokens import TOKEN_PREFIX, client_token_lookup
from accounts.models import ConnectedApp, User
from accounts.oauth_tokens import oauth_token_lookup


@dataclass(frozen=True)
class Credential:
    """A verified bearer token: whose it is, which app it speaks through, what it may do."""

    user: User
    app: ConnectedApp  # every AccessEvent names this app, never a User-Agent
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


class CredentialCache:
    """Credentials this process resolved less than `CREDENTIAL_CACHE_SECONDS` ago (1 by default,
    0 turns it off), keyed by the token's hash and the resource, never the secret.

    A cached credential is used as it was read, with one exception: a change to who may call
    made by this very process (an app revoked, paused or narrowed, a token revoked, an erase:
    `accounts.access_changes`) makes it read every credential again once the change commits, so
    the process that revoked refuses the token's very next request. Made by another process
    (another worker, a command, another node), revoking or pausing the app, narrowing its grant,
    deactivating the user or deleting an OAuth token reaches this process's next request after
    at most that many seconds (tests/deploy/test_mcp_worker_state.py checks revocation and
    pause across gunicorn workers). A token past its own expiry is never answered from here.
    Only answers for a live token are kept, so a token made a moment ago works at once. Each
    caller gets its own copies of the user and the app rows, so no request sees another's
    changes to them.
    """

    MAX_ENTRIES = 10_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[tuple[str, str], tuple[float, int, Credential]] = {}

    @staticmethod
    def _key(raw: str, resource: str) -> tuple[str, str]:
        return hashlib.sha256(raw.strip().encode()).hexdigest(), resource

    def get(self, raw: str, *, resource: str) -> Credential | None:
        """The credential resolved for this token less than the cache's seconds ago, or None."""
        with self._lock:
            entry = self._entries.get(self._key(raw, resource))
        if entry is None:
            return None
        read_at, changes, credential = entry
        if time.monotonic() - read_at >= settings.CREDENTIAL_CACHE_SECONDS:
            return None
        if changes != access_changes():  # this process changed who may call since
            return None
        if credential.expires_at is not None and credential.expires_at <= timezone.now():
            return None
        return dataclasses.replace(
            credential, user=copy.copy(credential.user), app=copy.copy(credential.app)
        )

    def resolve(self, raw: str, *, resource: str) -> Credential | None:
        """`resolve_bearer`, answered from the cache while its answer is fresh."""
        cached = self.get(raw, resource=resource)
        if cached is not None:
            return cached
        read_at = time.monotonic()  # before the read: an entry never outlives its bound
        changes = access_changes()  # likewise: a change committed during the read counts
        credential = resolve_bearer(raw, resource=resource)
        if credential is not None and settings.CREDENTIAL_CACHE_SECONDS > 0:
            with self._lock:
                if len(self._entries) >= self.MAX_ENTRIES:
                    self._entries.clear()
                self._entries[self._key(raw, resource)] = (read_at, changes, credential)
            return dataclasses.replace(
                credential, user=copy.copy(credential.user), app=copy.copy(credential.app)
            )
        return credential
