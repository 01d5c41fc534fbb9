"""OAuth front doors that wrap allauth's IdP, and the connected apps page."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

from allauth.account.decorators import reauthentication_required
from allauth.idp.oidc import views as oidc_views
from allauth.idp.oidc.models import Client
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.client_tokens import client_token_create
from accounts.dashboard import DashboardRequest, actor_for_request, dashboard_view
from accounts.forms import ClientTokenForm, ConsentForm, GrantForm, grant_initial
from accounts.models import SCOPE_DELETE, ConnectedApp, User
from accounts.oauth_clients import return_label
from accounts.oidc import add_issuer, check_redirect_uri
from accounts.oidc import normalized_scope as _normalized_scope
from accounts.services import (
    Grant,
    app_get,
    app_revoke,
    app_set_paused,
    app_set_review,
    app_update_grant,
    oauth_app_for,
    oauth_code_hold_grant,
)
from contextlayer.errors import DomainError, InvalidInput
from contextlayer.origin import public_origin
from memories.grants import category_counts, connected_app_list, grant_preview, known_categories

_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def _hand_back(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Send the browser back to the client from a page of ours, not with a redirect.

    Chromium checks `form-action` against every hop of the redirect chain that follows a form
    submission (the consent form, or a sign-in form whose redirect lands here). A 302 to the
    client, and any redirect the client's callback answers next (claude.ai → claude://), would
    have to be listed in our CSP, and the next hop cannot be known. A page that navigates by
    itself (meta refresh, plus a link) ends the form's chain: no CSP is widened, and `form-action
    'self'` stays on every page. The code travels exactly as in the Location header would."""
    location = response.get("Location", "")
    if response.status_code not in (301, 302, 303, 307, 308) or not location:
        return response
    if url_has_allowed_host_and_scheme(location, allowed_hosts={request.get_host()}):
        return response  # our own pages (sign-in, the normalised authorize URL)
    try:
        check_redirect_uri(location)  # never a link to javascript:, data:, … whatever let it in
    except ValidationError:
        return HttpResponse("This app's return address is not allowed.", status=400)
    location = add_issuer(response, public_origin(request))["Location"]  # RFC 9207
    page = render(
        request,
        "accounts/consent_return.html",
        {"target": location, "returns_to": return_label(location), "target_host": _host(location)},
    )
    page["Cache-Control"] = "no-store"
    page["Referrer-Policy"] = "no-referrer"
    return page


def _host(uri: str) -> str:
    parts = urlsplit(uri)
    return parts.hostname or f"{parts.scheme}:"


