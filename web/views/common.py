"""What the memories app's dashboard views share beyond `web.dashboard`: safe redirects."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def next_url(request: HttpRequest, default: str) -> str:
    """Where a non-htmx form post returns to: its `next` field if it is on this site."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return default
