"""The language a page is written in: the person's choice, else their browser's; English for
machines.

Pages a person reads (the dashboard, sign-in, consent) follow, in order: the language the
signed-in person chose in Account (stored with the user, so it holds on every device and from the
moment they sign in), the language cookie (the switch on the sign-in page, or the last choice of
a signed-in person on this browser), then the browser's `Accept-Language`; English otherwise.
What machines read — the REST API's JSON, MCP, the OAuth server's JSON, health checks — is
English whatever the request says: their sentences are part of an interface clients match on.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

# Paths whose answers a program reads. MCP is answered before Django (contextlayer/asgi.py), in
# the default language; it is listed for the record and for a server that routes it here.
MACHINE_PATHS = ("/api/", "/mcp", "/identity/o/api/", "/.well-known/", "/health", "/ready")
# A year: the choice of a person who never signs in (the sign-in page's switch).
COOKIE_AGE = 365 * 24 * 3600


def offered(code: str) -> bool:
    """Whether `code` is one of the languages this server offers (settings.LANGUAGES)."""
    return code in {lang for lang, _ in settings.LANGUAGES}


def chosen_language(request: HttpRequest) -> str:
    """The language the person chose themselves and stored with their account, or ''."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    code = str(getattr(user, "language", "") or "")
    return code if offered(code) else ""


def remember(response: HttpResponse, code: str) -> None:
    """Keep `code` in the language cookie ('' forgets it: the browser's language applies)."""
    if code:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=COOKIE_AGE,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
        )
    else:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME, samesite="Lax")


class PersonLanguageMiddleware:
    """Django's LocaleMiddleware without URL prefixes, with the account's choice first, and
    English for machine paths."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(MACHINE_PATHS):
            request.LANGUAGE_CODE = settings.LANGUAGE_CODE
            with translation.override(settings.LANGUAGE_CODE):
                return self.get_response(request)
        stored = chosen_language(request)
        code = stored or translation.get_language_from_request(request)
        # override, not activate: the language ends with the request, and never reaches an answer
        # the same thread gives a machine next.
        with translation.override(code):
            request.LANGUAGE_CODE = translation.get_language()
            response = self.get_response(request)
        # The choice follows the person to the sign-in page after they sign out (a view that set
        # the cookie itself, the switch, has the last word).
        cookie = settings.LANGUAGE_COOKIE_NAME
        if stored and request.COOKIES.get(cookie) != stored and cookie not in response.cookies:
            remember(response, stored)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        return response
