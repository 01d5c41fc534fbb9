"""A client identified by a Client ID Metadata Document served over real TLS (a trustme CA),
as Claude and ChatGPT do: no registration request, the AS fetches the document."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import trustme
from django.test import override_settings

from accounts.models import ConnectedApp, User
from tests.accounts.conftest import (
    CALLBACK,
    LiveServer,
    authorize_url,
    consent,
    exchange_code,
    pkce,
    sign_in,
    start_server,
)
from tests.accounts.test_mcp_oauth_flow import mcp_call

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def metadata_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    cert_file, key_file, ca_file = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    cert.private_key_and_cert_chain_pem.write_to_path(str(cert_file))
    cert.private_key_pem.write_to_path(str(key_file))
    ca.cert_pem.write_to_path(str(ca_file))
    # allauth fetches the document with `requests`; trust our test CA, and only it.
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(ca_file))
    document: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = json.dumps(document).encode()
        found = scope["path"] == "/oauth/client.json"
        await send(
            {
                "type": "http.response.start",
                "status": 200 if found else 404,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body if found else b"{}"})

    live = start_server(app, ssl_certfile=str(cert_file), ssl_keyfile=str(key_file), lifespan="off")
    client_id = f"{live.url}/oauth/client.json"
    document.update(
        client_id=client_id,
        client_name="Metadata Client",
        redirect_uris=[CALLBACK],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    try:
        yield live
    finally:
        live.server.should_exit = True
        live.thread.join(timeout=10)


def test_a_cimd_client_over_tls_gets_consent_and_a_working_token(
    live_url: str, alice: User, metadata_server: LiveServer
) -> None:
    client_id = f"{metadata_server.url}/oauth/client.json"
    verifier, challenge = pkce()
    url = authorize_url(client_id, challenge, resource=f"{live_url}/mcp")
    with (
        override_settings(OAUTH_CIMD_ALLOW_LOOPBACK=True),
        httpx.Client(base_url=live_url) as browser,
    ):
        sign_in(browser, alice.email)
        page = browser.get(url)
        assert page.status_code == 200, page.text[:500]
        assert "Metadata Client" in page.text
        assert "metadata document" in page.text and "127.0.0.1" in page.text
        got = consent(browser, url)
        r = exchange_code(
            live_url,
            code=got["code"],
            client_id=client_id,
            verifier=verifier,
            resource=f"{live_url}/mcp",
        )
    assert r.status_code == 200, r.text
    assert set(r.json()["scope"].split()) >= {"memories:read", "memories:write"}
    app = ConnectedApp.objects.get(owner=alice, kind="oauth")
    assert app.oauth_client_id == client_id and app.name == "Metadata Client"
    ok = mcp_call(live_url, r.json()["access_token"], "search_memory", {"query": "anything"})
    assert ok.status_code == 200, ok.text


def test_without_the_test_only_loopback_allowance_the_ssrf_guard_refuses_the_document(
    live_url: str, alice: User, metadata_server: LiveServer
) -> None:
    client_id = f"{metadata_server.url}/oauth/client.json"
    _verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        page = browser.get(authorize_url(client_id, challenge))
    assert page.status_code != 200 or "Metadata Client" not in page.text
    assert not ConnectedApp.objects.filter(owner=alice, kind=ConnectedApp.Kind.OAUTH).exists()
