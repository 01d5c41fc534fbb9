"""The app as its own OAuth 2.1 authorization server: policy on top of allauth's OIDC IdP.

allauth does the protocol (PKCE, DCR, CIMD, RFC 8707, rotation); this adapter decides what MCP
connectors may register and request, and which resources tokens may be bound to.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

from allauth.idp.oidc.adapter import DefaultOIDCAdapter
from allauth.idp.oidc.models import Client, Token
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from accounts.models import ALL_SCOPES, SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE

OFFLINE_ACCESS = "offline_access"
# What a client may ever ask for. openid stays for plain OIDC clients; it reveals only the user id.
CLIENT_SCOPES = ("openid", OFFLINE_ACCESS, *ALL_SCOPES)
ADVERTISED_SCOPES = [*ALL_SCOPES, OFFLINE_ACCESS, "openid"]
DEFAULT_SCOPES = [SCOPE_READ]
GRANT_TYPES = ("authorization_code", "refresh_token")
MCP_PATH = "/mcp"
API_PATH = "/api/v1"

# Schemes a native app must never use as its callback.
_FORBIDDEN_SCHEMES = frozenset(
    {"javascript", "data", "file", "vbscript", "about", "blob", "ftp", "ws", "wss", "filesystem"}
)
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


def public_origin(request: HttpRequest | None) -> str:
    """The public origin (issuer): PUBLIC_URL when set, else what the request says."""
    if settings.PUBLIC_URL:
        return str(settings.PUBLIC_URL)
    if request is None:
        raise ValueError("PUBLIC_URL is unset and there is no request to derive it from.")
    return request.build_absolute_uri("/").rstrip("/")


def resource_urls(origin: str) -> tuple[str, str]:
    """The two protected resources a token can be bound to: MCP and the REST API."""
    return origin + MCP_PATH, origin + API_PATH


def check_redirect_uri(uri: str) -> None:
    """https anywhere, http only on loopback, or a native app scheme such as cursor://."""
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if not scheme or parts.fragment:
        raise ValidationError(f"Redirect URI {uri!r} must be absolute and have no fragment.")
    if scheme == "https":
        if not parts.hostname:
            raise ValidationError(f"Redirect URI {uri!r} has no host.")
    elif scheme == "http":
        if parts.hostname not in _LOOPBACK_HOSTS:
            raise ValidationError(
                f"Redirect URI {uri!r}: plain http is allowed only on loopback (127.0.0.1, [::1])."
            )
    elif scheme in _FORBIDDEN_SCHEMES:
        raise ValidationError(f"Redirect URI {uri!r} uses a forbidden scheme.")


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


def _is_public_address(host: str) -> bool:
    try:
        infos = socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP)
    except OSError:
        return False
    for info in infos:
        ip = ipaddress.ip_address(info[4][0])
        if not ip.is_global:
            return False
    return bool(infos)


class OIDCAdapter(DefaultOIDCAdapter):
    scope_display = {
        **DefaultOIDCAdapter.scope_display,
        SCOPE_READ: "Read your memories",
        SCOPE_WRITE: "Add and change memories",
        SCOPE_DELETE: "Delete memories",
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
        data["grant_types_supported"] = list(GRANT_TYPES)
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
        widen_client(client)

    def validate_resource_uris(self, *, uris: list[str], **kwargs: Any) -> None:
        allowed = set(resource_urls(public_origin(self.request)))
        for uri in uris:
            if uri.rstrip("/") not in allowed:
                raise ValidationError(f"Unknown resource {uri!r}.")

    def is_cimd_url_allowed(self, url: str) -> bool:
        """SSRF guard: metadata documents only from public addresses (loopback only in tests)."""
        host = urlsplit(url).hostname or ""
        if getattr(settings, "OAUTH_CIMD_ALLOW_LOOPBACK", False) and host in _LOOPBACK_HOSTS | {
            "127.0.0.1"
        }:
            return True
        return _is_public_address(host)


def widen_cimd_client(sender: type[Client], instance: Client, **kwargs: Any) -> None:
    """pre_save on Client: allauth builds CIMD clients from the document alone (scope defaults to
    openid) and has no adapter hook, so a connector asking for memories:* would get invalid_scope.
    Connected in AccountsConfig.ready()."""
    if isinstance(instance.data, dict) and instance.data.get("cimd"):
        widen_client(instance)
