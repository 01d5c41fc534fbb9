"""The consent page: allauth's authorization view with the grant the owner chooses, and the
hand-back to the client that keeps the consent form's CSP to 'self'."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

from allauth.idp.oidc import views as oidc_views
from allauth.idp.oidc.models import Client
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.models import ConnectedApp, User
from accounts.oauth_clients import return_label
from accounts.services import Grant, oauth_app_for, oauth_code_hold_grant
from kernel.gates import SCOPE_DELETE
from kernel.origin import public_origin
from memories.selectors.grants import category_counts, grant_preview
from oauth.forms import ConsentForm
from oauth.oidc import add_issuer, check_redirect_uri, normalized_scope
from web.app_forms import grant_initial

_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def hand_back(request: HttpRequest, response: HttpResponse) -> HttpResponse:
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
        return hand_back(request, super().dispatch(request, *args, **kwargs))

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        raw = request.GET.get("scope")
        if raw is not None and (not raw or raw != normalized_scope(raw)):
            params = request.GET.copy()
            if normalized_scope(raw):
                params["scope"] = normalized_scope(raw)
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

    def form_valid(self, form: ConsentForm) -> HttpResponse:
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
