"""A small evaluator of CSP `form-action`, as Chromium applies it to a consent form.

Chromium and Safari check `form-action` against the form's action *and* every hop of the redirect
chain that follows the submission; Firefox checks only the action. So a consent page that posts
to itself and answers 302 to the client's callback is blocked under `form-action 'self'`
(shared/notes/mcp-auth.md, verified in Chromium). This follows CSP Level 3 §6.7.2 ("Does url
match source list"): scheme-sources, host-sources with wildcards and ports, 'self', '*', and
paths ignored once the request was redirected. Nonces, hashes and other keywords match no URL.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_NETWORK = frozenset(_DEFAULT_PORTS)


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    policy: str  # the form-action directive that decided, or "" when none applied


def form_action_directives(headers: list[str]) -> list[str]:
    """The `form-action` source list of each policy (header values may join policies with ',')."""
    found = []
    for header in headers:
        for policy in header.split(","):
            for directive in policy.split(";"):
                name, _, value = directive.strip().partition(" ")
                if name.lower() == "form-action":
                    found.append(value.strip())
                    break
    return found


def _port(parts: object, scheme: str) -> int | None:
    try:
        port = parts.port  # type: ignore[attr-defined]
    except ValueError:
        return None
    return port if port is not None else _DEFAULT_PORTS.get(scheme)


def _scheme_matches(source: str, url: str) -> bool:
    """CSP3 §6.7.2.8: equal, or an http(s)/ws(s) source upgraded to its secure form."""
    return url == source or (source, url) in {("http", "https"), ("ws", "wss"), ("ws", "https")}


def _host_matches(source: str, host: str) -> bool:
    source, host = source.lower(), host.lower()
    if source.startswith("*."):
        return host.endswith(source[1:])
    return source == host


def _path_matches(source: str, path: str) -> bool:
    if not source:
        return True
    if source.endswith("/"):
        return path.startswith(source)
    return path == source


def _source_matches(source: str, url: str, origin: str, redirected: bool) -> bool:
    target = urlsplit(url)
    scheme = target.scheme.lower()
    self_parts = urlsplit(origin)
    lowered = source.lower()
    if lowered == "'self'":
        return (
            _scheme_matches(self_parts.scheme, scheme)
            and (target.hostname or "") == (self_parts.hostname or "")
            and (
                _port(target, scheme) == _port(self_parts, self_parts.scheme)
                or (self_parts.scheme, scheme) == ("http", "https")
            )
        )
    if lowered == "*":
        return scheme in _NETWORK or scheme == self_parts.scheme
    if lowered.startswith("'"):
        return False  # 'none', nonces, hashes, 'unsafe-*': no URL matches them
    if lowered.endswith(":") and "/" not in lowered:
        return _scheme_matches(lowered[:-1], scheme)
    # host-source: [scheme "://"] host [":" port] [path]
    rest = source
    src_scheme = ""
    if "://" in rest:
        src_scheme, rest = rest.split("://", 1)
        src_scheme = src_scheme.lower()
        if not _scheme_matches(src_scheme, scheme):
            return False
    elif not _scheme_matches(self_parts.scheme, scheme):
        return False
    host_port, slash, path = rest.partition("/")
    path = slash + path
    host, src_port = host_port, ""
    if host_port.startswith("["):
        end = host_port.find("]")
        host, src_port = host_port[1:end], host_port[end + 2 :]
    elif ":" in host_port:
        host, src_port = host_port.rsplit(":", 1)
    if host != "*" and not _host_matches(host, target.hostname or ""):
        return False
    url_port = _port(target, scheme)
    if src_port == "*":
        pass
    elif src_port:
        if url_port != int(src_port) and not (int(src_port) == 80 and url_port == 443):
            return False
    elif url_port != _DEFAULT_PORTS.get(src_scheme or scheme) and not (
        (src_scheme or scheme) == "http" and url_port == 443
    ):
        return False
    return redirected or _path_matches(path, target.path or "/")


def form_action_allows(headers: list[str], url: str, *, origin: str, redirected: bool) -> Verdict:
    """Whether every policy's `form-action` lets a form submission reach `url` (`redirected`:
    the URL is a hop after the form's own action). No form-action directive: allowed (it does
    not fall back to default-src)."""
    for sources in form_action_directives(headers):
        tokens = sources.split()
        if not any(_source_matches(t, url, origin, redirected) for t in tokens):
            return Verdict(False, f"form-action {sources}".strip())
    return Verdict(True, "")
