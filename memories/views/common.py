"""What every dashboard view shares: the actor, domain errors as HTTP, safe redirects."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.actors import Actor, owner_actor
from accounts.models import User
from memories.errors import AppPaused, NotFound, ScopeRequired

View = Callable[..., HttpResponse]


def dashboard_view(view: View) -> View:
    """Signed-in only; another user's (or a missing) memory is a 404, never a 403."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except NotFound as err:
            raise Http404(err.message) from None
        except (ScopeRequired, AppPaused) as err:
            raise PermissionDenied(err.message) from None

    return wrapper


def actor_for_request(request: HttpRequest) -> Actor:
    user = request.user
    assert isinstance(user, User)
    return owner_actor(user)


def next_url(request: HttpRequest, default: str) -> str:
    """Where a non-htmx form post returns to: its `next` field if it is on this site."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return default
