"""The endpoint of dynamic client registration (RFC 7591). Anyone may register a client, unsigned
and unauthenticated, and allauth keeps the whole metadata document with it; so before allauth
reads a registration, its size is bounded: the body, every string, every list.

Real connectors (Claude, ChatGPT, Cursor, VS Code) send well under 1 KB.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from allauth.idp.oidc import views as oidc_views
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

MAX_BODY_BYTES = 16 * 1024
MAX_STRING_CHARS = 2_000  # a URI, a name, a contact
MAX_LIST_ITEMS = 20  # redirect URIs, contacts, grant types


@csrf_exempt  # a client registering itself has no session, like allauth's own view
def client_registration(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        problem = _too_large(request.body)
        if problem:
            return JsonResponse(
                {"error": "invalid_client_metadata", "error_description": problem}, status=400
            )
    return oidc_views.client_registration(request)


def _too_large(body: bytes) -> str | None:
    if len(body) > MAX_BODY_BYTES:
        return f"The registration is larger than {MAX_BODY_BYTES} bytes."
    try:
        metadata = json.loads(body)
    except ValueError:
        return None  # allauth answers malformed JSON itself
    for value in _values(metadata):
        if isinstance(value, str) and len(value) > MAX_STRING_CHARS:
            return f"A value is longer than {MAX_STRING_CHARS} characters."
        if isinstance(value, list | dict) and len(value) > MAX_LIST_ITEMS:
            return f"A list holds more than {MAX_LIST_ITEMS} entries."
    return None


def _values(value: Any) -> Iterator[Any]:
    """Every value and key in the document (16 KB of JSON cannot nest deeply enough to matter)."""
    stack = [value]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
