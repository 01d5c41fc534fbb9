"""OAuth front doors that wrap allauth's IdP, and the connected apps page."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

from allauth.account.decorators import reauthentication_required
from allauth.idp.oidc import views as oidc_views
from allauth.idp.oidc.internal.resources import get_resources
from allauth.idp.oidc.models import Client
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.actors import owner_actor
from accounts.client_tokens import client_token_create
from accounts.forms import ClientTokenForm, ConsentForm, GrantForm, grant_initial
from accounts.models import ConnectedApp, User
from accounts.selectors import connected_app_list
from accounts.services import (
    app_get,
    app_revoke,
    app_set_paused,
    app_update_grant,
    oauth_app_for_client,
    oauth_grant_save,
)
from memories.errors import DomainError, InvalidInput, NotFound

_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def _normalized_scope(raw: str) -> str:
    """ChatGPT has sent `scope=` (empty); oauthlib reads that as one empty scope. Collapse it."""
    return " ".join(raw.split())


class ConsentView(oidc_views.AuthorizationView):
    """allauth's authorize step with our consent page: scopes, categories, the redirect host."""

    form_class = ConsentForm
    template_name = "accounts/consent.html"

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
        return super().get(request, *args, **kwargs)

    def _client(self) -> Client:
        return Client.objects.get(id=self._request_info["client_id"])

    def _existing_app(self) -> ConnectedApp | None:
        user = cast(User, self.request.user)
        return oauth_app_for_client(user, self._request_info["client_id"])

    def get_initial(self) -> dict[str, Any]:
        initial = super().get_initial()
        initial.update(grant_initial(self._existing_app()))
        return initial

    def form_valid(self, form: ConsentForm) -> HttpResponse:  # type: ignore[override]
        response = super().form_valid(form)
        location = response.get("Location", "")
        if response.status_code == 302 and "code" in parse_qs(urlsplit(location).query):
            actor = owner_actor(cast(User, self.request.user))
            oauth_grant_save(actor=actor, client=self._client(), grant=form.cleaned_grant)
        return response

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        client = ctx["client"]
        redirect_uri = str(self._request_info.get("redirect_uri") or "")
        parts = urlsplit(redirect_uri)
        host = parts.hostname or parts.scheme
        registered = [urlsplit(u).hostname for u in client.get_redirect_uris()]
        ctx.update(
            {
                "redirect_host": host,
                "redirect_scheme": parts.scheme,
                "is_cimd": bool((client.data or {}).get("cimd")),
                "loopback_only": bool(registered) and all(h in _LOOPBACK for h in registered),
                "existing_app": self._existing_app(),
            }
        )
        return ctx


consent = ConsentView.as_view()


@csrf_exempt
def token(request: HttpRequest) -> HttpResponse:
    """allauth's token endpoint, with a bad `resource` answered as 400 invalid_target, not 500."""
    if request.method == "POST" and "scope" in request.POST:
        params = request.POST.copy()
        scope = _normalized_scope(str(params.get("scope", "")))
        if scope:
            params["scope"] = scope
        else:
            del params["scope"]
        request.POST = params  # type: ignore[assignment,misc]
    try:
        get_resources(request)
    except ValidationError as exc:
        return JsonResponse(
            {"error": "invalid_target", "error_description": "; ".join(exc.messages)},
            status=400,
        )
    return oidc_views.token(request)


# --- Connected apps ------------------------------------------------------------------------


def _actor(request: HttpRequest):  # type: ignore[no-untyped-def]
    return owner_actor(cast(User, request.user))


def _apps_page(request: HttpRequest, **extra: Any) -> HttpResponse:
    rows = connected_app_list(actor=_actor(request))
    context = {"rows": rows, "token_form": extra.pop("token_form", None) or ClientTokenForm()}
    return render(request, "accounts/apps.html", {**context, **extra})


@login_required
def app_list(request: HttpRequest) -> HttpResponse:
    return _apps_page(request)


@login_required
@require_POST
@reauthentication_required  # a session alone cannot mint a credential that outlives it
def token_create(request: HttpRequest) -> HttpResponse:
    """Create a client token; its secret is shown on this one response and never again."""
    form = ClientTokenForm(request.POST)
    if form.is_valid():
        try:
            issued = client_token_create(
                user=cast(User, request.user),
                name=form.cleaned_data["name"],
                scopes=form.cleaned_data["scopes"],
            )
        except DomainError as exc:
            form.add_error(None, exc.message)
        else:
            return _apps_page(request, new_token=issued)
    return _apps_page(request, token_form=form)


def _app_action(request: HttpRequest, app_id: int, action: str) -> HttpResponse:
    actor = _actor(request)
    try:
        if action == "pause":
            app = app_set_paused(actor=actor, app_id=app_id, paused=True)
            messages.info(request, f"{app.name} is paused.")
        elif action == "resume":
            app = app_set_paused(actor=actor, app_id=app_id, paused=False)
            messages.info(request, f"{app.name} is active again.")
        else:
            app = app_revoke(actor=actor, app_id=app_id)
            messages.info(request, f"{app.name} is disconnected; its access is revoked.")
    except NotFound:
        raise Http404 from None
    return redirect("accounts:apps")


@login_required
@require_POST
def app_pause(request: HttpRequest, app_id: int) -> HttpResponse:
    return _app_action(request, app_id, "pause")


@login_required
@require_POST
def app_resume(request: HttpRequest, app_id: int) -> HttpResponse:
    return _app_action(request, app_id, "resume")


@login_required
@require_POST
def app_revoke_view(request: HttpRequest, app_id: int) -> HttpResponse:
    return _app_action(request, app_id, "revoke")


@login_required
def app_edit(request: HttpRequest, app_id: int) -> HttpResponse:
    actor = _actor(request)
    try:
        app = app_get(actor=actor, app_id=app_id)
    except NotFound:
        raise Http404 from None
    initial = {**grant_initial(app), "scopes": list(app.scopes)}
    form = GrantForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            grant = form.grant(form.cleaned_data["scopes"])
        except InvalidInput as exc:
            form.add_error(None, exc.message)
        else:
            app_update_grant(actor=actor, app_id=app.pk, grant=grant)
            messages.info(request, f"Saved what {app.name} may do.")
            return redirect("accounts:apps")
    return render(request, "accounts/app_edit.html", {"app": app, "form": form})
