"""Issue 14's OAuth attacks, each performed against the app under uvicorn: a replayed refresh
token, a redirect URI stretched with extra parameters, a CIMD client with a hostile callback,
dangerous callback schemes, private addresses behind IPv6 forms, DNS rebinding of the CIMD
fetch, and a client naming itself after the owner's own doors."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.test import override_settings

from accounts.actors import owner_actor
from accounts.models import ConnectedApp, User
from activity.models import AccessEvent
from memories.services.adding import memory_create
from oauth.cimd import address_is_public, resolve_public
from tests.accounts.oauth_client import (
    CALLBACK,
    authorize_url,
    consent,
    exchange_code,
    grant_tokens,
    mcp_call,
    pkce,
    refresh_tokens,
    register,
    sign_in,
)
from tests.oauth.cimd_server import MetadataServer, document_app, tls_files
from tests.servers import free_port, start_server

pytestmark = pytest.mark.django_db(transaction=True)


def test_replaying_a_rotated_refresh_token_revokes_the_whole_grant(
    live_url: str, alice: User
) -> None:
    client, first = grant_tokens(live_url, alice.email, resource=f"{live_url}/mcp")
    # The legitimate client refreshes: a new pair, the old refresh token is spent.
    second = refresh_tokens(live_url, client["client_id"], first["refresh_token"]).json()
    assert (
        mcp_call(live_url, second["access_token"], "search_memory", {"query": "x"}).status_code
        == 200
    )

    # The attacker replays the stolen, already rotated refresh token.
    replay = refresh_tokens(live_url, client["client_id"], first["refresh_token"])
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"

    # Both parties are now out: the newer refresh and access tokens are revoked too.
    assert refresh_tokens(live_url, client["client_id"], second["refresh_token"]).status_code == 400
    assert (
        mcp_call(live_url, second["access_token"], "search_memory", {"query": "x"}).status_code
        == 401
    )


@pytest.fixture
def second_node(live_url: str) -> Iterator[str]:
    """Another server on the same database, as a second node behind a load balancer."""
    from contextlayer.asgi import build_application
    from mcpbridge.http import MCPHttpApp

    live = start_server(build_application(MCPHttpApp()))
    try:
        yield live.url
    finally:
        live.server.should_exit = True
        live.thread.join(timeout=10)


@pytest.mark.slow
@pytest.mark.parametrize("parallel", [2, 8])
def test_concurrent_redemptions_of_one_refresh_token_leave_no_live_family(
    live_url: str, second_node: str, alice: User, parallel: int
) -> None:
    """Issue 24 item 5: the same refresh token sent `parallel` times at once, alternately to
    two nodes (each request on its own server thread and database connection). Exactly one may
    be redeemed; the others are a reuse, which revokes the grant, so no token family survives."""
    client, first = grant_tokens(live_url, alice.email, resource=f"{live_url}/mcp")
    start = threading.Barrier(parallel)

    def redeem(n: int) -> httpx.Response:
        start.wait(timeout=30)
        node = (live_url, second_node)[n % 2]
        return refresh_tokens(node, client["client_id"], first["refresh_token"])

    with ThreadPoolExecutor(parallel) as pool:
        answers = list(pool.map(redeem, range(parallel)))
    issued = [a.json() for a in answers if a.status_code == 200]
    assert len(issued) == 1, [a.status_code for a in answers]
    refused = [a for a in answers if a.status_code != 200]
    assert all(a.status_code == 400 and a.json()["error"] == "invalid_grant" for a in refused)
    # The reuse revoked the grant: the one new pair is dead too.
    for pair in issued:
        spent = refresh_tokens(live_url, client["client_id"], pair["refresh_token"])
        assert spent.status_code == 400
        search = mcp_call(live_url, pair["access_token"], "search_memory", {"query": "x"})
        assert search.status_code == 401


# ---- item 12: callbacks ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "uri",
    [
        "ms-msdt:/id PCWDiagnostic /skip force",
        "ms-msdt://x/y",
        "search-ms:query=invoice",
        "jar:https://evil.example/a.jar!/cb",
        "javascript:alert(1)",
        "data:text/html,hi",
        "file:///etc/passwd",
        "http://attacker.example/cb",
        "https://user:pass@evil.example/cb",
        "x:/single-letter",
        # issue 24 item 11: plain words the operating system hands to another program
        "smb://evil.example/share",
        "steam://run/730",
        "ssh://evil.example",
        "ldap://evil.example/cn=x",
        "telnet://evil.example",
        "shell://startup",
        "ftp://evil.example/cb",
        "zoommtg://zoom.us/join",
        "mailto://a@evil.example",
        "slack://open",
    ],
)
def test_registration_refuses_callbacks_outside_the_allowed_shapes(live_url: str, uri: str) -> None:
    r = httpx.post(
        f"{live_url}/identity/o/api/clients",
        json={"client_name": "X", "redirect_uris": [uri], "token_endpoint_auth_method": "none"},
    )
    assert r.status_code == 400, (uri, r.text)
    assert r.json()["error"] in ("invalid_redirect_uri", "invalid_client_metadata")


@pytest.mark.parametrize(
    "uri",
    [
        "cursor://anysphere.cursor-mcp/oauth/callback",
        "vscode://vscode.github-authentication/did-authenticate",
        "com.example.app:/oauth2redirect",
        "http://localhost:8787/callback",
        "http://[::1]:9999/cb",
        "https://claude.ai/api/mcp/auth_callback",
        "claude://claude.ai/oauth/callback",
        "windsurf://codeium.windsurf/oauth/callback",
    ],
)
def test_registration_accepts_the_callback_shapes_real_clients_use(live_url: str, uri: str) -> None:
    assert register(live_url, redirect_uris=[uri])["redirect_uris"] == [uri]


@pytest.mark.slow
@pytest.mark.parametrize("uri", ["steam://run/730", "smb://evil.example/share", "shell://x"])
def test_a_cimd_client_cannot_hand_the_browser_to_an_os_handler(
    live_url: str, alice: User, metadata_server: MetadataServer, uri: str
) -> None:
    """Issue 24 item 11, through a metadata document: no consent page, so neither Allow nor
    Cancel can send the browser to that scheme's program."""
    metadata_server.document["redirect_uris"] = [uri]
    _verifier, challenge = pkce()
    with (
        override_settings(OAUTH_CIMD_ALLOW_LOOPBACK=True),
        httpx.Client(base_url=live_url) as browser,
    ):
        sign_in(browser, alice.email)
        page = browser.get(authorize_url(metadata_server.client_id, challenge, redirect_uri=uri))
    assert page.status_code == 400, page.text[:300]
    assert not page.headers.get("location")  # no redirect, no link or refresh to the handler
    assert f'href="{uri}' not in page.text and 'http-equiv="refresh"' not in page.text
    assert 'name="request"' not in page.text


