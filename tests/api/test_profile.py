"""The profile and the owner's pins over REST: `GET /api/v1/memories/profile`,
`POST/DELETE /api/v1/memories/{id}/pin` (the owner's door only)."""

from __future__ import annotations

import pytest
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from kernel.gates import SCOPE_READ
from memories.models import Memory
from memories.services.adding import memory_create
from tests.api.tokens import TokenFactory, bearer
from tests.personas import signed_in

pytestmark = pytest.mark.django_db

API = "/api/v1/memories"


def _add(actor: Actor, text: str, categories: list[str]) -> Memory:
    return memory_create(actor=actor, text=text, categories=categories).memory


def test_the_owner_pins_and_an_apps_profile_opens_with_what_it_may_see(
    owner: User, owner_api: Client, owner_dash: Actor, make_token: TokenFactory
) -> None:
    shared = _add(owner_dash, "Works as a data engineer in Lisbon", ["work"])
    health = _add(owner_dash, "Is allergic to penicillin", ["health"])  # sensitive: not granted
    app = bearer(make_token(owner, scopes=(SCOPE_READ,)))
    before = app.get(f"{API}/profile").json()

    for memory in (shared, health):
        pinned = owner_api.post(f"{API}/{memory.id}/pin")
        assert pinned.status_code == 200, pinned.content
        assert pinned.json()["changed"] is True and pinned.json()["memory"]["pinned_at"]
    again = owner_api.post(f"{API}/{shared.id}/pin")
    assert again.status_code == 200 and again.json()["changed"] is False

    profile = app.get(f"{API}/profile")
    assert profile.status_code == 200
    body = profile.json()
    assert [m["id"] for m in body["pinned"]] == [str(shared.id)]
    assert (body["truncated"], body["omitted"]) == (before["truncated"], before["omitted"])
    said = profile.content.decode()
    assert str(health.id) not in said and "penicillin" not in said
    # The owner's own door sees both pins, newest first; reading it records a read.
    mine = owner_api.get(f"{API}/profile").json()
    assert [m["id"] for m in mine["pinned"]] == [str(health.id), str(shared.id)]
    event = AccessEvent.objects.filter(owner=owner, detail={"profile": True}).latest("id")
    assert set(event.memory_ids) == {shared.id, health.id}

    unpinned = owner_api.delete(f"{API}/{shared.id}/pin")
    assert unpinned.status_code == 200 and unpinned.json()["memory"]["pinned_at"] is None
    assert app.get(f"{API}/profile").json()["pinned"] == []


def test_an_app_cannot_pin_or_unpin_and_learns_nothing_by_trying(
    owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    visible = _add(owner_dash, "Works as a data engineer in Lisbon", ["work"])
    hidden = _add(owner_dash, "Is allergic to penicillin", ["health"])
    app = bearer(make_token(owner))
    answers = [
        call(f"{API}/{mid}/pin")
        for call in (app.post, app.delete)
        for mid in (visible.id, hidden.id, "00000000-0000-0000-0000-000000000000")
    ]
    assert {a.status_code for a in answers} == {403}
    assert {a.json()["error"]["code"] for a in answers} == {"owner_only"}
    assert len({a.content for a in answers}) == 1  # the same answer for every id
    assert not Memory.objects.filter(owner=owner, pinned_at__isnull=False).exists()


def test_another_users_memory_cannot_be_pinned(
    owner: User, owner_dash: Actor, stranger: User
) -> None:
    memory = _add(owner_dash, "Works as a data engineer in Lisbon", ["work"])
    refused = signed_in(stranger).post(f"{API}/{memory.id}/pin")
    assert refused.status_code == 404
    assert Memory.objects.get(pk=memory.pk).pinned_at is None


def test_the_profile_over_rest_keeps_within_its_bound(
    owner: User, owner_api: Client, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    settings.PROFILE_MAX_CHARS = 200
    for n in range(6):
        memory = _add(owner_dash, f"Fact number {n} the owner pinned about work and life", [])
        owner_api.post(f"{API}/{memory.id}/pin")
    body = owner_api.get(f"{API}/profile").json()
    assert sum(len(m["text"]) for m in body["pinned"]) <= 200
    assert body["truncated"] is True and body["omitted"] == 6 - len(body["pinned"]) > 0
    assert body["max_chars"] == 200


def test_a_client_without_read_is_refused_the_profile(
    owner: User, make_token: TokenFactory
) -> None:
    refused = bearer(make_token(owner, scopes=("memories:write",))).get(f"{API}/profile")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "insufficient_scope"
