"""Refuse a body no view would accept before Django spools it to disk.

Django's ASGI handler reads the whole request body into a temporary file before any view (and
so before DATA_UPLOAD_MAX_MEMORY_SIZE or IMPORT_MAX_UPLOAD_BYTES) is consulted. A declared
Content-Length above the largest body any view accepts (an import upload, plus its multipart
framing) is answered 413 at once, without reading it.
"""

from __future__ import annotations

import json

from django.conf import settings
from starlette.datastructures import Headers
from starlette.types import Scope, Send

from accounts.oauth_errors import is_oauth_path, oauth_error_body

MULTIPART_SLACK = 1024 * 1024


def largest_body() -> int:
    return max(settings.IMPORT_MAX_UPLOAD_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0) + (
        MULTIPART_SLACK
    )


def declared_too_large(scope: Scope) -> bool:
    try:
        length = int(Headers(scope=scope).get("content-length", "0"))
    except ValueError:
        return False  # Django answers a malformed header itself
    return length > largest_body()


async def refuse(scope: Scope, send: Send) -> None:
    message = "The request body is larger than this server accepts."
    if scope["path"].startswith("/api/"):
        body = json.dumps({"error": {"code": "too_large", "message": message, "field": None}})
        kind = b"application/json"
    elif is_oauth_path(scope["path"]):
        body, kind = json.dumps(oauth_error_body(413, message)), b"application/json"
    else:
        body, kind = message, b"text/plain; charset=utf-8"
    data = body.encode()
    headers = [(b"content-type", kind), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": data})