def test_a_cimd_client_cannot_get_a_code_sent_to_a_plain_http_attacker_host(
    live_url: str, alice: User, metadata_server: MetadataServer
) -> None:
    evil = "http://attacker.example/cb"
    metadata_server.document["redirect_uris"] = [evil]
    _verifier, challenge = pkce()
    url = authorize_url(metadata_server.client_id, challenge, redirect_uri=evil)
    with (
        override_settings(OAUTH_CIMD_ALLOW_LOOPBACK=True),
        httpx.Client(base_url=live_url) as browser,
    ):
        sign_in(browser, alice.email)
        page = browser.get(url)
    assert page.status_code == 400, page.text[:300]
    assert "attacker.example" not in page.headers.get("location", "")
    assert 'name="request"' not in page.text  # no consent form, nothing to approve


def test_a_redirect_uri_with_extra_query_parameters_is_refused(live_url: str, alice: User) -> None:
    client = register(
        live_url,
        redirect_uris=["https://app.example/cb", "https://app.example/q?tenant=1"],
    )
    _verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)
        for stretched in (
            "https://app.example/cb?next=https://evil.example",
            "https://app.example/q?tenant=1&next=https://evil.example",
            "https://app.example/cb/",
            "https://APP.example/cb",
        ):
            page = browser.get(
                authorize_url(client["client_id"], challenge, redirect_uri=stretched)
            )
            assert page.status_code == 400, (stretched, page.status_code)
            assert "evil.example" not in page.headers.get("location", "")
        exact = browser.get(
            authorize_url(
                client["client_id"], challenge, redirect_uri="https://app.example/q?tenant=1"
            )
        )
        assert exact.status_code == 200


