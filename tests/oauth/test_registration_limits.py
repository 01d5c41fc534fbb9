"""Dynamic client registration is open to anyone, so what one registration may store is bounded
(issue 14, item 7): it stored 2.4 MB of metadata per client before."""

from __future__ import annotations

import json
from typing import Any

import pytest
from allauth.idp.oidc.models import Client
from django.core.cache import cache
from django.test import Client as Browser

pytestmark = pytest.mark.django_db

URL = "/identity/o/api/clients"
METADATA = {
    "client_name": "Claude",
    "redirect_uris": ["https://claude.ai/api/mcp/auth_callback"],
    "token_endpoint_auth_method": "none",
    "grant_types": ["authorization_code", "refresh_token"],
    "response_types": ["code"],
}


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    cache.clear()


def _register(body: Any) -> Any:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return Browser().post(URL, raw, content_type="application/json")


@pytest.mark.parametrize(
    "body",
    [
        {**METADATA, "software_statement_padding": "x" * 2_400_000},
        {**METADATA, "client_name": "C" * 5_000},
        {**METADATA, "redirect_uris": [f"https://a{i}.example/cb" for i in range(200)]},
        {**METADATA, "contacts": ["a" * 3_000 + "@example.com"]},
        {**METADATA, "jwks": {"keys": [{"kid": str(i), "n": "x" * 1_000} for i in range(30)]}},
    ],
    ids=["2.4 MB body", "long name", "200 redirect URIs", "long contact", "big nested value"],
)
def test_a_registration_that_would_store_too_much_is_refused_and_stores_nothing(
    body: dict[str, Any],
) -> None:
    response = _register(body)
    assert response.status_code in (400, 413)
    assert response.json()["error"] == "invalid_client_metadata"
    assert not Client.objects.exists()


def test_what_real_connectors_send_still_registers() -> None:
    response = _register(METADATA)
    assert response.status_code == 201, response.content
    stored = Client.objects.get(pk=response.json()["client_id"])
    assert len(json.dumps(stored.data)) < 2_000
