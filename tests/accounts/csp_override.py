"""A test-only middleware that forces the Content-Security-Policy of authorization responses,
whatever the consent view sets, so the doctor can be shown a deliberately strict (or a
permissive) policy. Installed per test with override_settings(MIDDLEWARE=…, TEST_CONSENT_CSP=…)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ForcedConsentCSP:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path == "/identity/o/authorize":
            response["Content-Security-Policy"] = str(getattr(settings, "TEST_CONSENT_CSP", ""))
        return response
