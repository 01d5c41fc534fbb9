"""Operational endpoints: liveness and readiness."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
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
