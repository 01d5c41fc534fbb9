"""Connected apps over REST: list, pause, resume, revoke; only the owner; others' ids → 404."""

from __future__ import annotations

from django.test import Client

from accounts.actors import builtin_app
from accounts.models import ConnectedApp, User
from activity.models import AccessEvent
from tests.api.tokens import TokenFactory, token_app

API = "/api/v1/apps"


def test_the_owner_lists_live_apps_and_revoked_ones_on_request(
    owner_api: Client, owner: User, make_token: TokenFactory, stranger: User
) -> None:
    make_token(owner, name="claude")
    make_token(stranger, name="strangers-app")
    gone = ConnectedApp.objects.create(
        owner=owner, kind=ConnectedApp.Kind.TOKEN, name="old", revoked_at="2026-01-01T00:00Z"
    )
    names = {a["name"] for a in owner_api.get(API).json()}
    assert "claude" in names and "api" in names
    assert "strangers-app" not in names and "old" not in names
    with_revoked = owner_api.get(API, {"include_revoked": "true"}).json()
    assert gone.pk in {a["id"] for a in with_revoked}


def test_pause_and_resume_switch_the_app_and_are_recorded(
    owner_api: Client, owner: User, make_token: TokenFactory
) -> None:
    token = make_token(owner, name="claude")
    app = token_app(token)
    paused = owner_api.post(f"{API}/{app.pk}/pause")
    assert paused.status_code == 200 and paused.json()["paused"] is True
    app.refresh_from_db()
    assert app.paused
    event = AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.STATE).latest("pk")
    assert event.detail["app_id"] == app.pk
    assert event.detail["paused"] == {"from": False, "to": True}
    assert event.app_name == "api"
    resumed = owner_api.post(f"{API}/{app.pk}/resume")
    assert resumed.json()["paused"] is False


def test_a_paused_app_is_refused_until_resumed(
    owner_api: Client, owner: User, make_token: TokenFactory
) -> None:
    token = make_token(owner, name="claude")
    app = token_app(token)
    owner_api.post(f"{API}/{app.pk}/pause")
    claude = Client(headers={"Authorization": f"Bearer {token}"})
    assert claude.get("/api/v1/memories").status_code == 403


def test_revoke_ends_the_app_for_good(
    owner_api: Client, owner: User, make_token: TokenFactory
) -> None:
    token = make_token(owner, name="claude")
    app = token_app(token)
    claude = Client(headers={"Authorization": f"Bearer {token}"})
    assert claude.get("/api/v1/memories").status_code == 200
    response = owner_api.post(f"{API}/{app.pk}/revoke")
    assert response.status_code == 200
    assert response.json()["revoked_at"] is not None
    assert owner_api.post(f"{API}/{app.pk}/resume").status_code == 409
    assert app.pk not in {a["id"] for a in owner_api.get(API).json()}
    assert claude.get("/api/v1/memories").status_code == 401  # its token died with it


def test_another_users_app_is_404_and_untouched(
    owner_api: Client, stranger: User, make_token: TokenFactory
) -> None:
    app = token_app(make_token(stranger, name="theirs"))
    for action in ("pause", "resume", "revoke"):
        response = owner_api.post(f"{API}/{app.pk}/{action}")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
    app.refresh_from_db()
    assert not app.paused and app.revoked_at is None


def test_built_in_apps_cannot_be_paused_or_revoked(owner_api: Client, owner: User) -> None:
    dashboard = builtin_app(owner, ConnectedApp.DASHBOARD)
    assert owner_api.post(f"{API}/{dashboard.pk}/pause").status_code == 409
    assert owner_api.post(f"{API}/{dashboard.pk}/revoke").status_code == 409


def test_a_connected_app_cannot_manage_apps(owner: User, make_token: TokenFactory) -> None:
    token = make_token(owner, name="claude")
    other = token_app(make_token(owner, name="cursor"))
    client = Client(headers={"Authorization": f"Bearer {token}"})
    listing = client.get(API)
    assert listing.status_code == 403
    assert listing.json()["error"]["code"] == "owner_only"
    assert client.post(f"{API}/{other.pk}/revoke").status_code == 403
    other.refresh_from_db()
    assert other.revoked_at is None
