"""Refuse a body no view would accept before Django spools it to disk.

Django's ASGI handler reads the whole request body into a temporary file before any view (and
so before DATA_UPLOAD_MAX_MEMORY_SIZE, IMPORT_MAX_UPLOAD_BYTES or any permission) is consulted.
So, before Django sees the request:

- a declared Content-Length above what its path accepts (an import upload and its multipart
  framing on the two upload paths, DATA_UPLOAD_MAX_MEMORY_SIZE everywhere else) is answered 413;
- an upload (`POST /api/v1/imports`, `POST /import/`) is answered at once unless its caller may
  import: a bearer token must stand for one of the owner's own apps with write access (a
  read-only, paused or third-party app gets the API's 403/404), and without one there must be a
  signed-in session (Django then checks it, and CSRF, as for any form).
"""

from __future__ import annotations

import json
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db import InterfaceError, OperationalError, close_old_connections
from django.http.cookie import parse_cookie
from django.urls import reverse
from starlette.datastructures import Headers
from starlette.types import Scope, Send

from oauth.errors import is_oauth_path, oauth_error_body

MULTIPART_SLACK = 1024 * 1024
UPLOAD_PATHS = frozenset({"/api/v1/imports", "/import/"})

Refusal = tuple[int, str, str, list[tuple[bytes, bytes]]]  # status, code, message, headers


def largest_body(path: str) -> int:
    general = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if path in UPLOAD_PATHS or general is None:
        return int(settings.IMPORT_MAX_UPLOAD_BYTES) + MULTIPART_SLACK
    return int(general) + MULTIPART_SLACK


def declared_too_large(scope: Scope) -> bool:
    try:
        length = int(Headers(scope=scope).get("content-length", "0"))
    except ValueError:
        return False  # Django answers a malformed header itself
    return length > largest_body(scope["path"])


async def refuse(scope: Scope, send: Send) -> None:
    await _answer(scope, send, (413, "too_large", _TOO_LARGE, []))


_TOO_LARGE = "The request body is larger than this server accepts."


async def refuse_upload(scope: Scope, send: Send) -> bool:
    """Answer an upload from a caller that may not import, without reading its body; False lets
    the request through."""
    if scope.get("method") != "POST" or scope["path"] not in UPLOAD_PATHS:
        return False
    headers = Headers(scope=scope)
    refusal = await sync_to_async(_upload_refusal)(headers, scope.get("scheme", "http"), scope)
    if refusal is None:
        return False
    await _answer(scope, send, refusal)
    return True


def _upload_refusal(headers: Headers, scheme: str, scope: Scope) -> Refusal | None:
    from accounts import api_auth  # Django's apps are loaded by the time a request comes
    from kernel.api_errors import API_CHALLENGE, UNAUTHENTICATED, domain_status
    from kernel.errors import DomainError
    from kernel.middleware import UNAVAILABLE
    from kernel.origin import api_url, origin_of_headers
    from memories.services.uploads import may_upload

    api = scope["path"].startswith("/api/")
    challenge = [(b"www-authenticate", API_CHALLENGE.encode())]
    kind, _, raw = headers.get("authorization", "").partition(" ")
    close_old_connections()
    try:
        if api and kind.lower() == "bearer" and raw.strip():
            origin = origin_of_headers(headers, scheme)
            if origin is None:
                return (400, "invalid", "Bad Host header.", [])
            actor = api_auth.resolve_api_bearer(raw.strip(), resource=api_url(origin))
            if actor is None:
                return (401, "unauthenticated", UNAUTHENTICATED, challenge)
            may_upload(actor)
            return None
        if _signed_in(headers):
            return None  # the session's owner may import; Django checks session and CSRF
        if api:
            return (401, "unauthenticated", UNAUTHENTICATED, challenge)
        login = f"{reverse(settings.LOGIN_URL)}?next={scope['path']}"
        return (302, "", "", [(b"location", login.encode())])
    except DomainError as exc:
        extra = []
        if retry := getattr(exc, "retry_after", None):
            extra.append((b"retry-after", str(retry).encode()))
        return (domain_status(exc), exc.code, exc.message, extra)
    except (OperationalError, InterfaceError):
        return (503, "unavailable", UNAVAILABLE, [(b"retry-after", b"5")])
    finally:
        close_old_connections()


def _signed_in(headers: Headers) -> bool:
    """A session cookie whose session names a user (Django still checks that user)."""
    key = parse_cookie(headers.get("cookie", "")).get(settings.SESSION_COOKIE_NAME)
    if not key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(key)
    return store.get(SESSION_KEY) is not None


async def _answer(scope: Scope, send: Send, refusal: Refusal) -> None:
    from kernel.api_errors import error_body

    status, code, message, extra = refusal
    if scope["path"].startswith("/api/"):
        body = json.dumps(error_body(code, message))
        kind = b"application/json"
    elif is_oauth_path(scope["path"]):
        body, kind = json.dumps(oauth_error_body(413, message)), b"application/json"
    else:
        body, kind = message, b"text/plain; charset=utf-8"
    data = body.encode()
    headers = [(b"content-type", kind), (b"content-length", str(len(data)).encode()), *extra]
    # The unread body stays unread: the connection closes after the answer.
    headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})
