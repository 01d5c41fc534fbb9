"""The token endpoint: allauth's, with what connectors and OAuth 2.1 need around it.

- A bad `resource` is 400 `invalid_target` (allauth answers 500).
- A client the server does not know (never registered, or deleted by the clean-up) is
  `401 invalid_client`: Claude and others register again on exactly that answer.
- `client_secret_basic` works without `client_id` repeated in the body (allauth crashes on it).
- Redeeming a code issues the grant: the `ConnectedApp` is created or updated in the same
  transaction as the tokens (a consent whose code is never redeemed leaves nothing).
- A refresh token used a second time revokes its whole grant (RFC 9700 §4.14.2; allauth only
  refuses the old token and leaves the newer ones working), and so does a second redemption
  racing the first: the refresh token's row is locked, so exactly one redemption wins.
"""

from __future__ import annotations

import base64
import binascii
import logging
from urllib.parse import unquote

from allauth.idp.oidc import views as oidc_views
from allauth.idp.oidc.internal.cimd import is_cimd_url
from allauth.idp.oidc.internal.resources import get_resources
from allauth.idp.oidc.models import Client, Token
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from accounts.access_changes import access_changed
from accounts.models import RotatedRefreshToken
from accounts.services import oauth_grant_issue
from kernel.errors import InvalidInput
from oauth.oidc import normalized_scope

logger = logging.getLogger("contextlayer.oauth")


def _error(status: int, error: str, description: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"error": error, "error_description": description}, status=status)
    response["Cache-Control"] = "no-store"
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _basic_client_id(request: HttpRequest) -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    client_id, sep, _secret = decoded.partition(":")
    return unquote(client_id) if sep else None


def _is_known(client_id: str) -> bool:
    # A CIMD client is its document's URL: allauth fetches (or re-fetches) it itself.
    return is_cimd_url(client_id) or Client.objects.filter(id=client_id).exists()


def _revoke_grant(rotated: RotatedRefreshToken) -> int:
    """Every token of the grant: access, refresh and any unused code."""
    access_changed()
    deleted, _ = Token.objects.filter(
        client_id=rotated.client_id, user_id=rotated.user_id, data__grant_id=rotated.grant_id
    ).delete()
    return deleted


@csrf_exempt
def token(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return oidc_views.token(request)  # allauth's 405 (made JSON by OAuthJsonErrorsMiddleware)
    params = request.POST.copy()
    if "scope" in params:
        scope = normalized_scope(str(params.get("scope", "")))
        if scope:
            params["scope"] = scope
        else:
            del params["scope"]
    basic = _basic_client_id(request)
    if basic and not params.get("client_id"):
        params["client_id"] = basic
    request.POST = params  # type: ignore[assignment]
    client_id = str(params.get("client_id") or "")
    if client_id and not _is_known(client_id):
        extra = {"WWW_Authenticate": 'Basic realm="token"'} if basic else {}
        return _error(401, "invalid_client", "Unknown client; register again.", **extra)
    try:
        get_resources(request)
    except ValidationError as exc:
        return _error(400, "invalid_target", "; ".join(exc.messages))
    if params.get("grant_type") == "refresh_token":
        return _refresh(request, client_id, str(params.get("refresh_token") or ""))
    try:
        with transaction.atomic():
            response = oidc_views.token(request)
            if response.status_code == 200 and params.get("grant_type") == "authorization_code":
                # The grant is really issued now: the ConnectedApp is created (or updated) in
                # the same transaction as the tokens.
                oauth_grant_issue(code=str(params.get("code", "")))
    except InvalidInput as exc:
        return _error(400, "invalid_grant", exc.message)
    return response


def _refresh(request: HttpRequest, client_id: str, raw: str) -> HttpResponse:
    presented = (
        Token.objects.filter(type=Token.Type.REFRESH_TOKEN).by_value(raw).first() if raw else None
    )
    if presented is None and raw:
        digest = Token(type=Token.Type.REFRESH_TOKEN)
        digest.set_value(raw)
        reused = _reuse(digest.hash, client_id)
        if reused is not None:
            return reused
    with transaction.atomic():
        # One redemption per refresh token, whichever process or node serves it: the row lock
        # makes a concurrent redemption of the same token wait for this one to commit, then find
        # the token spent (and remembered): a reuse like any later replay.
        if (
            presented is not None
            and not Token.objects.select_for_update().filter(pk=presented.pk).exists()
        ):
            reused = _reuse(presented.hash, client_id)
            if reused is not None:
                return reused
        response = oidc_views.token(request)
        grant_id = presented.get_grant_id() if presented is not None else None
        if response.status_code == 200 and presented is not None and grant_id and presented.user_id:
            RotatedRefreshToken.objects.update_or_create(
                hash=presented.hash,
                defaults={
                    "grant_id": grant_id,
                    "client_id": str(presented.client_id),
                    "user_id": presented.user_id,
                    "expires_at": presented.expires_at,
                },
            )
    return response


def _reuse(digest: str, client_id: str) -> HttpResponse | None:
    """A spent refresh token presented again: revoke its whole grant and refuse; None when the
    hash names no spent token of this client."""
    rotated = RotatedRefreshToken.objects.filter(hash=digest, client_id=client_id).first()
    if rotated is None:
        return None
    revoked = _revoke_grant(rotated)
    logger.warning(
        "refresh token reused: grant revoked",
        extra={"client_id": client_id, "grant_id": rotated.grant_id, "tokens": revoked},
    )
    return _error(
        400, "invalid_grant", "This refresh token was already used; the grant is revoked."
    )
