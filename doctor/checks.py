"""Pre-flight for a deployment: what a connector sees, and what would trip it.

Each check mirrors a step a hosted client (Claude, ChatGPT, Cursor, VS Code, the MCP SDK) takes,
and says in one line what would trip it and how to fix it. From outside, without credentials:
health, protected-resource metadata, both discovery documents (every advertised endpoint must
answer; `iss` in authorization responses), `401 invalid_client` for an unknown client, JSON
error bodies, the 401 challenge; with a client token also both MCP protocol versions and the
tool annotations. In-process (`doctor.consent`), the consent redirect path: the CSP of
the real consent response against each kind of callback.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx

from doctor.report import FAIL, OK, WARN, Report
from kernel.origin import MCP_PATH

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def _json(client: httpx.Client, url: str, report: Report, what: str) -> dict[str, Any] | None:
    try:
        r = client.get(url)
    except httpx.HTTPError as exc:
        report.add(FAIL, f"{what}: {url} unreachable ({exc.__class__.__name__}: {exc})")
        return None
    if r.status_code != 200:
        report.add(FAIL, f"{what}: {url} answered {r.status_code}, expected 200")
        return None
    try:
        data = r.json()
    except ValueError:
        report.add(FAIL, f"{what}: {url} is not JSON")
        return None
    if not isinstance(data, dict):
        report.add(FAIL, f"{what}: {url} is not a JSON object")
        return None
    report.add(OK, f"{what}: {url}")
    return data


def _check_transport(url: str, report: Report, what: str) -> None:
    parts = urlsplit(url)
    if parts.scheme != "https" and parts.hostname not in _LOOPBACK:
        report.add(
            FAIL, f"{what} {url} is plain http: hosted connectors require https (set PUBLIC_URL)"
        )


def run_checks(
    base: str,
    *,
    client: httpx.Client | None = None,
    token: str | None = None,
    in_process: bool = True,
) -> Report:
    """Check the deployment whose MCP endpoint is `base`/mcp (base may also end in /mcp).

    `token`: a client token, to check the MCP protocol versions and the tools as served.
    `in_process`: also check this installation's consent responses and tools through Django
    (it writes nothing: everything happens in a transaction that is rolled back)."""
    base = base.rstrip("/")
    base = base.removesuffix(MCP_PATH)
    mcp_url = base + MCP_PATH
    report = Report()
    own = client is None
    client = client or httpx.Client(timeout=10, follow_redirects=False)
    try:
        _check_transport(mcp_url, report, "MCP URL")
        _health(client, base, report)
        issuer = _protected_resource(client, base, mcp_url, report)
        if issuer:
            doc = _authorization_server(client, issuer, report)
            if doc:
                _advertised_endpoints(client, doc, report)
                _unknown_client(client, doc, report)
                _json_errors(client, issuer, doc, report)
        _challenge(client, mcp_url, report)
        if token:
            from doctor.mcp import check_mcp

            check_mcp(client, mcp_url, token, report)
        if in_process:
            from doctor.consent import check_consent_redirects, check_local_tools

            if not token:
                check_local_tools(report)
            check_consent_redirects(base, report)
    finally:
        if own:
            client.close()
    return report


def _health(client: httpx.Client, base: str, report: Report) -> None:
    try:
        r = client.get(base + "/health")
    except httpx.HTTPError as exc:
        report.add(FAIL, f"health: {base}/health unreachable ({exc})")
        return
    if r.status_code == 200:
        report.add(OK, "health: the server answers")
    else:
        report.add(FAIL, f"health: {base}/health answered {r.status_code}")


def _protected_resource(
    client: httpx.Client, base: str, mcp_url: str, report: Report
) -> str | None:
    issuer: str | None = None
    for path in (
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ):
        prm = _json(client, base + path, report, "protected-resource metadata")
        if prm is None:
            continue
        resource = prm.get("resource")
        if resource != mcp_url:
            report.add(
                FAIL,
                f"  resource is {resource!r} but clients connect to {mcp_url!r}: they compare "
                "exactly (check PUBLIC_URL and the proxy's Host / X-Forwarded-Proto headers)",
            )
        servers = prm.get("authorization_servers") or []
        if not servers:
            report.add(
                FAIL, "  authorization_servers is empty: clients cannot find where to sign in"
            )
            continue
        issuer = issuer or str(servers[0])
        if not prm.get("scopes_supported"):
            report.add(WARN, "  no scopes_supported: some clients then send an empty scope")
    return issuer


def _authorization_server(
    client: httpx.Client, issuer: str, report: Report
) -> dict[str, Any] | None:
    _check_transport(issuer, report, "issuer")
    if urlsplit(issuer).path not in ("", "/"):
        report.add(
            WARN,
            f"issuer {issuer!r} has a path: several connectors then probe the wrong "
            "well-known URLs; serve the app at the root of its origin",
        )
    origin = issuer.rstrip("/")
    docs = {}
    for path in ("/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"):
        doc = _json(client, origin + path, report, "authorization server metadata")
        if doc is None:
            continue
        docs[path] = doc
        if doc.get("issuer") != issuer:
            report.add(
                FAIL,
                f"  issuer is {doc.get('issuer')!r} but the resource names {issuer!r}: the MCP "
                "SDK and others compare them exactly",
            )
    if not docs:
        return None
    doc = next(iter(docs.values()))
    if "S256" not in (doc.get("code_challenge_methods_supported") or []):
        report.add(FAIL, "PKCE: S256 not advertised; MCP clients refuse to continue")
    else:
        report.add(OK, "PKCE: S256")
    registration = doc.get("registration_endpoint")
    cimd = doc.get("client_id_metadata_document_supported") is True
    if registration:
        _check_transport(str(registration), report, "registration endpoint")
        report.add(OK, f"dynamic client registration: {registration}")
    if cimd:
        if "none" not in (doc.get("token_endpoint_auth_methods_supported") or []):
            report.add(WARN, "CIMD advertised without auth method 'none': Claude will not use it")
        else:
            report.add(OK, "client ID metadata documents: supported")
    if not registration and not cimd:
        report.add(FAIL, "no registration endpoint and no CIMD: clients cannot register")
    for key in ("authorization_endpoint", "token_endpoint"):
        endpoint = doc.get(key)
        if not endpoint:
            report.add(FAIL, f"{key} missing")
        elif urlsplit(str(endpoint)).netloc != urlsplit(issuer).netloc:
            report.add(WARN, f"{key} {endpoint} is on another host than the issuer")
        else:
            _check_transport(str(endpoint), report, key)
    if doc.get("authorization_response_iss_parameter_supported") is True:
        report.add(OK, "authorization responses name their issuer (RFC 9207)")
    else:
        report.add(
            WARN,
            "authorization_response_iss_parameter_supported is not true: clients cannot tell "
            "this server's codes from another's (mix-up); add iss to authorization responses",
        )
    return doc


def _is_json_error(r: httpx.Response) -> bool:
    if not r.headers.get("content-type", "").startswith("application/json"):
        return False
    try:
        body = r.json()
    except ValueError:
        return False
    return isinstance(body, dict) and isinstance(body.get("error"), str)


def _advertised_endpoints(client: httpx.Client, doc: dict[str, Any], report: Report) -> None:
    """Nothing advertised that is not served: a client that follows a dead address fails."""
    grants = set(doc.get("grant_types_supported") or [])
    if doc.get("device_authorization_endpoint") and (
        "urn:ietf:params:oauth:grant-type:device_code" not in grants
    ):
        report.add(
            FAIL,
            "device_authorization_endpoint is advertised without the device grant: remove it "
            "from the metadata (oauth/oidc.py populate_server_metadata)",
        )
    dead = []
    for key, value in sorted(doc.items()):
        if not (key.endswith("_endpoint") or key == "jwks_uri") or not isinstance(value, str):
            continue
        try:
            r = (
                client.get(value)
                if key in ("jwks_uri", "authorization_endpoint")
                else (client.post(value, data={}))
            )
        except httpx.HTTPError as exc:
            dead.append(f"{key} ({exc.__class__.__name__})")
            continue
        if r.status_code == 404 or r.status_code >= 500:
            dead.append(f"{key} ({r.status_code})")
    if dead:
        report.add(FAIL, f"advertised but not served: {', '.join(dead)}; serve or unadvertise")
    else:
        report.add(OK, "every advertised endpoint answers")


def _unknown_client(client: httpx.Client, doc: dict[str, Any], report: Report) -> None:
    """Connectors (Claude) register again only on `401 invalid_client` from the token endpoint."""
    endpoint = doc.get("token_endpoint")
    if not isinstance(endpoint, str):
        return
    try:
        r = client.post(
            endpoint,
            data={
                "grant_type": "refresh_token",
                "refresh_token": "doctor",
                "client_id": "context-layer-doctor-unknown-client",
            },
        )
    except httpx.HTTPError as exc:
        report.add(FAIL, f"token endpoint unreachable ({exc})")
        return
    if r.status_code == 401 and _is_json_error(r) and r.json()["error"] == "invalid_client":
        report.add(OK, "an unknown client gets 401 invalid_client (connectors re-register)")
    else:
        report.add(
            FAIL,
            f"an unknown client_id got {r.status_code} {r.text[:80]!r} from the token endpoint, "
            "not 401 invalid_client: connectors whose registration was cleaned up never "
            "re-register (oauth/token_endpoint.py)",
        )


def _json_errors(client: httpx.Client, issuer: str, doc: dict[str, Any], report: Report) -> None:
    """Error bodies clients parse: JSON, never an HTML page."""
    probes = [("GET", str(doc.get("token_endpoint") or "")), ("GET", issuer + "/.well-known/x")]
    if doc.get("token_endpoint"):
        probes.append(("POST", str(doc["token_endpoint"]).rsplit("/", 1)[0] + "/doctor-missing"))
    html = []
    for method, url in probes:
        if not url:
            continue
        try:
            r = client.request(method, url)
        except httpx.HTTPError:
            continue
        if r.status_code >= 400 and not _is_json_error(r):
            html.append(f"{method} {urlsplit(url).path} ({r.status_code})")
    if html:
        report.add(
            FAIL,
            f"OAuth errors answered without a JSON body: {', '.join(html)}; clients show "
            "'unexpected response' (oauth/errors.py)",
        )
    else:
        report.add(OK, "OAuth error bodies are JSON")


def _challenge(client: httpx.Client, mcp_url: str, report: Report) -> None:
    try:
        r = client.post(
            mcp_url,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Accept": "application/json, text/event-stream"},
        )
    except httpx.HTTPError as exc:
        report.add(FAIL, f"MCP endpoint {mcp_url} unreachable ({exc})")
        return
    if r.status_code in (301, 302, 307, 308):
        report.add(FAIL, f"{mcp_url} redirects to {r.headers.get('location')}: keep it at /mcp")
        return
    if r.status_code != 401:
        report.add(FAIL, f"{mcp_url} without a token answered {r.status_code}, expected 401")
        return
    header = r.headers.get("www-authenticate", "")
    if not _is_json_error(r):
        report.add(FAIL, f"{mcp_url} answered 401 without a JSON error body")
    if "resource_metadata=" not in header:
        report.add(FAIL, "401 without resource_metadata in WWW-Authenticate")
    else:
        report.add(OK, "401 challenge names the protected-resource metadata")
    if "scope=" not in header:
        report.add(WARN, "401 challenge has no scope=: clients then ask for every scope")
