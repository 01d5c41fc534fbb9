"""The app as OAuth 2.1 authorization server (allauth IdP + our policy), over real HTTP."""

from __future__ import annotations

import httpx
import pytest
from allauth.idp.oidc.models import Client, Token

from accounts.models import ConnectedApp, User
from tests.accounts.oauth_client import (
    authorize_url,
    consent,
    exchange_code,
    pkce,
    register,
    sign_in,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _token(base: str, **data: str) -> httpx.Response:
    return httpx.post(f"{base}/identity/o/api/token", data=data)


def test_both_discovery_documents_advertise_pkce_registration_and_memory_scopes(
    live_url: str,
) -> None:
    for path in ("/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"):
        doc = httpx.get(live_url + path).json()
        assert doc["issuer"] == live_url
        assert doc["code_challenge_methods_supported"] == ["S256"]
        assert doc["registration_endpoint"] == f"{live_url}/identity/o/api/clients"
        assert {"memories:read", "memories:write", "memories:delete", "offline_access"} <= set(
            doc["scopes_supported"]
        )
        assert doc["client_id_metadata_document_supported"] is True
        assert "none" in doc["token_endpoint_auth_methods_supported"]
        assert doc["response_types_supported"] == ["code"]


def test_code_flow_with_pkce_issues_a_token_bound_to_mcp_and_records_the_grant(
    live_url: str, alice: User
) -> None:
    client = register(live_url)
    verifier, challenge = pkce()
    resource = f"{live_url}/mcp"
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        got = consent(
            browser,
            authorize_url(client["client_id"], challenge, resource=resource),
            scopes=["memories:read", "offline_access"],  # the user unticks write
            categories=["work", "projects"],
        )
    assert got["state"] == "xyz"
    r = exchange_code(
        live_url,
        code=got["code"],
        client_id=client["client_id"],
        verifier=verifier,
        resource=resource,
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body["scope"].split()) == {"memories:read", "offline_access"}
    access = Token.objects.lookup(Token.Type.ACCESS_TOKEN, body["access_token"])
    assert access is not None and access.get_resources() == [resource]

    app = ConnectedApp.objects.get(owner=alice, kind="oauth")
    assert app.oauth_client_id == client["client_id"]
    assert app.name == "Test client"
    assert app.scopes == ["memories:read"]
    assert sorted(app.categories) == ["projects", "work"]
    assert "food" in app.hidden_categories and "health" in app.hidden_categories

    # Refresh rotates: a new refresh token, the old one no longer works.
    r2 = _token(
        live_url,
        grant_type="refresh_token",
        refresh_token=body["refresh_token"],
        client_id=client["client_id"],
    )
    assert r2.status_code == 200, r2.text
    assert r2.json()["refresh_token"] != body["refresh_token"]
    again = _token(
        live_url,
        grant_type="refresh_token",
        refresh_token=body["refresh_token"],
        client_id=client["client_id"],
    )
    assert again.status_code == 400


def test_a_foreign_resource_at_the_token_endpoint_is_a_400_invalid_target(
    live_url: str, alice: User
) -> None:
    client = register(live_url)
    verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        got = consent(browser, authorize_url(client["client_id"], challenge))
    for bad in ("https://evil.example/mcp", "not a uri", f"{live_url}/mcp#frag"):
        r = exchange_code(
            live_url,
            code=got["code"],
            client_id=client["client_id"],
            verifier=verifier,
            resource=bad,
        )
        assert r.status_code == 400, (bad, r.status_code, r.text[:200])
        assert r.json()["error"] == "invalid_target"


def test_a_client_that_sends_an_empty_scope_gets_read_only(live_url: str, alice: User) -> None:
    client = register(live_url, scope="")  # ChatGPT registers and authorizes with scope=
    verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        got = consent(browser, authorize_url(client["client_id"], challenge, scope=""))
    r = exchange_code(
        live_url,
        code=got["code"],
        client_id=client["client_id"],
        verifier=verifier,
    )
    assert r.status_code == 200, r.text
    assert r.json()["scope"] == "memories:read"


def test_claude_style_confidential_registration_without_scope_works(
    live_url: str, alice: User
) -> None:
    redirect = "https://claude.ai/api/mcp/auth_callback"
    client = register(
        live_url,
        client_name="Claude",
        redirect_uris=[redirect, "https://claude.com/api/mcp/auth_callback"],
        token_endpoint_auth_method="client_secret_post",
        scope=None,
    )
    assert client["client_secret"]
    verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        page = browser.get(
            authorize_url(client["client_id"], challenge, scope=None, redirect_uri=redirect)
        )
        assert "claude.ai" in page.text  # the consent page names where it sends you back
        got = consent(
            browser,
            authorize_url(client["client_id"], challenge, scope=None, redirect_uri=redirect),
        )
    r = exchange_code(
        live_url,
        code=got["code"],
        client_id=client["client_id"],
        verifier=verifier,
        redirect_uri=redirect,
        client_secret=client["client_secret"],
        resource=f"{live_url}/mcp",
    )
    assert r.status_code == 200, r.text
    assert r.json()["scope"] == "memories:read"


@pytest.mark.parametrize(
    ("uris", "ok"),
    [
        (["https://chatgpt.com/connector/oauth/abc123"], True),
        (["http://127.0.0.1/", "http://127.0.0.1:33418/"], True),
        (["http://[::1]:9999/cb"], True),
        (["cursor://anysphere.cursor-mcp/oauth/callback"], True),
        (["http://evil.example/callback"], False),
        (["javascript:alert(1)"], False),
    ],
)
def test_registration_accepts_https_loopback_and_app_schemes_only(
    live_url: str, uris: list[str], ok: bool
) -> None:
    r = httpx.post(
        f"{live_url}/identity/o/api/clients",
        json={"client_name": "X", "redirect_uris": uris, "token_endpoint_auth_method": "none"},
    )
    assert (r.status_code == 201) is ok, r.text


def test_loopback_redirect_on_any_port_is_accepted_at_authorize(live_url: str, alice: User) -> None:
    client = register(live_url, redirect_uris=["http://127.0.0.1/"])  # VS Code's registration
    _verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        got = consent(
            browser,
            authorize_url(client["client_id"], challenge, redirect_uri="http://127.0.0.1:51234/"),
        )
    assert "code" in got


def test_denying_consent_records_no_grant(live_url: str, alice: User) -> None:
    client = register(live_url)
    _verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        got = consent(browser, authorize_url(client["client_id"], challenge), action="cancel")
    assert got["error"] == "access_denied"
    assert not ConnectedApp.objects.filter(owner=alice, kind="oauth").exists()
    assert Client.objects.filter(id=client["client_id"]).exists()


def test_behind_a_proxy_the_issuer_and_endpoints_use_public_url(live_url: str) -> None:
    from django.test import override_settings

    with override_settings(PUBLIC_URL="https://memory.example.com"):
        doc = httpx.get(f"{live_url}/.well-known/oauth-authorization-server").json()
        prm = httpx.get(f"{live_url}/.well-known/oauth-protected-resource/mcp").json()
    assert doc["issuer"] == "https://memory.example.com"
    assert doc["token_endpoint"] == "https://memory.example.com/identity/o/api/token"
    assert doc["registration_endpoint"] == "https://memory.example.com/identity/o/api/clients"
    assert prm["resource"] == "https://memory.example.com/mcp"
    assert prm["authorization_servers"] == [doc["issuer"]]
