"""Client ID Metadata Documents, fetched by us with the address we checked pinned for the fetch.

allauth resolves a CIMD URL's host twice: once in the adapter's `is_cimd_url_allowed` (our
address check) and again in `requests.get`. A host that answers a public address first and an
internal one second (DNS rebinding) would pass the check and make the server fetch from its own
network. So allauth may not fetch on its own (`is_cimd_url_allowed` says yes only inside
`cimd_client`); the authorization endpoint calls `cimd_client`, which resolves once, checks
every address, and connects to the checked one while verifying TLS for the URL's host name.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlsplit

import requests
from allauth.core.internal import ratelimit
from allauth.idp.oidc.internal import cimd as allauth_cimd
from allauth.idp.oidc.models import Client
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from requests.adapters import HTTPAdapter

logger = logging.getLogger("contextlayer.oauth")

FETCH_TIMEOUT = 2  # seconds; a document is a couple of KiB
MAX_BYTES = allauth_cimd.MAX_RESPONSE_SIZE

# The CIMD URL whose fetch is in progress here, with its address already checked.
_fetching: ContextVar[str | None] = ContextVar("cimd_fetching", default=None)

# NAT64 for local use (RFC 8215) may embed any address in any way: never a metadata host.
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")
_WELL_KNOWN_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address leads to (mapped, compatible, NAT64, 6to4, Teredo)."""
    found: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip in _IPV4_COMPATIBLE or ip in _WELL_KNOWN_NAT64:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    return found


def address_is_public(address: str) -> bool:
    """A globally routable address, and so is every IPv4 address it embeds."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if _loopback_allowed() and ip.is_loopback:
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _LOCAL_NAT64:
            return False
        if not all(v4.is_global for v4 in _embedded_ipv4(ip)):
            return False
    return ip.is_global


def _loopback_allowed() -> bool:
    """Tests serve metadata documents on loopback; nothing else may."""
    return bool(getattr(settings, "OAUTH_CIMD_ALLOW_LOOPBACK", False))


def resolve_public(host: str, port: int) -> str | None:
    """One resolution of `host`: the address to connect to, only if every answer is public."""
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses or not all(address_is_public(a) for a in addresses):
        return None
    return addresses[0]


def fetch_allowed(url: str) -> bool:
    """allauth's `is_cimd_url_allowed`: only the fetch `cimd_client` is doing right now."""
    return _fetching.get() == url


@contextmanager
def _allow(url: str) -> Iterator[None]:
    token = _fetching.set(url)
    try:
        yield
    finally:
        _fetching.reset(token)


class _PinnedAdapter(HTTPAdapter):
    """Connects to the checked address; SNI and certificate checks use the URL's host name."""

    def __init__(self, hostname: str) -> None:
        self._hostname = hostname
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["server_hostname"] = self._hostname
        kwargs["assert_hostname"] = self._hostname
        super().init_poolmanager(*args, **kwargs)


def _fetch(url: str, address: str) -> Any:
    parts = urlsplit(url)
    host = parts.hostname or ""
    literal = f"[{address}]" if ":" in address else address
    target = parts._replace(netloc=f"{literal}:{parts.port or 443}").geturl()
    with requests.Session() as session:
        session.mount("https://", _PinnedAdapter(host))
        response = session.get(
            target,
            headers={"Accept": "application/json", "Host": parts.netloc},
            timeout=FETCH_TIMEOUT,
            allow_redirects=False,
            stream=True,
        )
        try:
            if response.status_code != 200:
                raise ValidationError(f"CIMD fetch returned HTTP {response.status_code}.")
            body = next(response.iter_content(chunk_size=MAX_BYTES + 1), b"")
        finally:
            response.close()
    if len(body) > MAX_BYTES:
        raise ValidationError("CIMD response too large.")
    try:
        return json.loads(body)
    except ValueError as exc:
        raise ValidationError(f"CIMD response is not valid JSON: {exc}") from exc


def cimd_client(request: HttpRequest, client_id: str) -> Client | None:
    """The client a CIMD `client_id` names: the stored copy while fresh, else fetched now (the
    address checked once and pinned). On any failure, the stored copy (or None), as allauth."""
    stored = Client.objects.filter(id=client_id).first()
    if stored is not None and not allauth_cimd.is_outdated(stored):
        return stored
    parts = urlsplit(client_id)
    address = resolve_public(parts.hostname or "", parts.port or 443)
    lock = f"contextlayer.cimd.fetch:{client_id}"
    try:
        if address is None:
            raise ValidationError("The metadata document's host is not a public address.")
        with _allow(client_id):
            parsed = allauth_cimd.validate_client_id(client_id)
        if not ratelimit.consume(
            request, action="cimd_fetch", app="allauth.idp.oidc", limit_get=True
        ):
            raise ValidationError("CIMD fetch rate limited.")
        if not cache.add(lock, True, timeout=FETCH_TIMEOUT + 5):
            raise ValidationError("CIMD fetch already in progress.")
        try:
            metadata = _fetch(client_id, address)
        finally:
            cache.delete(lock)
        client = allauth_cimd.validate_metadata(client_id, parsed, metadata)
    except (ValidationError, requests.RequestException) as exc:
        logger.warning("CIMD fetch refused or failed", extra={"client_id": client_id[:200]})
        logger.debug("CIMD failure", extra={"error": str(exc)[:200]})
        return stored
    client._state.adding = stored is None
    client.save()
    return client
