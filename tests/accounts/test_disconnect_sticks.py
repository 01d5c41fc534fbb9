"""The owner's disconnect holds at every entry point: a local (stdio) app whose command a client
relaunches by itself stays refused, with a sentence saying who disconnected it and how to allow it
again; a client token and an OAuth token stay refused over MCP and REST; after *Erase everything*
too. And the process that revoked refuses the very next request, though it caches credentials."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import owner_actor
from accounts.models import ConnectedApp, DisconnectedApp, User
from accounts.services import app_revoke, app_set_paused
from activity.models import AccessEvent
from memories.models import Memory
from memories.services.erasure import user_erase
from tests.accounts.oauth_client import grant_tokens, mcp_call, refresh_tokens
from tests.api.tokens import bearer, token_app
from tests.mcpbridge.mcp_clients import JSON, ROOT, McpHttp, stdio_env, stdio_server, text_of
from tests.personas import reauthenticate, signed_in

pytestmark = pytest.mark.django_db(transaction=True)

APP = "claude-desktop"


def _launch(owner: User, *extra: str) -> subprocess.CompletedProcess[bytes]:
    """The stdio command as a client launches it, with nothing on stdin (a served process
    reads the end of input and exits 0)."""
    return subprocess.run(
        [sys.executable, "manage.py", "mcp", "--user", owner.email, "--app", APP, *extra],
        cwd=ROOT,
        env=stdio_env(),
        input=b"",
        capture_output=True,
        timeout=120,
    )


def _add_over_stdio(owner: User, text: str) -> Any:
    params = stdio_server(owner.email, "--app", APP)  # reads the database: not in the loop

    async def session() -> Any:
        async with Client(params, mode="legacy") as c:
            return await c.call_tool("add_memory", {"text": text})

    return anyio.run(session)


def _assert_refused(run: subprocess.CompletedProcess[bytes], owner: User) -> None:
    assert run.returncode == 1
    assert run.stdout == b""  # nothing a client could take for a protocol message
    said = run.stderr.decode()
    assert f"The owner disconnected the app '{APP}'" in said
    assert "Disconnected local apps" in said and "Allow again" in said
    assert f"manage.py mcp --user {owner.email} --app {APP} --allow-again" in said


def _stdio_apps(owner: User) -> list[tuple[str, bool]]:
    """(name, live) of each stdio app of the owner, oldest first."""
    apps = ConnectedApp.objects.filter(owner=owner, kind=ConnectedApp.Kind.STDIO).order_by("pk")
    return [(app.name, app.revoked_at is None) for app in apps]


@pytest.mark.slow
def test_a_disconnected_stdio_app_stays_refused_when_its_command_is_launched_again(
    owner: User,
) -> None:
    assert not _add_over_stdio(owner, "Written before the disconnect.").is_error
    app = ConnectedApp.objects.get(owner=owner, name=APP)
    browser = signed_in(owner)
    assert browser.post(f"/apps/{app.pk}/revoke").status_code == 302

    _assert_refused(_launch(owner), owner)
    _assert_refused(_launch(owner, "--scopes", "read,write,delete"), owner)
    assert _stdio_apps(owner) == [(APP, False)]  # no new app, the revoked one stays revoked
    assert list(Memory.objects.filter(owner=owner).values_list("text", flat=True)) == [
        "Written before the disconnect."
    ]
    page = browser.get("/apps/").content.decode()
    assert "Disconnected local apps" in page and f'value="{APP}"' in page

    # The owner types the flag once: it allows the name again and serves nothing.
    allowed = _launch(owner, "--allow-again")
    assert allowed.returncode == 0 and allowed.stdout == b""
    assert f"'{APP}' may connect again" in allowed.stderr.decode()
    assert not DisconnectedApp.objects.filter(owner=owner).exists()
    assert AccessEvent.objects.filter(owner=owner, detail__allowed_again=True).exists()

    assert not _add_over_stdio(owner, "Written once allowed again.").is_error
    assert _stdio_apps(owner) == [(APP, False), (APP, True)]  # a new app, the default grant
    assert ConnectedApp.objects.get(owner=owner, name=APP, revoked_at=None).scopes == [
        "memories:read",
        "memories:write",
    ]


@pytest.mark.slow
def test_after_erase_everything_the_stdio_app_stays_refused_until_allowed_on_the_dashboard(
    owner: User,
) -> None:
    assert not _add_over_stdio(owner, "Written before the erase.").is_error
    browser = signed_in(owner)
    reauthenticate(browser)
    erased = browser.post("/erase/", {"confirm": "erase my memory"})
    assert erased.status_code == 200, erased.content[:300]
    assert not ConnectedApp.objects.filter(owner=owner, kind=ConnectedApp.Kind.STDIO).exists()

    _assert_refused(_launch(owner), owner)
    assert not Memory.objects.filter(owner=owner).exists()
    assert not ConnectedApp.objects.filter(owner=owner, kind=ConnectedApp.Kind.STDIO).exists()

    assert browser.post("/apps/allow-again", {"name": APP}).status_code == 302
    assert not _add_over_stdio(owner, "Written once allowed again.").is_error
    assert _stdio_apps(owner) == [(APP, True)]


@pytest.mark.slow
def test_a_running_stdio_app_refuses_its_next_call_once_disconnected(owner: User) -> None:
    params = stdio_server(owner.email, "--app", APP)

    async def session() -> tuple[Any, Any]:
        async with Client(params, mode="legacy") as c:
            first = await c.call_tool("add_memory", {"text": "Has two kids"})
            await anyio.to_thread.run_sync(_revoke, owner)
            return first, await c.call_tool("add_memory", {"text": "Has three cats"})

    first, second = anyio.run(session)
    assert not first.is_error
    assert second.is_error and f"The owner disconnected the app '{APP}'" in text_of(second)
    assert list(Memory.objects.filter(owner=owner).values_list("text", flat=True)) == [
        "Has two kids"
    ]


def _revoke(owner: User) -> None:
    from django.db import connections

    app = ConnectedApp.objects.get(owner=owner, name=APP, revoked_at=None)
    app_revoke(actor=owner_actor(owner), app_id=app.pk)
    connections.close_all()


def test_the_rest_api_lists_disconnected_local_apps_and_allows_one_again(owner: User) -> None:
    from accounts.actors import stdio_app

    app = stdio_app(owner, APP)
    app_revoke(actor=owner_actor(owner), app_id=app.pk)
    api = signed_in(owner)
    listed = api.get("/api/v1/apps/disconnected").json()
    assert [row["name"] for row in listed] == [APP]

    allow = api.post(
        "/api/v1/apps/disconnected/allow", json.dumps({"name": APP}), "application/json"
    )
    assert allow.status_code == 200 and allow.json() == {"name": APP, "allowed_again": True}
    again = api.post(
        "/api/v1/apps/disconnected/allow", json.dumps({"name": APP}), "application/json"
    )
    assert again.json() == {"name": APP, "allowed_again": False}
    assert stdio_app(owner, APP).revoked_at is None


def test_an_app_may_not_list_or_allow_disconnected_apps(owner: User) -> None:
    from accounts.actors import stdio_app
    from tests.personas import issue_token

    app_revoke(actor=owner_actor(owner), app_id=stdio_app(owner, APP).pk)
    secret = issue_token(owner, name="script", scopes=["memories:read", "memories:write"]).secret
    program = bearer(secret)
    assert program.get("/api/v1/apps/disconnected").status_code == 403
    refused = program.post(
        "/api/v1/apps/disconnected/allow", json.dumps({"name": APP}), "application/json"
    )
    assert refused.status_code == 403
    assert DisconnectedApp.objects.filter(owner=owner, name=APP).exists()


def test_a_revoked_client_token_is_refused_over_rest_and_stays_refused_after_erase(
    owner: User,
) -> None:
    from tests.personas import issue_token

    secret = issue_token(owner, name="script", scopes=["memories:read"]).secret
    program = bearer(secret)
    assert program.get("/api/v1/memories").status_code == 200
    app_revoke(actor=owner_actor(owner), app_id=token_app(secret).pk)
    assert program.get("/api/v1/memories").status_code == 401

    kept = issue_token(owner, name="second script", scopes=["memories:read"]).secret
    assert bearer(kept).get("/api/v1/memories").status_code == 200
    user_erase(actor=owner_actor(owner, ConnectedApp.CLI))
    assert bearer(kept).get("/api/v1/memories").status_code == 401
    assert program.get("/api/v1/memories").status_code == 401


def _search(url: str, token: str) -> int:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "search_memory", "arguments": {"query": "anything"}},
    }
    headers = {**JSON, "authorization": f"Bearer {token}"}
    return httpx2.post(f"{url}/mcp", content=json.dumps(body), headers=headers).status_code


def _revoke_app(owner: User, app: ConnectedApp) -> None:
    app_revoke(actor=owner_actor(owner), app_id=app.pk)


def _pause_app(owner: User, app: ConnectedApp) -> None:
    app_set_paused(actor=owner_actor(owner), app_id=app.pk, paused=True)


def _erase(owner: User, app: ConnectedApp) -> None:
    user_erase(actor=owner_actor(owner, ConnectedApp.CLI))


@pytest.mark.parametrize("change", [_revoke_app, _erase])
def test_the_process_that_disconnects_refuses_the_next_mcp_call_though_it_caches_credentials(
    owner: User,
    mcp_for: Callable[..., McpHttp],
    server_url: str,
    settings: SettingsWrapper,
    change: Callable[[User, ConnectedApp], None],
) -> None:
    """The server runs in this process: with credentials cached for a whole minute, the change
    made here still refuses the very next call (other processes: within the cache's second)."""
    settings.CREDENTIAL_CACHE_SECONDS = 60
    client = mcp_for(owner, scopes="read")
    token = client.token or ""
    assert _search(server_url, token) == 200
    assert _search(server_url, token) == 200  # now answered from the cache
    change(owner, token_app(token))
    assert _search(server_url, token) == 401


def test_the_process_that_pauses_an_app_refuses_its_next_mcp_call(
    owner: User, mcp_for: Callable[..., McpHttp], settings: SettingsWrapper
) -> None:
    settings.CREDENTIAL_CACHE_SECONDS = 60
    client = mcp_for(owner, scopes="read")
    assert not client.call("search_memory", {"query": "anything"}).is_error
    _pause_app(owner, token_app(client.token or ""))
    paused = client.call("search_memory", {"query": "anything"})
    assert paused.is_error and "paused" in text_of(paused)


@pytest.mark.slow
def test_a_revoked_oauth_app_is_refused_at_once_and_only_new_consent_connects_it_again(
    live_url: str, alice: User, settings: SettingsWrapper
) -> None:
    settings.CREDENTIAL_CACHE_SECONDS = 60
    resource = f"{live_url}/mcp"
    client, tokens = grant_tokens(live_url, alice.email, resource=resource)
    access = tokens["access_token"]
    assert mcp_call(live_url, access, "search_memory", {"query": "x"}).status_code == 200
    assert mcp_call(live_url, access, "search_memory", {"query": "x"}).status_code == 200
    app = ConnectedApp.objects.get(owner=alice, kind=ConnectedApp.Kind.OAUTH)
    app_revoke(actor=owner_actor(alice), app_id=app.pk)

    assert mcp_call(live_url, access, "search_memory", {"query": "x"}).status_code == 401
    refresh = refresh_tokens(live_url, client["client_id"], tokens["refresh_token"])
    assert refresh.status_code == 400

    # The owner's explicit act: signing in and consenting again connects a new app.
    _, again = grant_tokens(live_url, alice.email, resource=resource)
    assert (
        mcp_call(live_url, again["access_token"], "search_memory", {"query": "x"}).status_code
        == 200
    )
    assert ConnectedApp.objects.filter(owner=alice, kind=ConnectedApp.Kind.OAUTH).count() == 2

    user_erase(actor=owner_actor(alice, ConnectedApp.CLI))
    assert (
        mcp_call(live_url, again["access_token"], "search_memory", {"query": "x"}).status_code
        == 401
    )
