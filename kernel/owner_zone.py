"""The owner's time zone for the dashboard's server-side dates (day bars, "today").

The browser reports its IANA zone in the `tz` cookie (static/js/app.js); a name this server's
zone database does not know, or no cookie, leaves UTC. Times shown as `<time data-local>` are
turned into local time in the browser either way; this is for what the server groups by day.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import cache, lru_cache

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "tz"
_LONGEST = 64  # IANA names are at most ~30 characters; anything longer is not one.


@cache
def _known() -> frozenset[str]:
    """The zone database's names, read once: listing them walks the tzdata files (~10 ms), which
    a cookie of random names must not make every request pay."""
    return frozenset(zoneinfo.available_timezones())


@lru_cache(maxsize=64)
def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    """The zone called `name`, or None when it is not a zone this server knows."""
    if not name or len(name) > _LONGEST or name not in _known():
        return None
    return zoneinfo.ZoneInfo(name)


class OwnerZoneMiddleware:
    """Activate the zone the browser reported for this request; UTC otherwise."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = zone_named(request.COOKIES.get(COOKIE, ""))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
