"""The app as its own OAuth 2.1 authorization server: policy on top of allauth's OIDC IdP.

allauth does the protocol (PKCE, DCR, CIMD, RFC 8707, rotation); this adapter decides what MCP
connectors may register and request, and which resources tokens may be bound to.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from allauth.idp.oidc.adapter import DefaultOIDCAdapter
from allauth.idp.oidc.internal.cimd import is_cimd_url
from allauth.idp.oidc.internal.oauthlib.utils import respond_html_error
from allauth.idp.oidc.models import Client, Token
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from oauthlib.oauth2.rfc6749 import errors

from accounts.app_names import third_party_name
from accounts.models import ALL_SCOPES, SCOPE_LABELS
from kernel.gates import SCOPE_READ
from kernel.origin import public_origin, resource_urls
from oauth.cimd import cimd_client, fetch_allowed

OFFLINE_ACCESS = "offline_access"
# What a client may ever ask for. openid stays for plain OIDC clients; it reveals only the user id.
CLIENT_SCOPES = ("openid", OFFLINE_ACCESS, *ALL_SCOPES)
ADVERTISED_SCOPES = [*ALL_SCOPES, OFFLINE_ACCESS, "openid"]
DEFAULT_SCOPES = [SCOPE_READ]
GRANT_TYPES = ("authorization_code", "refresh_token")

# Callback shapes (the allow-list; see check_redirect_uri). Loopback http may use any port.
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
_LOOPBACK_IPS = frozenset({"127.0.0.1", "::1"})  # RFC 8252 §7.3: any port at request time
# A native app's own scheme (RFC 8252 §7.1): reverse-DNS (`com.example.app`), which no
# operating system or browser claims for itself, or the one-word scheme of a known AI client
# (`cursor://…`, `vscode://…`). Any other plain word is refused: `smb:`, `steam:`, `ssh:`,
# `ldap:`, `telnet:`, `shell:`, `zoommtg:` … belong to programs the operating system starts, and
# Allow or Cancel would hand the browser (with the code or error in the URL) to them.
_REVERSE_DNS_SCHEME = re.compile(r"^[a-z][a-z0-9]*(\.[a-z0-9]+(-[a-z0-9]+)*)+$")
KNOWN_CLIENT_SCHEMES = frozenset(
    {
        "claude", "cursor", "vscode", "vscode-insiders", "vscodium", "windsurf", "zed",
        "raycast",
    }
)  # fmt: skip
_HANDLED_BY_BROWSER_OR_OS = frozenset(
    {
        "about", "blob", "chrome", "data", "file", "filesystem", "ftp", "intent", "jar",
        "javascript", "mailto", "res", "resource", "sms", "tel", "vbscript", "ws", "wss",
    }
)  # fmt: skip


def app_schemes() -> frozenset[str]:
    """The one-word schemes a native client may register: the known clients' and any the
    operator adds for another client (OAUTH_APP_SCHEMES)."""
    extra = {s.strip().lower() for s in settings.OAUTH_APP_SCHEMES}
    return KNOWN_CLIENT_SCHEMES | frozenset(extra - _HANDLED_BY_BROWSER_OR_OS - {"http", "https"})


def normalized_scope(raw: str) -> str:
    """ChatGPT has sent `scope=` (empty); oauthlib reads that as one empty scope. Collapse it."""
    return " ".join(raw.split())


def check_redirect_uri(uri: str) -> None:
    """A callback of an allowed shape: https on any host; plain http on loopback only (any port);
    or a native app's own scheme (reverse-DNS, or a known client's word). Everything else (other
    schemes, credentials or a fragment in the URI) is refused, at registration, for CIMD
    documents and at every authorization."""
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if not scheme or parts.fragment or "#" in uri:
        raise ValidationError(f"Redirect URI {uri!r} must be absolute and have no fragment.")
    if parts.username is not None or parts.password is not None:
        raise ValidationError(f"Redirect URI {uri!r} must not carry credentials.")
    if scheme == "https":
        if not parts.hostname:
            raise ValidationError(f"Redirect URI {uri!r} has no host.")
    elif scheme == "http":
        if parts.hostname not in _LOOPBACK_HOSTS:
            raise ValidationError(
                f"Redirect URI {uri!r}: plain http is allowed only on loopback "
                "(127.0.0.1, [::1], localhost)."
            )
    elif scheme in _HANDLED_BY_BROWSER_OR_OS:
        raise ValidationError(f"Redirect URI {uri!r} uses a scheme no app may claim.")
    elif _REVERSE_DNS_SCHEME.match(scheme):
        if not uri[len(scheme) + 1 :].startswith("/"):
            raise ValidationError(f"Redirect URI {uri!r}: use {scheme}:/path.")
    elif scheme in app_schemes():
        if not parts.netloc:
            raise ValidationError(f"Redirect URI {uri!r}: an app scheme needs {scheme}://host.")
    else:
        raise ValidationError(
            f"Redirect URI {uri!r}: use https, loopback http, a reverse-domain app scheme "
            "(com.example.app:/…) or a known client's scheme (cursor://…, vscode://…)."
        )


def redirect_uri_registered(uri: str, registered: list[str]) -> bool:
    """Exact string match with a registered URI (no extra query parameters, no other path), but
    for loopback IP literals, whose port is chosen when the app starts (RFC 8252 §7.3)."""
    if uri in registered:
        return True
    parts = urlsplit(uri)
    if parts.scheme != "http" or parts.hostname not in _LOOPBACK_IPS:
        return False
    for candidate in registered:
        other = urlsplit(candidate)
        if (
            other.scheme == "http"
            and other.hostname == parts.hostname
            and (other.path, other.query) == (parts.path, parts.query)
            and other.username is None
            and parts.username is None
        ):
            return True
    return False


def widen_client(client: Client) -> None:
    """Let a registered client ask for our scopes; no-scope requests get read; code flow only."""
    client.set_scopes(sorted(set(client.get_scopes()) | set(CLIENT_SCOPES)))
    if not client.get_default_scopes():
        client.set_default_scopes(DEFAULT_SCOPES)
    client.set_response_types(["code"])
    grants = [g for g in client.get_grant_types() if g in GRANT_TYPES] or ["authorization_code"]
    if "refresh_token" not in grants:
        grants.append("refresh_token")
    client.set_grant_types(grants)


class OIDCAdapter(DefaultOIDCAdapter):
    scope_display = {
        **DefaultOIDCAdapter.scope_display,
        **SCOPE_LABELS,
        OFFLINE_ACCESS: "Stay connected without asking again",
    }

    def get_issuer(self) -> str:
        return public_origin(self.request)

    def populate_server_metadata(self, data: dict[str, Any]) -> None:
        if settings.PUBLIC_URL and self.request is not None:
            # Behind a proxy that does not pass the public host/scheme, allauth builds endpoint
            # URLs from the internal address; the public origin is the one clients must use.
            seen = self.request.build_absolute_uri("/").rstrip("/")
            for key, value in list(data.items()):
                if isinstance(value, str) and value.startswith(seen + "/"):
                    data[key] = settings.PUBLIC_URL + value[len(seen) :]
        data["scopes_supported"] = ADVERTISED_SCOPES
        data["response_types_supported"] = ["code"]
        # allauth answers a grant in the query whatever the request asked (and we refuse others).
        data["response_modes_supported"] = ["query"]
        data["grant_types_supported"] = list(GRANT_TYPES)
        # Advertise only what is served: no device grant (its routes answer 404).
        data.pop("device_authorization_endpoint", None)
        # RFC 9207: every authorization response names its issuer (see with_issuer).
        data["authorization_response_iss_parameter_supported"] = True
        data["client_id_metadata_document_supported"] = True
        # Claude only uses CIMD when "none" (public clients) is advertised.
        methods = list(data.get("token_endpoint_auth_methods_supported") or [])
        if "none" not in methods:
            methods.append("none")
        data["token_endpoint_auth_methods_supported"] = methods

    def validate_client_registration(
        self,
        *,
        client: Client,
        client_metadata: dict[str, Any],
        token: Token | None,
        bearer_token: str | None,
        **kwargs: Any,
    ) -> None:
        for uri in client.get_redirect_uris():
            check_redirect_uri(uri)
        if not client.name:
            client.name = (urlsplit(client.get_redirect_uris()[0]).hostname or "App")[:100]
        client.name = third_party_name(client.name)
        widen_client(client)

    def validate_resource_uris(self, *, uris: list[str], **kwargs: Any) -> None:
        allowed = set(resource_urls(public_origin(self.request)))
        for uri in uris:
            if uri.rstrip("/") not in allowed:
                raise ValidationError(f"Unknown resource {uri!r}.")

    def is_cimd_url_allowed(self, url: str) -> bool:
        """allauth may fetch a metadata document only through `oauth.cimd.cimd_client`, which
        checked the host's addresses and pins the checked one for the fetch (SSRF, rebinding)."""
        return fetch_allowed(url)