def test_loopback_ip_callbacks_may_change_port_but_nothing_else(live_url: str, alice: User) -> None:
    client = register(live_url, redirect_uris=["http://127.0.0.1/cb", "http://localhost:8787/cb"])
    _verifier, challenge = pkce()
    with httpx.Client(base_url=live_url) as browser:
        sign_in(browser, alice.email)

        def status(uri: str) -> int:
            return browser.get(
                authorize_url(client["client_id"], challenge, redirect_uri=uri)
            ).status_code

        assert status("http://127.0.0.1:51234/cb") == 200  # RFC 8252 §7.3
        assert status("http://127.0.0.1:51234/cb?x=1") == 400
        assert status("http://127.0.0.1:51234/other") == 400
        assert status("http://localhost:8787/cb") == 200
        assert status("http://localhost:9999/cb") == 400  # a host name is matched exactly


@pytest.mark.slow
@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("93.184.215.14", True),
        ("2606:4700::1111", True),
        ("::ffff:8.8.8.8", True),
        ("64:ff9b::808:808", True),  # NAT64 of a public address
        ("127.0.0.1", False),
        ("10.0.0.1", False),
        ("169.254.169.254", False),
        ("::1", False),
        ("::127.0.0.1", False),  # IPv4-compatible
        ("::ffff:127.0.0.1", False),  # IPv4-mapped
        ("::ffff:10.1.2.3", False),
        ("64:ff9b::7f00:1", False),  # NAT64 of 127.0.0.1
        ("64:ff9b::a9fe:a9fe", False),  # NAT64 of the cloud metadata address
        ("64:ff9b:1::808:808", False),  # local-use NAT64
        ("2002:7f00:1::1", False),  # 6to4 of 127.0.0.1
        ("2002:a00:1::", False),  # 6to4 of 10.0.0.1
        ("fe80::1", False),
        ("fd00::1", False),
    ],
)
def test_the_cimd_address_guard_sees_through_ipv6_forms_of_private_addresses(
    address: str, public: bool
) -> None:
    assert address_is_public(address) is public


def test_one_private_answer_among_public_ones_refuses_the_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fake(host: str, *args: Any, **kwargs: Any) -> list[Any]:
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443)),
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::ffff:169.254.169.254", 443, 0, 0)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    assert resolve_public("mixed.example", 443) is None


