"""OAuth endpoints answer errors in JSON, never an HTML page.

Connectors parse the body of every answer from the token, registration, revocation and userinfo
endpoints and from the metadata documents; Django's own 404, 405, 413 and 500 answers are HTML
or empty, which clients report as "unexpected response" instead of the error. This middleware
rewrites any non-JSON error under those paths into RFC 6749's shape (`error`,
`error_description`). The authorization endpoint is a page a person sees, and stays HTML.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

OAUTH_PREFIXES = ("/identity/o/api/", "/.well-known/")
# Every request to the authorization server (its pages included) is checked for NUL characters.
AUTHORIZATION_SERVER = "/identity/o/"
_NUL = "A parameter holds a NUL character (U+0000), which no client, code or token contains."

# RFC 6749 error codes where one fits; the HTTP meaning otherwise (as /mcp answers).
_CODES = {
    400: "invalid_request",
    401: "invalid_token",
    403: "access_denied",
    404: "not_found",
    405: "method_not_allowed",
    413: "invalid_request",
    429: "temporarily_unavailable",
    503: "temporarily_unavailable",
}


def is_oauth_path(path: str) -> bool:
    return path.startswith(OAUTH_PREFIXES)


def oauth_error_body(status: int, description: str | None = None) -> dict[str, str]:
    code = _CODES.get(status, "server_error" if status >= 500 else "invalid_request")
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    return {"error": code, "error_description": description or phrase}


def _is_json(response: HttpResponse) -> bool:
    return str(response.get("Content-Type", "")).startswith("application/json")


class OAuthJsonErrorsMiddleware:
    """Outermost on purpose: it sees the 500 page Django makes of an exception in any view or
    middleware below it, and the 503 of a lost database."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(AUTHORIZATION_SERVER) and _carries_nul(request):
            # allauth would look the value up in PostgreSQL, which cannot even compare a NUL:
            # a 500 with the value in the log. Refused here, before any view.
            if not is_oauth_path(request.path):
                return HttpResponseBadRequest(_NUL, content_type="text/plain")
            refused = JsonResponse(oauth_error_body(400, _NUL), status=400)
            refused["Cache-Control"] = "no-store"
            return refused
        response = self.get_response(request)
        if response.status_code < 400 or not is_oauth_path(request.path) or _is_json(response):
            return response
        description = None
        if response.status_code == 405 and response.get("Allow"):
            description = f"Method not allowed; use {response['Allow']}."
        replacement = JsonResponse(
            oauth_error_body(response.status_code, description), status=response.status_code
        )
        for header in ("Allow", "Retry-After", "WWW-Authenticate", "Access-Control-Allow-Origin"):
            if header in response:
                replacement[header] = response[header]
        replacement["Cache-Control"] = "no-store"
        return replacement


def _carries_nul(request: HttpRequest) -> bool:
    """A NUL in the query, a form field (names too) or a JSON body. A body too large to read is
    left to the view (its JSON 413)."""
    try:
        return _nul_in(request)
    except RequestDataTooBig:
        return False


def _nul_in(request: HttpRequest) -> bool:
    forms = [request.GET]
    if request.method == "POST" and request.content_type == "application/json":
        if b"\\u0000" in request.body or b"\x00" in request.body:
            return True
    elif request.method == "POST":
        forms.append(request.POST)
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for form in forms
        for key, values in form.lists()
    )


def oauth_not_found(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    """For allauth routes we do not offer (the device flow): gone, in JSON."""
    return HttpResponse(
        json.dumps(oauth_error_body(404)), status=404, content_type="application/json"
    )
