"""The language switch: in Account for a signed-in person (stored with the account), on the
sign-in page for anyone (kept in a cookie); kernel/language.py applies either."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.languages import user_language_set
from kernel.language import offered, remember
from web.dashboard import actor_for_request
from web.views.common import next_url


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Choose a language ('' follows the browser's); back to the page the switch was on."""
    code = request.POST.get("language", "")
    response = redirect(next_url(request, "/"))
    if code and not offered(code):
        return response  # a language this server does not offer changes nothing
    if request.user.is_authenticated:
        user_language_set(actor=actor_for_request(request), language=code)
    remember(response, code)
    return response