def widen_cimd_client(sender: type[Client], instance: Client, **kwargs: Any) -> None:
    """pre_save on Client: allauth builds CIMD clients from the document alone (scope defaults to
    openid) and has no adapter hook, so a connector asking for memories:* would get invalid_scope.
    Connected in AccountsConfig.ready()."""
    if isinstance(instance.data, dict) and instance.data.get("cimd"):
        instance.name = third_party_name(instance.name)
        widen_client(instance)


_REDIRECTS = frozenset({301, 302, 303, 307, 308})


def add_issuer(response: HttpResponse, issuer: str) -> HttpResponse:
    """RFC 9207: an authorization response (a code or an error, in the query or the fragment)
    carries `iss`, so a client talking to several servers cannot be fed another one's code."""
    if response.status_code not in _REDIRECTS:
        return response
    parts = urlsplit(str(response.get("Location", "")))
    if not parts.scheme:  # our own pages (sign-in, the consent page again) are relative
        return response
    for component in ("fragment", "query"):
        params = parse_qsl(getattr(parts, component), keep_blank_values=True)
        if any(key in ("code", "error") for key, _ in params):
            params = [(k, v) for k, v in params if k != "iss"] + [("iss", issuer)]
            response["Location"] = urlunsplit(parts._replace(**{component: urlencode(params)}))
            break
    return response


