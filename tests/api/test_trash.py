"""The trash through the REST API: a program's delete goes to the owner's trash, and the owner
(the signed-in session) lists, restores and deletes for good under /api/v1/trash; a token, even
one with every scope, gets 403 owner_only there."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from tests.api.tokens import TokenFactory, token_app
from tests.memories.memory_rows import memory_snapshot, memory_with_history

pytestmark = pytest.mark.django_db

API = "/api/v1"


def test_a_programs_delete_goes_to_the_trash_and_the_owner_restores_it_as_it_was(
    owner: User, owner_dash: Actor, owner_api: Client, make_token: TokenFactory
) -> None:
    reader_secret = make_token(owner, name="reader")
    reader = Client(headers={"Authorization": f"Bearer {reader_secret}"})
    deleter = Client(headers={"Authorization": f"Bearer {make_token(owner, name='cleaner')}"})
    hidden = memory_with_history(
        owner_dash, "Climbs at the gym", hide_from=token_app(reader_secret)
    )
    shown = memory_with_history(owner_dash, "Sings in a choir")
    assert reader.get(f"{API}/memories/{shown.id}").status_code == 200
    assert reader.get(f"{API}/memories/{hidden.id}").status_code == 404
    before = memory_snapshot(owner)

    one = deleter.delete(f"{API}/memories/{shown.id}")
    many = deleter.post(
        f"{API}/memories/bulk/delete", {"memory_ids": [str(hidden.id)]}, "application/json"
    )

    # An app is not told which other apps read it (issue 24 item 10).
    assert one.json() == {"id": str(shown.id), "read_by": None, "restorable_days": 30}
    assert many.json()["deleted"][0]["restorable_days"] == 30
    assert reader.get(f"{API}/memories/{shown.id}").status_code == 404
    assert deleter.get(f"{API}/memories", {"state": "all"}).json()["items"] == []
    assert owner_api.get(f"{API}/memories", {"state": "all"}).json()["items"] == []
    trash = owner_api.get(f"{API}/trash").json()
    assert [(d["app_name"], d["count"]) for d in trash] == [("cleaner", 1), ("cleaner", 1)]
    assert {d["memories"][0]["memory"]["id"] for d in trash} == {str(shown.id), str(hidden.id)}
    assert {d["memories"][0]["state_before"] for d in trash} == {"active"}

    restored = owner_api.post(
        f"{API}/trash/restore", {"memory_ids": [str(shown.id)]}, "application/json"
    )
    assert restored.json() == {"restored": [str(shown.id)], "refused": []}
    whole = owner_api.post(f"{API}/trash/restore", {"batch": trash[0]["id"]}, "application/json")
    assert whole.status_code == 200 and whole.json()["refused"] == []

    assert memory_snapshot(owner) == before  # text, versions, categories, hiding: as they were
    assert reader.get(f"{API}/memories/{shown.id}").json()["text"] == "Sings in a choir"
    assert reader.get(f"{API}/memories/{hidden.id}").status_code == 404  # still hidden from it
    assert owner_api.get(f"{API}/trash").json() == []


def test_the_trash_is_the_owners_alone(
    owner: User,
    owner_dash: Actor,
    owner_api: Client,
    stranger: User,
    make_token: TokenFactory,
) -> None:
    memory = memory_with_history(owner_dash, "Owner's plan")
    program = Client(headers={"Authorization": f"Bearer {make_token(owner)}"})
    assert program.delete(f"{API}/memories/{memory.id}").status_code == 200
    ids = {"memory_ids": [str(memory.id)]}
    for method, path, body in (
        ("get", "/trash", None),
        ("post", "/trash/restore", ids),
        ("post", "/trash/delete", {"everything": True}),
    ):
        answer = getattr(program, method)(f"{API}{path}", body, "application/json")
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "owner_only", path
    theirs = Client()
    theirs.force_login(stranger)
    assert theirs.get(f"{API}/trash").json() == []
    for path in ("/trash/restore", "/trash/delete"):
        answer = theirs.post(f"{API}{path}", ids, "application/json")
        assert answer.status_code == 404, path
    assert Memory.objects.get(pk=memory.id).state == "trashed"
    bad = owner_api.post(f"{API}/trash/restore", {}, "application/json")
    assert bad.status_code == 400


def test_the_owner_deletes_from_the_trash_for_good(
    owner: User, owner_dash: Actor, owner_api: Client
) -> None:
    memory = memory_with_history(owner_dash, "Short-lived")
    owner_api.delete(f"{API}/memories/{memory.id}")
    gone = owner_api.post(
        f"{API}/trash/delete", {"memory_ids": [str(memory.id)]}, "application/json"
    )
    assert gone.json() == {"deleted": 1}
    assert not Memory.objects.filter(pk=memory.id).exists()
    again = owner_api.post(
        f"{API}/trash/restore", {"memory_ids": [str(memory.id)]}, "application/json"
    )
    assert again.status_code == 404
