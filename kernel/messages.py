"""Messages ("Memory added.", "Deleted 2 memories.") in one place, for htmx requests too.

Views queue messages with `django.contrib.messages` whatever the request; on a full page
`templates/_messages.html` shows them at the top. An htmx response swaps only a fragment, so this
middleware appends the same region as an out-of-band swap: the message appears once, in the
same place, never inside the rows the fragment holds. A POST without messages clears the region,
so the message of an earlier action does not linger next to a newer one.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

REGION = "_messages.html"
# Response headers after which htmx loads another page: that page shows the messages instead.
_NAVIGATES = ("HX-Redirect", "HX-Refresh", "HX-Location")


class HtmxMessagesMiddleware:
    """Below MessageMiddleware (it must read the messages before they are stored again) and
    HtmxMiddleware (it needs `request.htmx`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or not self._swappable(response):
            return response
        pending = messages.get_messages(request)
        if not pending and request.method != "POST":
            return response
        region = render_to_string(REGION, {"messages": pending, "oob": True}, request=request)
        response.content += region.encode(response.charset)
        return response

    @staticmethod
    def _swappable(response: HttpResponse) -> bool:
        return (
            not response.streaming
            and 200 <= response.status_code < 300
            and response.status_code != 204
            and response.get("Content-Type", "").startswith("text/html")
            and not any(header in response for header in _NAVIGATES)
        )
