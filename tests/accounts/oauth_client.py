"""The client side of OAuth over plain HTTP: a cookie-keeping "browser" that signs in and answers
the consent form, and the requests a connector sends (registration, PKCE, the authorization
URL, the code exchange, an MCP call with the token it got)."""

from __future__ import annotations

import base64
import hashlib
import html
import re
import secrets
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

PASSWORD = "correct horse battery"


CALLBACK = "http://127.0.0.1:33418/callback"


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
    navigates there by itself (its Continue link; see oauth.views.hand_back)."""
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


def refresh_tokens(base: str, client_id: str, refresh_token: str) -> httpx.Response:
    """The token request a client sends to renew its access with its refresh token."""
    return httpx.post(
        f"{base}/identity/o/api/token",
        data={
            "grant_type": "refresh_token",
            "refresh_token": refresh_token,
            "client_id": client_id,
        },
    )
