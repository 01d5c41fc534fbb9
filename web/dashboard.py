"""What every dashboard page shares, in both apps: a signed-in owner, a typed request, and domain
errors mapped to HTTP once (another user's or a missing object is a 404, never a 403)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext
from django_htmx.middleware import HtmxDetails

from accounts.actors import Actor, owner_actor
from accounts.models import User
from kernel.errors import AppPaused, DomainError, NotFound, OwnerOnly, ScopeRequired

View = Callable[..., HttpResponse]


class DashboardRequest(HttpRequest):
    """A request that passed `dashboard_view`: a signed-in user, and django-htmx's details."""

    user: User  # narrowed by login_required
    htmx: HtmxDetails


def dashboard_view(view: View) -> View:
    """Signed-in only; domain errors a view does not handle itself become HTTP answers."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except NotFound as err:
            raise Http404(err.message) from None
        except (ScopeRequired, AppPaused, OwnerOnly) as err:
            raise PermissionDenied(err.message) from None

    return wrapper


def error_sentence(err: DomainError) -> str:
    """A domain error as the dashboard says it, in the page's language: its English template
    (kernel/errors.py) translated here, once, and filled with its values; a sentence nobody
    marked for translation stays as the API words it."""
    if err.values:
        return gettext(err.template) % err.values
    return gettext(err.message) if err.message else ""


def service_sentence(text: str) -> str:
    """A note a service wrote for every entry point ("An identical memory already exists; it
    was returned."), in the page's language when it was marked `gettext_noop` where it is
    written; else as written."""
    return gettext(text) if text else ""


def actor_for_request(request: HttpRequest) -> Actor:
    """The signed-in owner acting through the dashboard app; looked up once per request (the
    view and the templates' tags share it)."""
    actor: Actor | None = getattr(request, "_dashboard_actor", None)
    if actor is None or actor.user.pk != request.user.pk:
        actor = owner_actor(request.user)  # type: ignore[arg-type]  # signed in
        request._dashboard_actor = actor  # type: ignore[attr-defined]
    return actor
