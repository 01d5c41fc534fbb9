"""A test-only middleware that makes the authorization endpoint behave like a server that
redirects straight off the consent form (a 302 to the client, as allauth does and as this
project did before `oauth.views.hand_back`), under a forced Content-Security-Policy, so the
doctor can be shown a deliberately strict (or a permissive) policy on that redirect chain.
Installed per test with override_settings(MIDDLEWARE=…, TEST_CONSENT_CSP=…)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

CONTINUE = re.compile(rb'<a id="continue"[^>]*href="([^"]+)"')


class _Redirect(HttpResponseRedirect):
    allowed_schemes = ["http", "https", "cursor"]  # as allauth's redirect to a native scheme


class ForcedConsentCSP:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path != "/identity/o/authorize":
            return response
        handed_back = CONTINUE.search(response.content) if response.status_code == 200 else None
        if handed_back is not None:
            target = html.unescape(handed_back.group(1).decode())
            response = _Redirect(target)
        response["Content-Security-Policy"] = str(getattr(settings, "TEST_CONSENT_CSP", ""))
        return response
