"""Which OAuth registrations are "the same app" for a user: client name + where codes go.

Connectors that register a new client on every connect (Claude, Claude Code) would otherwise leave
one connected app per registration. A registration is identified, for the connected apps page, by
its name and the origins of its redirect URIs (loopback without its port: native apps bind an
ephemeral port, RFC 8252). Two registrations with the same key deliver codes to the same places,
so one grant covers both, and the tokens of each keep working (two laptops with the same client).
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from allauth.idp.oidc.models import Client

_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
_DEFAULT_PORTS = {"https": 443, "http": 80}


def redirect_origin(uri: str) -> str:
    """`https://claude.ai`, `http://localhost` (any loopback host and port), `cursor://host`."""
    parts = urlsplit(uri.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme == "http" and host in _LOOPBACK:
        return "http://localhost"
    try:
        port = parts.port
    except ValueError:
        port = None
    if scheme in _DEFAULT_PORTS:
        suffix = f":{port}" if port and port != _DEFAULT_PORTS[scheme] else ""
        return f"{scheme}://{host}{suffix}"
    return f"{scheme}://{host}" if host else f"{scheme}:"


def client_key_from(name: str, redirect_uris: Iterable[str]) -> str:
    """The key of a registration: its name and the sorted origins it may redirect to."""
    origins = sorted({redirect_origin(u) for u in redirect_uris if u.strip()})
    return "\n".join([name.strip(), *origins])[:1000]


def client_key(client: Client) -> str:
    return client_key_from(client.name or "", client.get_redirect_uris())


def key_origins(key: str) -> list[str]:
    """The redirect origins recorded in a key, for display ("returns to claude.ai")."""
    return key.split("\n")[1:]


def return_label(uri_or_origin: str) -> str:
    """Where the browser goes back to, in words: a host, "this computer", or a native app."""
    parts = urlsplit(uri_or_origin)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme == "http" and host in _LOOPBACK:
        return "an app on this computer"
    if scheme in _DEFAULT_PORTS:
        return host
    return f"the {scheme} app on this device"
