"""The app under uvicorn on a free port (same process, test database), and a cookie-keeping
"browser" that signs in and answers the consent form over plain HTTP."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest
import trustme

from accounts.models import User
from tests.servers import LiveServer, start_server, start_whole_app, stop_server

PASSWORD = "correct horse battery"
CALLBACK = "http://127.0.0.1:33418/callback"


@dataclass
class MetadataServer:
    """An https server for Client ID Metadata Documents; `document` is what it serves."""

    url: str
    live: LiveServer
    document: dict[str, Any] = field(default_factory=dict)

    @property
    def client_id(self) -> str:
        return f"{self.url}/oauth/client.json"


def document_app(document: dict[str, Any]) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        found = scope["path"] == "/oauth/client.json"
        body = json.dumps(document).encode() if found else b"{}"
        await send(
            {
                "type": "http.response.start",
                "status": 200 if found else 404,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return app


def tls_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *names: str) -> tuple[str, str]:
    """A certificate for `names` from a test CA that the server's CIMD fetches (requests) trust."""
    ca = trustme.CA()
    cert = ca.issue_cert(*names)
    cert_file, key_file, ca_file = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    cert.private_key_and_cert_chain_pem.write_to_path(str(cert_file))
    cert.private_key_pem.write_to_path(str(key_file))
    ca.cert_pem.write_to_path(str(ca_file))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(ca_file))
    return str(cert_file), str(key_file)


@pytest.fixture
def metadata_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MetadataServer]:
    """A client identified by a metadata document over real TLS (a trustme CA), as Claude and
    ChatGPT do: no registration request, the AS fetches the document."""
    cert, key = tls_files(tmp_path, monkeypatch, "127.0.0.1")
    document: dict[str, Any] = {}
    live = start_server(document_app(document), ssl_certfile=cert, ssl_keyfile=key, lifespan="off")
    server = MetadataServer(url=live.url, live=live, document=document)
    document.update(
        client_id=server.client_id,
        client_name="Metadata Client",
        redirect_uris=[CALLBACK],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    try:
        yield server
    finally:
        live.server.should_exit = True
        live.thread.join(timeout=10)


@pytest.fixture(scope="session")
def _live_server(django_db_setup: None, django_db_blocker: Any) -> Iterator[LiveServer]:
    """One server for the session: the MCP session manager can run only once per process app."""
    live = start_whole_app()
    try:
        yield live
    finally:
        with django_db_blocker.unblock():
            stop_server(live)


@pytest.fixture
def live_url(_live_server: LiveServer, transactional_db: None) -> str:
    return _live_server.url


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    """allauth rate limits live in the cache; one test's sign-ups must not throttle the next."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def alice(transactional_db: None) -> User:
    return User.objects.create_user("alice@example.com", PASSWORD)


def hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert match, f"no hidden field {name!r} in page"
    return html.unescape(match.group(1))


def sign_in(browser: httpx.Client, email: str, password: str = PASSWORD) -> httpx.Response:
    page = browser.get("/accounts/login/")
    return browser.post(
        "/accounts/login/",
        data={
            "csrfmiddlewaretoken": hidden(page.text, "csrfmiddlewaretoken"),
            "login": email,
            "password": password,
        },
    )


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(64)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=")
    return verifier, challenge.decode()


def register(base: str, **metadata: object) -> dict:
    body = {
        "client_name": "Test client",
        "redirect_uris": ["http://127.0.0.1:33418/callback"],
        "token_endpoint_auth_method": "none",
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        **metadata,
    }
    r = httpx.post(f"{base}/identity/o/api/clients", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def returned_to(response: httpx.Response) -> str:
    """Where the authorization endpoint sends the browser back to the client: the page that
    navigates there by itself (its Continue link; see accounts.views._hand_back)."""
    assert response.status_code == 200, response.text[:3000]
    match = re.search(r'<a id="continue"[^>]* href="([^"]+)"', response.text)
    assert match, response.text[:3000]
    return html.unescape(match.group(1))


def consent(
    browser: httpx.Client,
    authorize_url: str,
    *,
    scopes: list[str] | None = None,
    categories: list[str] | None = None,
    sees_uncategorised: bool = True,
    action: str = "grant",
) -> dict[str, str]:
    """Open the authorize URL as the signed-in user, answer our consent form (ticking exactly
    `categories`, or leaving the page's defaults), return the query parameters the client gets
    back (code, state, or error)."""
    page = browser.get(authorize_url, follow_redirects=True)
    assert page.status_code == 200, page.text[:2000]
    offered = re.findall(r'name="scopes" value="([^"]+)"', page.text)
    data: dict[str, object] = {
        "csrfmiddlewaretoken": hidden(page.text, "csrfmiddlewaretoken"),
        "request": hidden(page.text, "request"),
        "choose": "1",
        "scopes": offered if scopes is None else scopes,
        "categories": categories
        if categories is not None
        else re.findall(r'name="categories" value="([^"]+)"[^>]*checked', page.text),
        "action": action,
    }
    if sees_uncategorised:
        data["sees_uncategorised"] = "on"
    r = browser.post("/identity/o/authorize", data=data)
    return {k: v[0] for k, v in parse_qs(urlsplit(returned_to(r)).query).items()}


def authorize_url(
    client_id: str,
    challenge: str,
    *,
    scope: str | None = "memories:read memories:write offline_access",
    resource: str | None = None,
    redirect_uri: str = "http://127.0.0.1:33418/callback",
    state: str = "xyz",
    **extra: str,
) -> str:
    """The authorization request a client's browser opens (`extra`: other parameters, e.g.
    `prompt`)."""
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": state,
        **extra,
    }
    if scope is not None:
        params["scope"] = scope
    if resource is not None:
        params["resource"] = resource
    return "/identity/o/authorize?" + urlencode(params)


def exchange_code(
    base: str,
    *,
    code: str,
    client_id: str,
    verifier: str,
    resource: str | None = None,
    redirect_uri: str = CALLBACK,
    **extra: str,
) -> httpx.Response:
    """The token request a client sends with the authorization code (PKCE verifier included)."""
    data = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "client_id": client_id,
        "code_verifier": verifier,
        **extra,
    }
    if resource is not None:
        data["resource"] = resource
    return httpx.post(f"{base}/identity/o/api/token", data=data)


def grant_tokens(
    base: str, email: str, *, resource: str | None = None, **metadata: object
) -> tuple[dict, dict]:
    """A newly registered client (`metadata` overrides), the user's consent to everything it
    asks, and the token response for its code: what a connector holds after connecting."""
    client = register(base, **metadata)
    verifier, challenge = pkce()
    with httpx.Client(base_url=base) as browser:
        sign_in(browser, email)
        got = consent(browser, authorize_url(client["client_id"], challenge, resource=resource))
    r = exchange_code(
        base, code=got["code"], client_id=client["client_id"], verifier=verifier, resource=resource
    )
    assert r.status_code == 200, r.text
    return client, dict(r.json())


def mcp_call(base: str, token: str, tool: str, arguments: dict[str, Any]) -> httpx.Response:
    """One raw JSON-RPC tools/call, as a connector would send it after authorizing."""
    return httpx.post(
        f"{base}/mcp",
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-06-18",
        },
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        },
        timeout=60,
    )
