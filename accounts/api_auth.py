"""How the API knows who is calling: the browser session (with CSRF) or a bearer token.

Both produce an `Actor` in `request.auth`, so routes hand it straight to the service layer, which
applies the same consent rules as every other entry point.
"""

from __future__ import annotations

from typing import cast

from django.http import HttpRequest
from ninja.security import HttpBearer, SessionAuth

from accounts.actors import Actor, owner_actor
from accounts.credentials import resolve_bearer
from accounts.models import ConnectedApp, User
from kernel.gates import request_acting
from kernel.origin import api_url, public_origin
from kernel.ratelimit import enforce


def resolve_api_bearer(raw: str, *, resource: str) -> Actor | None:
    """The actor a bearer token stands for on the API resource, or None to refuse it.

    The credential store (`accounts.credentials.resolve_bearer`) is shared with MCP: client
    tokens are valid on both resources; an OAuth token only on the resource it was issued for,
    so one bound to `/mcp` is refused here. The actor carries the intersection of the app's
    grant and the token's scopes.
    """
    credential = resolve_bearer(raw, resource=resource)
    if credential is None:
        return None
    enforce("api", f"app:{credential.app.pk}")
    enforce("api_user", f"user:{credential.user.pk}")  # minting tokens does not add budget
    return credential.actor()


class BearerAuth(HttpBearer):
    """`Authorization: Bearer <token>`; CSRF does not apply (no ambient credential)."""

    def authenticate(self, request: HttpRequest, token: str) -> Actor | None:
        if not token:
            return None
        return resolve_api_bearer(token, resource=api_url(public_origin(request)))


class SessionActorAuth(SessionAuth):
    """The signed-in browser user, acting through their built-in `api` app.

    An anonymous request yields None before the CSRF check, so it gets 401 rather than a CSRF
    403; a signed-in unsafe request without a valid CSRF token still gets 403.
    """

    def _get_key(self, request: HttpRequest) -> str | None:
        if not request.user.is_authenticated:
            return None
        return super()._get_key(request)

    def authenticate(self, request: HttpRequest, key: str | None) -> Actor | None:
        user = request.user
        if not user.is_authenticated:
            return None
        enforce("api", f"user:{user.pk}")
        return owner_actor(cast(User, user), ConnectedApp.API)


def request_actor(request: HttpRequest) -> Actor:
    """The authenticated actor of an API request (set by one of the auth classes above)."""
    return cast(Actor, request_acting(request))


API_AUTH = [BearerAuth(), SessionActorAuth()]
