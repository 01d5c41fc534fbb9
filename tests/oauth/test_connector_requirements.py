"""What hosted connectors require of the authorization server, over real HTTP: metadata that
advertises only what answers, `iss` on every authorization response (RFC 9207), `401
invalid_client` for a client the server does not know (connectors re-register on it), and JSON
error bodies on every OAuth endpoint."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from allauth.idp.oidc.models import Client

from accounts.models import User
from tests.accounts.oauth_client import (
    CALLBACK,
    authorize_url,
    consent,
    grant_tokens,
    pkce,
    refresh_tokens,
    register,
    returned_to,
    sign_in,
)

pytestmark = pytest.mark.django_db(transaction=True)

METADATA = ("/.well-known/oauth-authorization-server", "/.well-known/openid-configuration")
# Every field either document may carry, each checked against what answers below. A field that
# appears and is not here (an allauth upgrade, a new setting) fails the test until it is checked.
CHECKED_FIELDS = {
    "issuer",
    "authorization_endpoint",
    "token_endpoint",
    "revocation_endpoint",
    "registration_endpoint",
    "userinfo_endpoint",
    "jwks_uri",
    "end_session_endpoint",
    "scopes_supported",
    "response_types_supported",
    "response_modes_supported",
    "grant_types_supported",
    "code_challenge_methods_supported",
    "token_endpoint_auth_methods_supported",
    "id_token_signing_alg_values_supported",
    "subject_types_supported",
    "client_id_metadata_document_supported",
    "authorization_response_iss_parameter_supported",
}


def _is_json_error(r: httpx.Response) -> bool:
    if not r.headers.get("content-type", "").startswith("application/json"):
        return False
    body = r.json()
    return isinstance(body, dict) and isinstance(body.get("error"), str)


# ---- metadata ---------------------------------------------------------------------------------


def test_both_metadata_documents_carry_only_fields_that_were_checked(live_url: str) -> None:
    for path in METADATA:
        doc = httpx.get(live_url + path).json()
        assert set(doc) <= CHECKED_FIELDS, set(doc) - CHECKED_FIELDS
        assert "device_authorization_endpoint" not in doc  # no device grant is offered
        assert doc["authorization_response_iss_parameter_supported"] is True
        assert doc["grant_types_supported"] == ["authorization_code", "refresh_token"]
        assert doc["response_types_supported"] == ["code"]
        assert doc["response_modes_supported"] == ["query"]


def test_every_advertised_endpoint_answers_at_its_advertised_address(live_url: str) -> None:
    doc = httpx.get(live_url + METADATA[0]).json()
    assert doc == httpx.get(live_url + METADATA[1]).json()
    assert httpx.get(doc["jwks_uri"]).json()["keys"][0]["kty"] == "RSA"
    assert httpx.get(doc["authorization_endpoint"]).status_code in (302, 400)
    assert httpx.get(doc["end_session_endpoint"]).status_code in (200, 302)
    for key in ("token_endpoint", "revocation_endpoint", "registration_endpoint"):
        r = httpx.post(doc[key], data={})
        assert r.status_code in (400, 401), (key, r.status_code)
        assert _is_json_error(r), (key, r.text[:200])
    userinfo = httpx.get(doc["userinfo_endpoint"])
    assert userinfo.status_code == 401 and _is_json_error(userinfo)


@pytest.mark.slow
def test_every_advertised_scope_auth_method_and_response_mode_works(
    live_url: str, alice: User
) -> None:
    doc = httpx.get(live_url + METADATA[0]).json()
    assert set(doc["token_endpoint_auth_methods_supported"]) == {
        "client_secret_basic",
        "client_secret_post",
        "none",
    }
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        for method in doc["token_endpoint_auth_methods_supported"]:
            for mode in doc["response_modes_supported"]:
                client = register(live_url, token_endpoint_auth_method=method)
                verifier, challenge = pkce()
                url = authorize_url(
                    client["client_id"], challenge, scope=" ".join(doc["scopes_supported"])
                )
                page = browser.get(f"{url}&response_mode={mode}")
                assert page.status_code == 200, (method, mode, page.text[:300])
                got = consent(browser, f"{url}&response_mode={mode}")
                assert "code" in got, (method, mode, got)
                extra: dict[str, str] = {}
                headers: dict[str, str] = {}
                if method == "client_secret_post":
                    extra["client_secret"] = client["client_secret"]
                data = {
                    "grant_type": "authorization_code",
                    "code": got["code"],
                    "redirect_uri": CALLBACK,
                    "code_verifier": verifier,
                    "resource": f"{live_url}/mcp",
                    **extra,
                }
                if method == "client_secret_basic":
                    pair = f"{client['client_id']}:{client['client_secret']}".encode()
                    headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
                else:
                    data["client_id"] = client["client_id"]
                r = httpx.post(doc["token_endpoint"], data=data, headers=headers)
                assert r.status_code == 200, (method, mode, r.text)
                body = r.json()
                assert set(body["scope"].split()) == set(doc["scopes_supported"])
                # openid was advertised: the ID token is signed as advertised.
                header = json.loads(base64.urlsafe_b64decode(body["id_token"].split(".")[0] + "=="))
                assert header["alg"] in doc["id_token_signing_alg_values_supported"]


def test_protected_resource_metadata_advertises_only_what_the_server_accepts(
    live_url: str,
) -> None:
    doc = httpx.get(live_url + METADATA[0]).json()
    for path in (
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ):
        prm = httpx.get(live_url + path).json()
        assert set(prm) == {
            "resource",
            "authorization_servers",
            "scopes_supported",
            "bearer_methods_supported",
            "resource_name",
        }
        assert prm["authorization_servers"] == [doc["issuer"]]
        assert set(prm["scopes_supported"]) <= set(doc["scopes_supported"])
        assert prm["bearer_methods_supported"] == ["header"]


# ---- RFC 9207: iss on every authorization response ---------------------------------------------


def _location_params(location: str) -> dict[str, str]:
    parts = urlsplit(location)
    return {k: v[0] for k, v in parse_qs(parts.fragment or parts.query).items()}


def test_the_authorization_response_names_its_issuer_on_success_cancel_and_error(
    live_url: str, alice: User
) -> None:
    client = register(live_url)
    _verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        granted = consent(browser, authorize_url(client["client_id"], challenge))
        cancelled = consent(browser, authorize_url(client["client_id"], challenge), action="cancel")
        # An error the AS sends back to the client (an unknown scope): a redirect with iss too.
        refused = browser.get(authorize_url(client["client_id"], challenge, scope="no-such-scope"))
    assert "code" in granted and granted["iss"] == live_url
    assert cancelled["error"] == "access_denied" and cancelled["iss"] == live_url
    # Handed back from a page of ours, like every answer to the client (oauth.views.hand_back).
    err = _location_params(returned_to(refused))
    assert err["error"] == "invalid_scope" and err["iss"] == live_url


def test_a_response_mode_that_is_not_advertised_is_refused_not_ignored(
    live_url: str, alice: User
) -> None:
    """allauth would answer a `response_mode=fragment` request in the query, where a client that
    asked for the fragment does not look; refused before consent instead."""
    client = register(live_url)
    _verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        for mode in ("fragment", "form_post"):
            page = browser.get(
                authorize_url(client["client_id"], challenge) + f"&response_mode={mode}"
            )
            assert page.status_code == 400, (mode, page.status_code)
            assert "response_mode=query" in page.text
            assert 'name="request"' not in page.text


# ---- 401 invalid_client -----------------------------------------------------------------------


def _assert_invalid_client(r: httpx.Response) -> None:
    assert r.status_code == 401, r.text
    assert _is_json_error(r) and r.json()["error"] == "invalid_client", r.text


def test_an_unknown_client_id_at_the_token_endpoint_is_401_invalid_client(live_url: str) -> None:
    token = f"{live_url}/identity/o/api/token"
    for data in (
        {
            "grant_type": "authorization_code",
            "code": "x",
            "redirect_uri": CALLBACK,
            "client_id": "no-such-client",
            "code_verifier": "v" * 43,
        },
        {"grant_type": "refresh_token", "refresh_token": "x", "client_id": "no-such-client"},
        {
            "grant_type": "refresh_token",
            "refresh_token": "x",
            "client_id": "no-such-client",
            "client_secret": "s",
        },
    ):
        _assert_invalid_client(httpx.post(token, data=data))
    basic = base64.b64encode(b"no-such-client:secret").decode()
    r = httpx.post(
        token,
        data={"grant_type": "refresh_token", "refresh_token": "x"},
        headers={"Authorization": f"Basic {basic}"},
    )
    _assert_invalid_client(r)
    assert r.headers["www-authenticate"].startswith("Basic")  # RFC 6749 §5.2


def test_a_deleted_client_refreshing_gets_401_invalid_client_so_it_registers_again(
    live_url: str, alice: User
) -> None:
    client, tokens = grant_tokens(live_url, alice.email)
    Client.objects.filter(id=client["client_id"]).delete()  # the orphan clean-up, or an admin
    r = refresh_tokens(live_url, client["client_id"], tokens["refresh_token"])
    _assert_invalid_client(r)


def test_a_wrong_client_secret_is_401_invalid_client(live_url: str) -> None:
    client = register(live_url, token_endpoint_auth_method="client_secret_post")
    r = httpx.post(
        f"{live_url}/identity/o/api/token",
        data={
            "grant_type": "refresh_token",
            "refresh_token": "x",
            "client_id": client["client_id"],
            "client_secret": "wrong",
        },
    )
    _assert_invalid_client(r)


# ---- JSON, never HTML -------------------------------------------------------------------------


ERROR_REQUESTS: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "/identity/o/api/token", {}),
    ("POST", "/identity/o/api/token", {}),
    ("POST", "/identity/o/api/token", {"data": {"grant_type": "password"}}),
    ("PUT", "/identity/o/api/token", {}),
    ("GET", "/identity/o/api/clients", {}),
    ("POST", "/identity/o/api/clients", {"content": b"not json"}),
    ("POST", "/identity/o/api/clients", {"json": {"redirect_uris": ["javascript:alert(1)"]}}),
    ("GET", "/identity/o/api/revoke", {}),
    ("POST", "/identity/o/api/revoke", {}),
    ("POST", "/identity/o/api/revoke", {"data": {"token": "x", "client_id": "no-such-client"}}),
    ("GET", "/identity/o/api/userinfo", {}),
    ("GET", "/identity/o/api/userinfo", {"headers": {"Authorization": "Bearer nope"}}),
    ("GET", "/identity/o/api/no-such-endpoint", {}),
    ("POST", "/identity/o/api/device/code", {"data": {"client_id": "x"}}),
    ("GET", "/identity/o/api/introspect", {}),
    ("POST", "/.well-known/openid-configuration", {}),
    ("POST", "/.well-known/oauth-authorization-server", {}),
    ("GET", "/.well-known/oauth-authorization-server/mcp", {}),
    ("GET", "/.well-known/no-such-document", {}),
    ("POST", "/.well-known/jwks.json", {}),
    ("GET", "/.well-known/oauth-protected-resource/other", {}),
    ("POST", "/.well-known/oauth-protected-resource/mcp", {}),
    ("GET", "/mcp", {}),
    ("POST", "/mcp", {"json": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}}),
    ("POST", "/mcp", {"headers": {"Authorization": "Bearer nope"}, "json": {}}),
    ("POST", "/mcp", {"headers": {"Host": "evil.example"}, "json": {}}),
    ("POST", "/mcp", {"headers": {"Origin": "https://evil.example"}, "json": {}}),
]


@pytest.mark.parametrize(("method", "path", "kwargs"), ERROR_REQUESTS)
def test_every_oauth_and_mcp_error_body_is_json(
    live_url: str, method: str, path: str, kwargs: dict[str, Any]
) -> None:
    r = httpx.request(method, live_url + path, **kwargs)
    assert r.status_code >= 400, (r.status_code, r.text[:200])
    assert _is_json_error(r), (r.status_code, r.headers.get("content-type"), r.text[:300])
    assert b"<html" not in r.content.lower() and b"<!doctype" not in r.content.lower()


def test_bodies_too_large_for_mcp_and_for_the_token_endpoint_are_json_413s(live_url: str) -> None:
    from django.conf import settings

    big = b"x" * (settings.MCP_MAX_BODY_BYTES + 1)
    r = httpx.post(f"{live_url}/mcp", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and _is_json_error(r), r.text[:200]
    form = b"grant_type=refresh_token&refresh_token=" + b"x" * (
        settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1
    )
    r = httpx.post(
        f"{live_url}/identity/o/api/token",
        content=form,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 413 and _is_json_error(r), r.text[:200]


def test_a_crash_inside_an_oauth_endpoint_is_a_json_500(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Django's test client in-process: the view raises, the error page is still JSON."""
    from allauth.idp.oidc import views as oidc_views

    def boom(request: Any) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(oidc_views, "token", boom)
    client.raise_request_exception = False
    r = client.post("/identity/o/api/token", data={"grant_type": "refresh_token"})
    assert r.status_code == 500
    assert r["Content-Type"].startswith("application/json")
    assert r.json()["error"] == "server_error"
    assert "simulated bug" not in r.content.decode()