def _refuse(request: HttpRequest, description: str) -> HttpResponse:
    """An authorization request we will not send back to its redirect URI: say so to the person
    in the browser (never redirect to an unchecked URI, RFC 6749 §4.1.2.1)."""
    response = respond_html_error(request, error=errors.InvalidRequestFatalError(description))
    response.status_code = 400
    return response


def _authorization_refusal(request: HttpRequest) -> HttpResponse | None:
    """What allauth lets through and we do not: a redirect URI of a refused shape (CIMD clients
    skip registration, so this is where their callbacks are checked), one that differs from every
    registered URI (extra query parameters included), or a response mode we do not answer in."""
    if request.method != "GET" or "client_id" not in request.GET:
        return None
    mode = request.GET.get("response_mode")
    if mode not in (None, "query"):
        return _refuse(request, "Only response_mode=query is supported.")
    client_id = request.GET["client_id"]
    redirect_uri = request.GET.get("redirect_uri")
    if redirect_uri is None:
        return None  # allauth refuses a request without one
    try:
        check_redirect_uri(redirect_uri)
    except ValidationError as exc:
        return _refuse(request, exc.messages[0])
    if is_cimd_url(client_id):
        client = cimd_client(request, client_id)
    else:
        client = Client.objects.filter(id=client_id).first()
    if client is None or client.allow_uri_wildcards:
        return None  # allauth answers an unknown client; wildcards are an operator's choice
    if not redirect_uri_registered(redirect_uri, client.get_redirect_uris()):
        return _refuse(request, "The redirect URI is not one this app registered.")
    return None


def authorization_endpoint(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The policy around allauth's authorization endpoint (our consent view): requests checked
    before it runs. (The view stamps its answers with the issuer as it hands the browser back:
    `oauth.views.hand_back`.)"""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = _authorization_refusal(request)
        if refusal is not None:
            return refusal
        return view(request, *args, **kwargs)

    return wrapped
