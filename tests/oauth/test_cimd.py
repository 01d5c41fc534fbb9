"""A client identified by a Client ID Metadata Document served over real TLS (a trustme CA),
as Claude and ChatGPT do: no registration request, the AS fetches the document."""

from __future__ import annotations

import httpx
import pytest
from django.test import override_settings

from accounts.models import ConnectedApp, User
from tests.accounts.oauth_client import (
    authorize_url,
    consent,
    exchange_code,
    mcp_call,
    pkce,
    sign_in,
)
from tests.oauth.cimd_server import MetadataServer

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_cimd_client_over_tls_gets_consent_and_a_working_token(
    live_url: str, alice: User, metadata_server: MetadataServer
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
    live_url: str, alice: User, metadata_server: MetadataServer
) -> None:
    client_id = f"{metadata_server.url}/oauth/client.json"
    _verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        page = browser.get(authorize_url(client_id, challenge))
    assert page.status_code != 200 or "Metadata Client" not in page.text
    assert not ConnectedApp.objects.filter(owner=alice, kind=ConnectedApp.Kind.OAUTH).exists()