class ConsentView(oidc_views.AuthorizationView):
    """allauth's authorize step with our consent page: scopes, categories, the redirect host."""

    form_class = ConsentForm
    template_name = "accounts/consent.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _hand_back(request, super().dispatch(request, *args, **kwargs))

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        raw = request.GET.get("scope")
        if raw is not None and (not raw or raw != _normalized_scope(raw)):
            params = request.GET.copy()
            if _normalized_scope(raw):
                params["scope"] = _normalized_scope(raw)
            else:
                del params["scope"]  # no scope: the client's default scopes apply (read)
            return HttpResponseRedirect(f"{request.path}?{params.urlencode()}")
        if request.GET.get("response_type", "code") != "code":
            return HttpResponse("Only the authorization code flow is supported.", status=400)
        silent = "none" in request.GET.get("prompt", "").split()
        openid = "openid" in request.GET.get("scope", "").split()
        if silent and not openid and not request.user.is_authenticated:
            # allauth lets a signed-out prompt=none through unless it is an OpenID request, then
            # renders consent for nobody (500). Plain OAuth has no prompt: sign in first.
            return redirect_to_login(request.get_full_path())
        return super().get(request, *args, **kwargs)

    def _user(self) -> User:
        return cast(User, self.request.user)

    def _client(self) -> Client:
        return Client.objects.get(id=self._request_info["client_id"])

    def _existing_app(self) -> ConnectedApp | None:
        return oauth_app_for(self._user(), self._client())

    def _counts(self) -> dict[str, int]:
        if not hasattr(self, "_category_counts"):
            self._category_counts = category_counts(self._user())
        return self._category_counts

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "category_counts": self._counts()}

    def get_initial(self) -> dict[str, Any]:
        initial = super().get_initial()
        existing = self._existing_app()
        initial.update(grant_initial(self._user(), existing))
        # Least privilege: delete starts unticked even when the client asks for it (unless
        # the owner granted it to this app before); the owner ticks it to allow it.
        kept = existing is not None and SCOPE_DELETE in existing.scopes
        initial["scopes"] = [s for s in self._scopes if s != SCOPE_DELETE or kept]
        initial["review_writes"] = existing is not None and existing.review_writes
        return initial

    def form_valid(self, form: ConsentForm) -> HttpResponse:  # type: ignore[override]
        # The grant rides on the code; the ConnectedApp exists only once the code is redeemed
        # (`token` below), so a consent the browser never delivers leaves nothing behind.
        with transaction.atomic():
            response = super().form_valid(form)
            location = response.get("Location", "")
            code = parse_qs(urlsplit(location).query).get("code", [""])[0]
            if response.status_code == 302 and code:
                oauth_code_hold_grant(code=code, grant=form.cleaned_grant)
        return response

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        client = ctx["client"]
        form = ctx["form"]
        redirect_uri = str(self._request_info.get("redirect_uri") or "")
        registered = [urlsplit(u).hostname for u in client.get_redirect_uris()]
        proposed: Grant | ConnectedApp = (
            getattr(form, "cleaned_grant", None)
            or self._existing_app()
            or Grant.default(known=form.known, scopes=self._scopes)
        )
        ctx.update(
            {
                "redirect_host": _host(redirect_uri),
                "returns_to": return_label(redirect_uri),
                "is_cimd": bool((client.data or {}).get("cimd")),
                "loopback_only": bool(registered) and all(h in _LOOPBACK for h in registered),
                "existing_app": self._existing_app(),
                "preview": grant_preview(self._user(), proposed, self._counts()),
                "delete_asked": SCOPE_DELETE in self._scopes,
                "sensitive_slugs": form.sensitive_slugs,
            }
        )
        return ctx


consent = ConsentView.as_view()


# --- Connected apps ------------------------------------------------------------------------


def _apps_page(request: DashboardRequest, **extra: Any) -> HttpResponse:
    rows = connected_app_list(actor=actor_for_request(request))
    context = {
        "rows": rows,
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
            form.add_error(None, exc.message)
        else:
            return _apps_page(request, new_token=issued)
    return _apps_page(request, token_form=form)


def _app_action(request: DashboardRequest, app_id: int, action: str) -> HttpResponse:
    actor = actor_for_request(request)
    if action == "pause":
        app = app_set_paused(actor=actor, app_id=app_id, paused=True)
        messages.info(request, f"{app.name} is paused.")
    elif action == "resume":
        app = app_set_paused(actor=actor, app_id=app_id, paused=False)
        messages.info(request, f"{app.name} is active again.")
    elif action in ("review", "unreview"):
        app = app_set_review(actor=actor, app_id=app_id, review=action == "review")
        messages.info(
            request,
            f"{app.name}'s changes now wait for your review."
            if app.review_writes
            else f"{app.name}'s changes are saved without your review again.",
        )
    else:
        app = app_revoke(actor=actor, app_id=app_id)
        messages.info(request, f"{app.name} is disconnected; its access is revoked.")
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
            form.add_error(None, exc.message)
        else:
            app_update_grant(actor=actor, app_id=app.pk, grant=grant)
            messages.info(request, f"Saved what {app.name} may do.")
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
_SCOPES_NOTE: dict[str, str] = {
    ConnectedApp.Kind.STDIO: "Applies at its next call. If the command that starts it names "
    "--scopes, that choice applies again each time the client starts it.",
    ConnectedApp.Kind.TOKEN: "Applies to its token at its next call.",
    ConnectedApp.Kind.OAUTH: "Taking a permission away applies at its next call; one you add "
    "reaches it when it next asks for it (it signs in again).",
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
        return render(request, "accounts/_grant_summary.html", {"error": exc.message})
    if app is not None:
        grant.apply_to(app)  # unsaved: the app's own hidden-from marks still count
    preview = grant_preview(user, app or grant)
    return render(request, "accounts/_grant_summary.html", {"preview": preview})
