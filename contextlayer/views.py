"""Operational endpoints: liveness and readiness; the 400 handler that says 413 when it is."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@never_cache
@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers. No database, no auth."""
    return HttpResponse("ok", content_type="text/plain")


@never_cache
@require_GET
def ready(request: HttpRequest) -> HttpResponse:
    """Readiness: the database answers; 503 otherwise, quickly."""
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
    except DatabaseError:
        connection.close_if_unusable_or_obsolete()
        return HttpResponse("database unavailable", status=503, content_type="text/plain")
    return HttpResponse("ready", content_type="text/plain")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django answers a body over DATA_UPLOAD_MAX_MEMORY_SIZE (or with too many fields) with a
    plain 400; a client should learn that it was too large (413), as the API says."""
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        return HttpResponse(
            "The request body is larger than this server accepts.",
            status=413,
            content_type="text/plain",
        )
    if request.path.startswith("/api/"):
        # E.g. a Host header this server does not serve: the API's clients parse JSON errors.
        return JsonResponse(
            {"error": {"code": "bad_request", "message": "Bad request.", "field": None}},
            status=400,
        )
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]