def test_dns_rebinding_cannot_point_the_cimd_fetch_at_an_internal_server(
    live_url: str,
    alice: User,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The host answers the checked address first and an internal one after. Two TLS servers on
    one port: the "public" one (127.0.0.1, allowed here as public by the test-only setting) and
    the internal one (127.0.0.2). The fetch must go where the check looked."""
    cert, key = tls_files(tmp_path, monkeypatch, "cimd.test")
    port = free_port()
    client_id = f"https://cimd.test:{port}/oauth/client.json"
    base = {
        "client_id": client_id,
        "redirect_uris": [CALLBACK],
        "grant_types": ["authorization_code"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    servers = [
        start_server(
            document_app({**base, "client_name": name}),
            port=port,
            host=host,
            ssl_certfile=cert,
            ssl_keyfile=key,
            lifespan="off",
        )
        for host, name in (("127.0.0.1", "Checked Client"), ("127.0.0.2", "Internal Service"))
    ]
    real = socket.getaddrinfo
    answers = {"n": 0}

    def rebinding(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "cimd.test":
            return real(host, *args, **kwargs)
        answers["n"] += 1
        address = "127.0.0.1" if answers["n"] == 1 else "127.0.0.2"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, args[0] if args else port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    _verifier, challenge = pkce()
    try:
        with (
            override_settings(OAUTH_CIMD_ALLOW_LOOPBACK=True),
            httpx.Client(base_url=live_url) as browser,
        ):
            sign_in(browser, alice.email)
            page = browser.get(authorize_url(client_id, challenge))
    finally:
        for live in servers:
            live.server.should_exit = True
            live.thread.join(timeout=10)
    assert "Internal Service" not in page.text
    assert page.status_code == 200 and "Checked Client" in page.text, page.text[:500]
    assert answers["n"] == 1  # resolved once, connected to what was checked


# ---- item 13: a client naming itself after the owner's own doors --------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["dashboard", "API", "c l i", "\uff23\uff2c\uff29", "Claude import"]
)
def test_a_client_cannot_pass_for_one_of_the_owners_own_apps(
    live_url: str, alice: User, name: str, client: Any
) -> None:
    registered, tokens = grant_tokens(
        live_url, alice.email, resource=f"{live_url}/mcp", client_name=name
    )
    assert registered["client_name"] != name and "third-party" in registered["client_name"]
    token = tokens["access_token"]
    assert mcp_call(live_url, token, "add_memory", {"text": "Likes rye bread"}).status_code == 200
    memory_create(actor=owner_actor(alice), text="Owns a bicycle")  # the owner's own door

    app = ConnectedApp.objects.get(owner=alice, kind=ConnectedApp.Kind.OAUTH)
    assert app.name not in ConnectedApp.OWNER_APPS and "third-party" in app.name
    events = AccessEvent.objects.filter(owner=alice)
    assert {e.app_name for e in events if e.app_id == app.pk} == {app.name}

    # Marked as someone else's wherever the owner looks: API, connected apps, activity.
    client.force_login(alice)
    api = client.get("/api/v1/access-events").json()["items"]
    marks = {(e["app_name"], e["app_third_party"]) for e in api}
    assert (app.name, True) in marks and ("dashboard", False) in marks
    apps = {a["name"]: a["third_party"] for a in client.get("/api/v1/apps").json()}
    assert apps[app.name] is True
    for page in ("/apps/", "/activity/"):
        html = client.get(page).content.decode()
        assert ">third-party</span>" in html, page
    written = events.filter(app=app, action=AccessEvent.Action.ADD).get()
    detail = client.get(f"/memories/{written.memory_ids[0]}/").content.decode()
    assert ">third-party</span>" in detail


def test_a_cimd_document_cannot_name_its_client_after_an_owner_app(
    live_url: str, alice: User, metadata_server: MetadataServer
) -> None:
    metadata_server.document["client_name"] = "Dashboard"
    verifier, challenge = pkce()
    url = authorize_url(metadata_server.client_id, challenge)
    with (
        override_settings(OAUTH_CIMD_ALLOW_LOOPBACK=True),
        httpx.Client(base_url=live_url) as browser,
    ):
        sign_in(browser, alice.email)
        page = browser.get(url)
        assert page.status_code == 200, page.text[:300]
        got = consent(browser, url)
        # The grant (and with it the app) is issued when the code is redeemed.
        redeemed = exchange_code(
            live_url, code=got["code"], client_id=metadata_server.client_id, verifier=verifier
        )
        assert redeemed.status_code == 200, redeemed.text
    app = ConnectedApp.objects.get(owner=alice, kind=ConnectedApp.Kind.OAUTH)
    assert app.name == "Dashboard (third-party app)"
