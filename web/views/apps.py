"""The connected apps page: the owner's apps, their grants, and client tokens."""

from __future__ import annotations

from typing import Any

from allauth.account.decorators import reauthentication_required
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.client_tokens import client_token_create
from accounts.models import ConnectedApp
from accounts.selectors import app_get, disconnected_apps
from accounts.services import (
    Grant,
    app_allow_again,
    app_revoke,
    app_set_paused,
    app_set_review,
    app_update_grant,
)
from kernel.errors import DomainError, InvalidInput
from memories.selectors.grants import (
    category_counts,
    connected_app_list,
    grant_preview,
    known_categories,
)
from web.app_forms import ClientTokenForm, GrantForm, grant_initial
from web.dashboard import DashboardRequest, actor_for_request, dashboard_view, error_sentence


def _apps_page(request: DashboardRequest, **extra: Any) -> HttpResponse:
    actor = actor_for_request(request)
    rows = connected_app_list(actor=actor)
    context = {
        "rows": rows,
        "disconnected": disconnected_apps(actor=actor),
        "delete_holders": [row.app for row in rows if row.can_delete],
        "token_form": extra.pop("token_form", None) or _token_form(request),
    }
    context["token_preview"] = grant_preview(
        request.user, Grant.default(known=known_categories(request.user), scopes=())
    )
    return render(request, "accounts/apps.html", {**context, **extra})


def _token_form(request: DashboardRequest, data: Any = None) -> ClientTokenForm:
    return ClientTokenForm(data, user=request.user, category_counts=category_counts(request.user))


@dashboard_view
def app_list(request: DashboardRequest) -> HttpResponse:
    return _apps_page(request)


@require_POST
@dashboard_view
@reauthentication_required  # a session alone cannot mint a credential that outlives it
def token_create(request: DashboardRequest) -> HttpResponse:
    """Create a client token; its secret is shown on this one response and never again."""
    form = _token_form(request, request.POST)
    if form.is_valid():
        try:
            issued = client_token_create(
                actor=actor_for_request(request),
                name=form.cleaned_data["name"],
                known=form.known,
                scopes=form.cleaned_data["scopes"],
                expires_at=form.expires_at(),
                grant=form.grant(form.cleaned_data["scopes"])
                if form.cleaned_data.get("choose")
                else None,
            )
        except DomainError as exc:
            form.add_error(None, error_sentence(exc))
        else:
            return _apps_page(request, new_token=issued)
    return _apps_page(request, token_form=form)


def _app_action(request: DashboardRequest, app_id: int, action: str) -> HttpResponse:
    actor = actor_for_request(request)
    if action == "pause":
        app = app_set_paused(actor=actor, app_id=app_id, paused=True)
        messages.info(request, _("%(app)s is paused.") % {"app": app.name})
    elif action == "resume":
        app = app_set_paused(actor=actor, app_id=app_id, paused=False)
        messages.info(request, _("%(app)s is active again.") % {"app": app.name})
    elif action in ("review", "unreview"):
        app = app_set_review(actor=actor, app_id=app_id, review=action == "review")
        messages.info(
            request,
            (
                _("%(app)s's changes now wait for your review.")
                if app.review_writes
                else _("%(app)s's changes are saved without your review again.")
            )
            % {"app": app.name},
        )
    else:
        app = app_revoke(actor=actor, app_id=app_id)
        messages.info(
            request,
            (
                _(
                    "%(app)s is disconnected; its access is revoked. Launched again, its command "
                    "stays refused until you allow it again here."
                )
                if app.kind == ConnectedApp.Kind.STDIO
                else _("%(app)s is disconnected; its access is revoked.")
            )
            % {"app": app.name},
        )
    return redirect("accounts:apps")


@require_POST
@dashboard_view
def app_allow_again_view(request: DashboardRequest) -> HttpResponse:
    """A disconnected local app may connect again: its command's next launch makes a new app."""
    name = request.POST.get("name", "")
    if app_allow_again(actor=actor_for_request(request), name=name):
        messages.info(
            request,
            _(
                "%(app)s may connect again: restart the client that starts it, and it appears "
                "here as a new app."
            )
            % {"app": name},
        )
    return redirect("accounts:apps")


@require_POST
@dashboard_view
def app_pause(request: DashboardRequest, app_id: int) -> HttpResponse:
    return _app_action(request, app_id, "pause")


@require_POST
@dashboard_view
def app_resume(request: DashboardRequest, app_id: int) -> HttpResponse:
    return _app_action(request, app_id, "resume")


@require_POST
@dashboard_view
def app_review(request: DashboardRequest, app_id: int) -> HttpResponse:
    """The review toggle: `review=1` holds the app's writes for the owner, anything else not."""
    return _app_action(request, app_id, "review" if request.POST.get("review") else "unreview")


@require_POST
@dashboard_view
def app_revoke_view(request: DashboardRequest, app_id: int) -> HttpResponse:
    return _app_action(request, app_id, "revoke")


@dashboard_view
def app_edit(request: DashboardRequest, app_id: int) -> HttpResponse:
    actor = actor_for_request(request)
    app = app_get(actor=actor, app_id=app_id)
    user = request.user
    counts = category_counts(user)
    initial = {**grant_initial(user, app), "scopes": list(app.scopes)}
    form = GrantForm(request.POST or None, initial=initial, user=user, category_counts=counts)
    preview = grant_preview(user, app, counts)
    if request.method == "POST" and form.is_valid():
        try:
            grant = form.grant(form.cleaned_data["scopes"])
        except InvalidInput as exc:
            form.add_error(None, error_sentence(exc))
        else:
            app_update_grant(actor=actor, app_id=app.pk, grant=grant)
            messages.info(request, _("Saved what %(app)s may do.") % {"app": app.name})
            return redirect("accounts:apps")
    context = {
        "app": app,
        "form": form,
        "preview": preview,
        "sensitive_slugs": form.sensitive_slugs,
        "scopes_note": _SCOPES_NOTE.get(app.kind, ""),
    }
    return render(request, "accounts/app_edit.html", context)


# When a change of scopes reaches each kind of app (accounts.services.app_update_grant).
_SCOPES_NOTE: dict[str, Promise] = {
    ConnectedApp.Kind.STDIO: gettext_lazy(
        "Applies at its next call. If the command that starts it names --scopes, that choice "
        "applies again each time the client starts it."
    ),
    ConnectedApp.Kind.TOKEN: gettext_lazy("Applies to its token at its next call."),
    ConnectedApp.Kind.OAUTH: gettext_lazy(
        "Taking a permission away applies at its next call; one you add reaches it when it "
        "next asks for it (it signs in again)."
    ),
}


@require_POST
@dashboard_view
def grant_preview_view(request: DashboardRequest) -> HttpResponse:
    """The consent page's and the Edit page's sentence, recounted as boxes are (un)ticked (htmx)."""
    user = request.user
    app: ConnectedApp | None = None
    if request.POST.get("app"):
        app = app_get(actor=actor_for_request(request), app_id=request.POST["app"])
    try:
        grant = Grant.from_ticks(
            known=known_categories(user),
            scopes=(),
            ticked=request.POST.getlist("categories"),
            sees_uncategorised=bool(request.POST.get("sees_uncategorised")),
        )
    except InvalidInput as exc:
        return render(request, "accounts/_grant_summary.html", {"error": error_sentence(exc)})
    if app is not None:
        grant.apply_to(app)  # unsaved: the app's own hidden-from marks still count
    preview = grant_preview(user, app or grant)
    return render(request, "accounts/_grant_summary.html", {"preview": preview})
