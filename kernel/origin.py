"""This server's public origin and the paths of its two protected resources, in one place.

The origin is PUBLIC_URL when it is set; otherwise the request's own scheme and Host (Django's
ALLOWED_HOSTS decide which hosts count), so a development server on any port names itself
correctly. A token is bound to one resource (RFC 8707): `<origin>/mcp` or `<origin>/api/v1`.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port, validate_host

MCP_PATH = "/mcp"
API_PATH = "/api/v1"
PRM_PATH = "/.well-known/oauth-protected-resource"  # RFC 9728 metadata, followed by MCP_PATH


def public_origin(request: HttpRequest | None) -> str:
    """The public origin (also the OAuth issuer): PUBLIC_URL when set, else the request's."""
    if settings.PUBLIC_URL:
        return str(settings.PUBLIC_URL)
    if request is None:
        raise ValueError("PUBLIC_URL is unset and there is no request to derive it from.")
    return request.build_absolute_uri("/").rstrip("/")


def origin_of_headers(headers: Mapping[str, str], scheme: str) -> str | None:
    """`public_origin` for ASGI code that has headers, not a Django request: None for a Host
    outside ALLOWED_HOSTS, checked exactly as Django checks it (DNS rebinding)."""
    host = headers.get("host", "").strip().lower()
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    if settings.PUBLIC_URL:
        return str(settings.PUBLIC_URL)
    return f"{'https' if scheme in ('https', 'wss') else 'http'}://{host}"


def mcp_url(origin: str) -> str:
    """The MCP resource identifier (RFC 8707/9728): exactly what users paste into a client."""
    return origin + MCP_PATH


def api_url(origin: str) -> str:
    return origin + API_PATH


def resource_urls(origin: str) -> tuple[str, str]:
    """The two protected resources a token can be bound to: MCP and the REST API."""
    return mcp_url(origin), api_url(origin)


def resource_metadata_url(origin: str) -> str:
    return origin + PRM_PATH + MCP_PATH
