"""Write review per app over REST: the owner turns it on for an app (POST /apps/{id}/review);
the app's writes answer 202 with the proposal and change nothing; the owner lists them under
/proposals and accepts or declines each; the app lists its own pending writes."""

from __future__ import annotations

from django.test import Client

from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory, MemoryProposal, MemoryState
from tests.api.tokens import TokenFactory, token_app

API = "/api/v1"


def _reviewed(owner_api: Client, owner: User, make_token: TokenFactory) -> Client:
    secret = make_token(owner, name="claude")
    app = token_app(secret)
    turned = owner_api.post(
        f"{API}/apps/{app.pk}/review", {"review": True}, content_type="application/json"
    )
    assert turned.status_code == 200 and turned.json()["review_writes"] is True
    return Client(headers={"Authorization": f"Bearer {secret}"})


def test_review_is_off_by_default_and_only_the_owner_turns_it_on(
    owner_api: Client, owner: User, make_token: TokenFactory
) -> None:
    secret = make_token(owner, name="claude")
    app = token_app(secret)
    assert app.review_writes is False
    client = Client(headers={"Authorization": f"Bearer {secret}"})
    refused = client.post(
        f"{API}/apps/{app.pk}/review", {"review": False}, content_type="application/json"
    )
    assert refused.status_code == 403
    stored = client.post(f"{API}/memories", {"text": "Likes jazz"}, content_type="application/json")
    assert stored.status_code == 201


def test_an_apps_add_is_202_with_the_proposal_and_the_owner_accepts_it(
    owner_api: Client, owner: User, make_token: TokenFactory
) -> None:
    app_client = _reviewed(owner_api, owner, make_token)
    held = app_client.post(
        f"{API}/memories", {"text": "Drinks green tea"}, content_type="application/json"
    )
    assert held.status_code == 202
    [pending] = held.json()["pending"]
    assert pending["kind"] == "add" and pending["text"] == "Drinks green tea"
    assert "Review" in held.json()["note"]
    assert not Memory.objects.filter(owner=owner).exists()

    page = app_client.get(f"{API}/memories").json()
    assert page["items"] == [] and page["pending"][0]["id"] == pending["id"]

    [proposal] = owner_api.get(f"{API}/proposals").json()
    assert proposal["kind"] == "add" and proposal["proposed_by"] == "claude"
    assert app_client.get(f"{API}/proposals").status_code == 403  # the owner's queue only
    accepted = owner_api.post(f"{API}/proposals/{proposal['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    memory = Memory.objects.get(owner=owner)
    assert memory.text == "Drinks green tea" and memory.origin_app_name == "claude"
    assert owner_api.post(f"{API}/proposals/{proposal['id']}/accept").status_code == 404
    assert AccessEvent.objects.filter(owner=owner, action="accept").count() == 1


def test_an_apps_change_and_deletes_are_202_and_change_nothing_until_accepted(
    owner_api: Client, owner: User, make_token: TokenFactory
) -> None:
    ids = [
        owner_api.post(
            f"{API}/memories",
            {"text": t, "categories": ["hobbies"]},
            content_type="application/json",
        ).json()["memory"]["id"]
        for t in ("Plays chess", "Collects stamps")
    ]
    app_client = _reviewed(owner_api, owner, make_token)
    patched = app_client.patch(
        f"{API}/memories/{ids[0]}", {"text": "Plays chess online"}, content_type="application/json"
    )
    assert patched.status_code == 202 and patched.json()["pending"][0]["kind"] == "update"
    deleted = app_client.delete(f"{API}/memories/{ids[1]}")
    assert deleted.status_code == 202
    bulk = app_client.post(
        f"{API}/memories/bulk/delete", {"memory_ids": ids}, content_type="application/json"
    )
    assert bulk.status_code == 202 and len(bulk.json()["pending"]) == 2
    state = app_client.post(
        f"{API}/memories/bulk/state",
        {"memory_ids": ids, "state": "archived"},
        content_type="application/json",
    )
    assert state.status_code == 202
    assert sorted(Memory.objects.filter(owner=owner).values_list("text", "state")) == [
        ("Collects stamps", MemoryState.ACTIVE),
        ("Plays chess", MemoryState.ACTIVE),
    ]
    # The pending delete hides nothing: the app and the owner still read the memory, and the
    # app sees its own changes waiting, by id and in search, as over MCP.
    got = app_client.get(f"{API}/memories/{ids[1]}")
    assert got.status_code == 200 and got.json()["text"] == "Collects stamps"
    assert {p["kind"] for p in got.json()["pending"]} == {"delete", "update"}
    assert all(p["memory_id"] == ids[1] for p in got.json()["pending"])
    found = app_client.get(f"{API}/memories/search", {"q": "chess", "min_score": "0"}).json()
    assert ids[0] in [r["memory"]["id"] for r in found["results"]]
    assert "Plays chess online" in [p["text"] for p in found["pending"]]
    assert owner_api.get(f"{API}/memories/{ids[1]}").json()["pending"] == []

    update = MemoryProposal.objects.get(owner=owner, kind="update", proposed_text__gt="")
    assert owner_api.post(f"{API}/proposals/{update.pk}/accept").status_code == 200
    one_delete = MemoryProposal.objects.filter(owner=owner, kind="delete", memory_id=ids[1])[0]
    assert owner_api.post(f"{API}/proposals/{one_delete.pk}/accept").status_code == 200
    decline = MemoryProposal.objects.filter(owner=owner, kind="update", proposed_state="archived")
    for p in decline:
        assert owner_api.post(f"{API}/proposals/{p.pk}/decline").status_code == 200
    chess = Memory.objects.get(pk=ids[0])
    assert chess.text == "Plays chess online" and chess.changed_by_name == "claude"
    assert chess.state == MemoryState.ACTIVE
    assert Memory.objects.get(pk=ids[1]).state == MemoryState.TRASHED


def test_the_owners_own_api_writes_never_wait(
    owner_api: Client, owner: User, make_token: TokenFactory
) -> None:
    _reviewed(owner_api, owner, make_token)
    made = owner_api.post(
        f"{API}/memories", {"text": "Likes jazz"}, content_type="application/json"
    )
    assert made.status_code == 201
    mid = made.json()["memory"]["id"]
    assert owner_api.delete(f"{API}/memories/{mid}").status_code == 200
    assert not MemoryProposal.objects.filter(owner=owner).exists()
