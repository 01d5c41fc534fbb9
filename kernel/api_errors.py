"""One JSON error shape for the whole API, and the mapping from domain errors to HTTP statuses.

Every error body is `{"error": {"code": ..., "message": ..., "field": ...}}`; clients branch on
`code`, which is stable. Routers declare the statuses they can return with `error_responses()`.
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.core.exceptions import ReauthenticationRequired
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError

from kernel.errors import (
    AppPaused,
    Conflict,
    DomainError,
    InvalidInput,
    NotFound,
    OwnerOnly,
    ScopeRequired,
)
from kernel.middleware import unavailable_response
from kernel.ratelimit import RateLimited

logger = logging.getLogger("contextlayer.api")


class ErrorDetail(Schema):
    code: str
    message: str
    field: str | None = None


class ErrorOut(Schema):
    error: ErrorDetail


# Every operation can answer these: bad input, no credential, wrong scope or CSRF, database down.
BASE_ERRORS = (400, 401, 403, 503)


def error_responses(*extra: int) -> dict[Any, Any]:
    """The `response=` entries for errors: the base statuses plus e.g. 404, 409, 413."""
    return {frozenset((*BASE_ERRORS, *extra)): ErrorOut}


_STATUS_FOR: tuple[tuple[type[DomainError], int], ...] = (
    (InvalidInput, 400),
    (NotFound, 404),
    (ScopeRequired, 403),
    (AppPaused, 403),
    (OwnerOnly, 403),
    (Conflict, 409),
)


def domain_status(exc: DomainError) -> int:
    """The HTTP status of a domain error (400 for one without its own)."""
    if isinstance(exc, RateLimited):
        return 429
    return next((s for cls, s in _STATUS_FOR if isinstance(exc, cls)), 400)


_CODE_FOR_STATUS = {
    400: "invalid",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    429: "rate_limited",
    503: "unavailable",
}


# The 401 every API entry point answers: Ninja's auth and the upload guard in front of Django.
UNAUTHENTICATED = "Sign in, or send a bearer token in the Authorization header."
API_CHALLENGE = 'Bearer realm="api"'


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    """The API's one error shape."""
    return {"error": {"code": code, "message": message, "field": field or None}}


def error_response(
    api: NinjaAPI,
    request: HttpRequest,
    status: int,
    code: str,
    message: str,
    field: str | None = None,
) -> HttpResponse:
    return api.create_response(request, error_body(code, message, field), status=status)


def _validation_field(loc: tuple[Any, ...] | list[Any]) -> str:
    # ninja prefixes the source ("body", "query", "path") and the schema argument name.
    parts = [str(p) for p in loc[1:]]
    if len(parts) > 1 and parts[0] in {"payload", "filters", "params"}:
        parts = parts[1:]
    return ".".join(parts)


def install_error_handlers(api: NinjaAPI) -> None:
    """Register the mapping on `api`; every handler answers with the one error shape."""
    _install_domain_handlers(api)
    _install_request_handlers(api)


def _install_domain_handlers(api: NinjaAPI) -> None:
    """What the services refuse (domain errors, rate limits) and what Ninja's schemas refuse."""

    @api.exception_handler(RateLimited)
    def rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
        response = error_response(api, request, 429, exc.code, exc.message)
        response["Retry-After"] = str(exc.retry_after)
        return response

    @api.exception_handler(DomainError)
    def domain_error(request: HttpRequest, exc: DomainError) -> HttpResponse:
        status = domain_status(exc)
        return error_response(
            api, request, status, exc.code, exc.message, getattr(exc, "field", None)
        )

    @api.exception_handler(ValidationError)
    def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        errors = exc.errors or [{"loc": (), "msg": "Invalid input."}]
        if all(tuple(e.get("loc", ()))[:1] == ("path",) for e in errors):
            # A malformed id is a missing object, exactly like another user's id.
            return error_response(api, request, 404, "not_found", "No object with that id.")
        first = errors[0]
        field = _validation_field(tuple(first.get("loc", ())))
        return error_response(api, request, 400, "invalid", str(first.get("msg", "")), field)


def _install_request_handlers(api: NinjaAPI) -> None:
    """What the framework refuses around the services: no credential, CSRF, a stale sign-in,
    an unknown URL, a body over the limit, and the database gone."""

    @api.exception_handler(AuthenticationError)
    def unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        response = error_response(api, request, 401, "unauthenticated", UNAUTHENTICATED)
        response["WWW-Authenticate"] = API_CHALLENGE
        return response

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        status = exc.status_code
        code = "csrf_failed" if "CSRF" in str(exc) else _CODE_FOR_STATUS.get(status, "error")
        return error_response(api, request, status, code, str(exc))

    @api.exception_handler(ReauthenticationRequired)
    def reauthentication_required(
        request: HttpRequest, exc: ReauthenticationRequired
    ) -> HttpResponse:
        # allauth's gate (erase): a JSON client cannot follow its redirect, so say where to go.
        return error_response(
            api,
            request,
            403,
            "reauthentication_required",
            "Confirm it is you first: sign in again at /accounts/reauthenticate/ in this browser"
            " session, then retry within five minutes.",
        )

    @api.exception_handler(Http404)
    def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return error_response(api, request, 404, "not_found", "Not found.")

    @api.exception_handler(RequestDataTooBig)
    def too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        return error_response(
            api, request, 413, "too_large", "The request body is larger than this server accepts."
        )

    @api.exception_handler(OperationalError)
    @api.exception_handler(InterfaceError)
    def database_unavailable(request: HttpRequest, exc: Exception) -> HttpResponse:
        logger.warning("database unavailable", extra={"error": str(exc)[:200]})
        return unavailable_response(request)
