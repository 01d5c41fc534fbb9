"""The connected apps page and its services: owner-only, pause, edit, revoke, client tokens,
and the clean-up of leftovers."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from allauth.idp.oidc.models import Client, Token
from django.core.management import call_command
from django.test import Client as Browser
from django.utils import timezone

from accounts.actors import actor_for, stdio_app
from accounts.credentials import resolve_bearer
from accounts.models import ConnectedApp, RotatedRefreshToken, User
from accounts.oauth_clients import client_key
from memories.selectors.memories import memory_get
from memories.services.adding import memory_create
from tests.personas import reauthenticate, signed_in

pytestmark = pytest.mark.django_db

RESOURCE = "http://testserver/mcp"


def _oauth_app(user: User, client_id: str = "c1", name: str = "Claude") -> ConnectedApp:
    client = Client.objects.filter(id=client_id).first() or Client.objects.create(
        id=client_id, name=name, data={"dcr": True}
    )
    return ConnectedApp.objects.create(
        owner=user,
        kind=ConnectedApp.Kind.OAUTH,
        name=name,
        oauth_client_id=client_id,
        oauth_client_key=client_key(client),
        scopes=["memories:read", "memories:write"],
    )


def _access_token(user: User, client_id: str, value: str, resource: str = RESOURCE) -> Token:
    token = Token(
        type=Token.Type.ACCESS_TOKEN,
        user=user,
        client_id=client_id,
        expires_at=timezone.now() + timedelta(hours=1),
    )
    token.set_value(value)
    token.set_scopes(["memories:read", "memories:write"])
    token.set_resources([resource])
    token.save()
    return token


def _browser(user: User) -> Browser:
    browser = Browser()
    browser.force_login(user)
    return browser


def test_the_page_lists_each_app_with_how_many_memories_it_read_and_wrote(owner: User) -> None:
    app = _oauth_app(owner)
    actor = actor_for(owner, app)
    acme = memory_create(actor=actor, text="Works at Acme", categories=["work"]).memory
    memory_create(actor=actor, text="Likes green tea", categories=["food"])
    memory_get(actor=actor, memory_id=acme.id)
    memory_get(actor=actor, memory_id=acme.id)
    page = _browser(owner).get("/apps/")
    assert page.status_code == 200
    row = re.search(rf'<tr id="app-{app.pk}">(.*?)</tr>', page.content.decode(), re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    assert cells[0].startswith("Claude") and cells[1] == "OAuth"
    assert re.search(r'<td class="count-read"[^>]*>1</td>', row.group(1))  # 1 distinct memory read
    assert re.search(r'<td class="count-wrote"[^>]*>2</td>', row.group(1))  # 2 written
    assert "memories, distinct" in page.content.decode()  # the header says what it counts


def test_another_users_app_is_a_404_for_every_action(owner: User, stranger: User) -> None:
    app = _oauth_app(owner)
    browser = _browser(stranger)
    assert browser.get(f"/apps/{app.pk}/edit").status_code == 404
    for action in ("pause", "resume", "revoke"):
        assert browser.post(f"/apps/{app.pk}/{action}").status_code == 404
    app.refresh_from_db()
    assert not app.paused and app.revoked_at is None
    assert f"app-{app.pk}" not in browser.get("/apps/").content.decode()


def test_pause_refuses_the_app_and_resume_lets_it_back(owner: User) -> None:
    app = _oauth_app(owner)
    _access_token(owner, "c1", "tok-1")
    browser = _browser(owner)
    browser.post(f"/apps/{app.pk}/pause")
    credential = resolve_bearer("tok-1", resource=RESOURCE)
    assert credential is not None and credential.app.paused
    browser.post(f"/apps/{app.pk}/resume")
    app.refresh_from_db()
    assert not app.paused


def test_editing_the_grant_narrows_what_the_token_may_do_at_once(owner: User) -> None:
    app = _oauth_app(owner)
    _access_token(owner, "c1", "tok-1")
    response = _browser(owner).post(
        f"/apps/{app.pk}/edit",
        {"scopes": ["memories:read"], "categories": ["work"]},
    )
    assert response.status_code == 302
    credential = resolve_bearer("tok-1", resource=RESOURCE)
    assert credential is not None
    assert credential.actor().scopes == frozenset({"memories:read"})
    assert credential.app.categories == ["work"] and "food" in credential.app.hidden_categories
    assert credential.app.sees_uncategorised is False


def test_revoking_an_oauth_app_deletes_its_tokens(owner: User, stranger: User) -> None:
    app = _oauth_app(owner)
    _access_token(owner, "c1", "tok-1")
    _access_token(stranger, "c1", "tok-2")  # the same client, another user's grant: untouched
    _oauth_app(stranger, "c1")
    _browser(owner).post(f"/apps/{app.pk}/revoke")
    assert resolve_bearer("tok-1", resource=RESOURCE) is None
    assert not Token.objects.filter(user=owner).exists()
    assert resolve_bearer("tok-2", resource=RESOURCE) is not None


def test_a_client_token_is_shown_once_works_and_stops_when_revoked(owner: User) -> None:
    browser = _browser(owner)
    reauthenticate(browser)
    page = browser.post(
        "/apps/tokens", {"name": "Cursor on laptop", "scopes": ["memories:read"], "expires": "30"}
    ).content.decode()
    secret = re.search(r"<code>(clt_[^<]+)</code>", page)
    assert secret is not None
    credential = resolve_bearer(secret.group(1), resource=RESOURCE)
    assert credential is not None and credential.scopes == frozenset({"memories:read"})
    assert credential.expires_at is not None
    assert timedelta(days=29) < credential.expires_at - timezone.now() <= timedelta(days=30)
    listing = browser.get("/apps/").content.decode()
    assert "Cursor on laptop" in listing and secret.group(1) not in listing
    browser.post(f"/apps/{credential.app.pk}/revoke")
    assert resolve_bearer(secret.group(1), resource=RESOURCE) is None


def test_cleanup_removes_expired_tokens_and_never_granted_registrations(owner: User) -> None:
    _oauth_app(owner, "granted")
    Client.objects.create(id="orphan", name="Claude", data={"dcr": True})
    Client.objects.create(id="fresh", name="Claude", data={"dcr": True})
    Client.objects.create(id="admin-made", name="Mine")  # not registered by a connector
    Client.objects.filter(id__in=["orphan", "granted", "admin-made"]).update(
        created_at=timezone.now() - timedelta(days=3)
    )
    expired = _access_token(owner, "granted", "old")
    Token.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    live = _access_token(owner, "granted", "new")
    stale = _oauth_app(owner, "stale", name="Claude (2)")  # a grant whose tokens are all gone
    ConnectedApp.objects.filter(oauth_client_id__in=["granted", "stale"]).update(
        created_at=timezone.now() - timedelta(days=3)
    )
    call_command("cleanup")
    assert set(Client.objects.values_list("id", flat=True)) == {
        "granted",
        "fresh",
        "admin-made",
        "stale",
    }
    assert list(Token.objects.values_list("pk", flat=True)) == [live.pk]
    stale.refresh_from_db()
    assert stale.revoked_at is not None
    assert ConnectedApp.objects.get(oauth_client_id="granted").revoked_at is None


def test_cleanup_forgets_spent_refresh_tokens_with_nothing_left_to_protect(owner: User) -> None:
    _oauth_app(owner, "c1")
    live = _access_token(owner, "c1", "tok-live")
    live.set_grant_id("g-live")
    live.save()
    past = timezone.now() - timedelta(seconds=1)
    future = timezone.now() + timedelta(days=1)
    for digest, grant, expires in (
        ("kept", "g-live", future),  # its grant still has a token: a replay must revoke it
        ("expired", "g-live", past),
        ("orphaned", "g-gone", future),  # no token of its grant is left
    ):
        RotatedRefreshToken.objects.create(
            hash=digest, grant_id=grant, client_id="c1", user=owner, expires_at=expires
        )
    call_command("cleanup")
    assert list(RotatedRefreshToken.objects.values_list("hash", flat=True)) == ["kept"]


def test_the_apps_page_and_its_edit_page_turn_review_of_its_changes_on_and_off(
    owner: User,
) -> None:
    app = stdio_app(owner, "cursor")
    browser = signed_in(owner)
    listing = browser.get("/apps/").content.decode()
    assert "Review its changes first" in listing and "changes reviewed" not in listing
    edit = browser.get(f"/apps/{app.pk}/edit").content.decode()
    assert "Review its changes first" in edit
    turned = browser.post(f"/apps/{app.pk}/review", {"review": "1"}, follow=True)
    assert "cursor&#x27;s changes now wait for your review." in turned.content.decode()
    assert "changes reviewed" in turned.content.decode()
    app.refresh_from_db()
    assert app.review_writes is True
    assert "Stop reviewing its changes" in browser.get(f"/apps/{app.pk}/edit").content.decode()
    browser.post(f"/apps/{app.pk}/review", {})
    app.refresh_from_db()
    assert app.review_writes is False
