"""When PostgreSQL goes away, answer 503 at once instead of a 500 page; recover when it returns.

Django closes a connection that raised at the end of the request (CONN_HEALTH_CHECKS and
`close_if_unusable_or_obsolete`), so the next request reconnects without a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError, close_old_connections
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger("contextlayer.db")

# What every entry point says while PostgreSQL is down (pages, the API, MCP responses, tool
# errors).
UNAVAILABLE = "The database is unavailable; retry shortly."
RETRY_AFTER = "5"


def unavailable_response(request: HttpRequest) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {
                "error": {
                    "code": "unavailable",
                    "message": UNAVAILABLE,
                    "field": None,
                }
            },
            status=503,
        )
    else:
        response = HttpResponse(UNAVAILABLE, status=503, content_type="text/plain")
    response["Retry-After"] = RETRY_AFTER
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        except (OperationalError, InterfaceError) as exc:
            return self._unavailable(request, exc)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError | InterfaceError):
            return self._unavailable(request, exception)
        return None

    def _unavailable(self, request: HttpRequest, exc: Exception) -> HttpResponse:
        logger.warning(
            "database unavailable", extra={"path": request.path, "error": str(exc)[:200]}
        )
        close_old_connections()
        return unavailable_response(request)
