"""The whole connector story with the MCP SDK's own OAuth client against the app under uvicorn:
discovery → DCR → sign-in → consent → token → tools/call, then refresh, revoke, audience binding,
category-limited grants and pause."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import httpx2
import pytest
from mcp.client import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)

from accounts.actors import owner_actor
from accounts.models import ConnectedApp, User
from accounts.services import app_revoke, app_set_paused
from memories.models import Memory
from memories.services.adding import memory_create
from tests.accounts.oauth_client import (
    CALLBACK,
    authorize_url,
    consent,
    exchange_code,
    mcp_call,
    pkce,
    register,
    sign_in,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


class MemoryStorage(TokenStorage):
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def _result_texts(content: dict[str, Any] | None) -> str:
    return " | ".join(hit["text"] for hit in (content or {}).get("results", []))


def _seed(user: User) -> None:
    actor = owner_actor(user)
    memory_create(
        actor=actor, text="Works at Acme on the Atlas billing project", categories=["work"]
    )
    memory_create(actor=actor, text="Loves Thai green curry", categories=["food"])
    memory_create(actor=actor, text="Has asthma and carries an inhaler", categories=["health"])
    memory_create(actor=actor, text="Plays chess on Sunday mornings", categories=["hobbies"])


async def _connect_with_sdk(base: str, browser: httpx.Client) -> tuple[MemoryStorage, list[str]]:
    storage = MemoryStorage()
    got: dict[str, str] = {}
    texts: list[str] = []

    async def redirect_handler(url: str) -> None:
        # The test is the user's browser: it is signed in, and answers our consent page.
        path = url.split(base, 1)[1]
        assert parse_qs(urlsplit(url).query)["resource"] == [f"{base}/mcp"]
        got.update(
            consent(
                browser,
                path,
                scopes=["memories:read", "memories:write", "offline_access"],
                categories=["work", "food"],
            )
        )

    async def callback_handler() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=got["code"], state=got.get("state"), iss=got.get("iss"))

    provider = OAuthClientProvider(
        f"{base}/mcp",
        OAuthClientMetadata(
            client_name="SDK test client",
            redirect_uris=[CALLBACK],  # type: ignore[list-item]
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    async with (
        httpx2.AsyncClient(auth=provider, timeout=60) as http,
        Client(streamable_http_client(f"{base}/mcp", http_client=http), mode="legacy") as c,
    ):
        found = await c.call_tool("search_memory", {"query": "Acme Atlas project"})
        assert not found.is_error, found
        texts.append(_result_texts(found.structured_content))
        sensitive = await c.call_tool("search_memory", {"query": "asthma inhaler health"})
        texts.append(_result_texts(sensitive.structured_content))
        chess = await c.call_tool("search_memory", {"query": "chess Sunday"})
        texts.append(_result_texts(chess.structured_content))
        added = await c.call_tool(
            "add_memory", {"text": "Prefers window seats on trains", "category": "work"}
        )
        assert not added.is_error, added
    return storage, texts


@pytest.mark.slow
def test_sdk_oauth_client_connects_and_the_grant_is_enforced_end_to_end(
    live_url: str, alice: User
) -> None:
    _seed(alice)
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        storage, (acme, asthma, chess) = asyncio.run(_connect_with_sdk(live_url, browser))

    # Discovery → DCR → consent → token → tools/call worked; the grant limits what it sees.
    assert "Acme" in acme
    assert "asthma" not in asthma  # health was not granted
    assert "chess" not in chess  # hobbies was not granted
    app = ConnectedApp.objects.get(owner=alice, kind="oauth")
    assert app.name == "SDK test client"
    assert app.scopes == ["memories:read", "memories:write"]
    assert Memory.objects.filter(
        owner=alice, text__startswith="Prefers window", origin_app=app
    ).exists()
    assert app.last_seen_at is not None

    assert storage.tokens is not None and storage.client is not None
    access = storage.tokens.access_token
    refresh = storage.tokens.refresh_token
    assert refresh

    # Refresh: a new access token (bound to /mcp as before) that works; rotation keeps going.
    r = httpx.post(
        f"{live_url}/identity/o/api/token",
        data={
            "grant_type": "refresh_token",
            "refresh_token": refresh,
            "client_id": storage.client.client_id or "",
            "resource": f"{live_url}/mcp",
        },
    )
    assert r.status_code == 200, r.text
    fresh = r.json()["access_token"]
    ok = mcp_call(live_url, fresh, "search_memory", {"query": "curry"})
    assert ok.status_code == 200, ok.text
    assert "Thai green curry" in ok.text

    # Write was granted, delete was not: 403 insufficient_scope, so the client can step up.
    denied = mcp_call(live_url, fresh, "delete_all_memories", {"confirm": True})
    assert denied.status_code == 403
    challenge = denied.headers["www-authenticate"]
    assert 'error="insufficient_scope"' in challenge and "memories:delete" in challenge
    assert Memory.objects.filter(owner=alice).count() == 5

    # Pause: refused, nothing written.
    app_set_paused(actor=owner_actor(alice), app_id=app.pk, paused=True)
    paused = mcp_call(live_url, fresh, "add_memory", {"text": "Should not be stored"})
    assert paused.status_code == 200
    assert paused.json()["result"]["isError"] is True
    assert "paused" in paused.text
    assert not Memory.objects.filter(text="Should not be stored").exists()
    app_set_paused(actor=owner_actor(alice), app_id=app.pk, paused=False)

    # Revoke: the very next request is a 401 with a challenge pointing at the metadata.
    app_revoke(actor=owner_actor(alice), app_id=app.pk)
    for token in (access, fresh):
        gone = mcp_call(live_url, token, "search_memory", {"query": "curry"})
        assert gone.status_code == 401
        assert "resource_metadata=" in gone.headers["www-authenticate"]


def _token_for(base: str, browser: httpx.Client, resource: str | None) -> str:
    client = register(base)
    verifier, challenge = pkce()
    got = consent(browser, authorize_url(client["client_id"], challenge, resource=resource))
    r = exchange_code(
        base, code=got["code"], client_id=client["client_id"], verifier=verifier, resource=resource
    )
    assert r.status_code == 200, r.text
    return str(r.json()["access_token"])


@pytest.mark.slow
def test_only_tokens_bound_to_the_mcp_resource_open_mcp(live_url: str, alice: User) -> None:
    _seed(alice)
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        api_token = _token_for(live_url, browser, f"{live_url}/api/v1")
        unbound = _token_for(live_url, browser, None)
        mcp_token = _token_for(live_url, browser, f"{live_url}/mcp")
    for token in (api_token, unbound, "made-up-token"):
        r = mcp_call(live_url, token, "search_memory", {"query": "curry"})
        assert r.status_code == 401, r.text
    r = mcp_call(live_url, mcp_token, "search_memory", {"query": "curry"})
    assert r.status_code == 200 and "curry" in r.text


def test_a_read_only_grant_gets_403_insufficient_scope_on_a_write_tool(
    live_url: str, alice: User
) -> None:
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        client = register(live_url)
        verifier, challenge = pkce()
        got = consent(
            browser,
            authorize_url(client["client_id"], challenge, resource=f"{live_url}/mcp"),
            scopes=["memories:read"],
        )
    r = exchange_code(
        live_url,
        code=got["code"],
        client_id=client["client_id"],
        verifier=verifier,
        resource=f"{live_url}/mcp",
    )
    token = r.json()["access_token"]
    denied = mcp_call(live_url, token, "add_memory", {"text": "Owns a red bicycle"})
    assert denied.status_code == 403
    assert 'error="insufficient_scope"' in denied.headers["www-authenticate"]
    assert 'resource_metadata="' in denied.headers["www-authenticate"]
    assert not Memory.objects.filter(owner=alice).exists()


def test_protected_resource_metadata_names_the_exact_mcp_url_and_issuer(live_url: str) -> None:
    for path in (
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ):
        prm = httpx.get(live_url + path).json()
        assert prm["resource"] == f"{live_url}/mcp"
        assert prm["authorization_servers"] == [live_url]
    issuer = httpx.get(f"{live_url}/.well-known/oauth-authorization-server").json()["issuer"]
    assert issuer == live_url
    challenge = httpx.post(f"{live_url}/mcp", json={}).headers["www-authenticate"]
    assert f'resource_metadata="{live_url}/.well-known/oauth-protected-resource/mcp"' in challenge
    assert 'scope="' in challenge


def test_rfc7009_revocation_ends_the_token_on_the_next_call(live_url: str, alice: User) -> None:
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        client = register(live_url)
        verifier, challenge = pkce()
        got = consent(
            browser, authorize_url(client["client_id"], challenge, resource=f"{live_url}/mcp")
        )
    token = exchange_code(
        live_url,
        code=got["code"],
        client_id=client["client_id"],
        verifier=verifier,
        resource=f"{live_url}/mcp",
    ).json()["access_token"]
    assert mcp_call(live_url, token, "search_memory", {"query": "x"}).status_code == 200
    r = httpx.post(
        f"{live_url}/identity/o/api/revoke",
        data={"token": token, "client_id": client["client_id"]},
    )
    assert r.status_code == 200
    assert mcp_call(live_url, token, "search_memory", {"query": "x"}).status_code == 401
