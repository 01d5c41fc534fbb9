"""The owner outranks every app, over REST with real client tokens: an app cannot strip the
owner's labels or a sensitive one (issue 23, measured 2), a PATCH is one change or none (issue 24,
item 7), an app is told where its change left a memory (issue 23, measured 5), and a delete names
no other app to an app (issue 24, item 10)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from kernel.gates import SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE
from memories.models import Memory, MemoryVersion
from memories.services.adding import memory_create
from tests.api.tokens import TokenFactory, token_app

pytestmark = pytest.mark.django_db

API = "/api/v1/memories"
JSON = "application/json"
HEALTH = "Alice was treated for depression in 2023"  # the classifier files it under health


def _bearer(secret: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {secret}"})


def _refusal(response) -> dict:  # type: ignore[no-untyped-def]
    assert response.status_code == 403, response.content
    return response.json()["error"]


def test_an_app_cannot_strip_the_owners_sensitive_label_so_no_other_app_reads_it(
    owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    """Measured: PATCH {"categories": ["hobbies"]} by a write token granted every category
    overwrote the owner's health label, and a default-grant app then read the text (404 → 200)."""
    memory = memory_create(actor=owner_dash, text=HEALTH, categories=["health"]).memory
    writer = _bearer(make_token(owner, scopes=(SCOPE_READ, SCOPE_WRITE), categories=["all"]))
    reader = _bearer(make_token(owner, scopes=(SCOPE_READ,), name="reader"))
    assert reader.get(f"{API}/{memory.id}").status_code == 404

    refused = writer.patch(f"{API}/{memory.id}", {"categories": ["hobbies"]}, JSON)
    error = _refusal(refused)
    assert error["code"] == "owners_choice"
    assert error["message"] == (
        "Refused: the owner chose this memory's categories, so an app may add categories to it "
        "but not remove Health."
    )
    memory.refresh_from_db()
    assert (memory.categories, memory.categories_set_by_user) == (["health"], True)
    assert reader.get(f"{API}/{memory.id}").status_code == 404

    # Adding a category it was granted is allowed; the owner's label and mark stay.
    added = writer.patch(f"{API}/{memory.id}", {"categories": ["health", "hobbies"]}, JSON)
    assert added.status_code == 200, added.content
    assert added.json()["categories"] == ["health", "hobbies"]
    memory.refresh_from_db()
    assert memory.categories_set_by_user
    assert reader.get(f"{API}/{memory.id}").status_code == 404


def test_an_app_may_recategorise_only_what_it_wrote_and_never_out_of_a_sensitive_category(
    owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    secret = make_token(owner, scopes=(SCOPE_READ, SCOPE_WRITE), categories=["all"])
    writer = _bearer(secret)
    own_health = writer.post(API, {"text": HEALTH}, JSON).json()["memory"]
    own_hobby = writer.post(API, {"text": "Enjoys hiking in the Alps on weekends"}, JSON).json()
    theirs = memory_create(actor=owner_dash, text="Works as a data engineer at Acme").memory
    assert own_health["categories"] == ["health"]
    assert theirs.categories == ["work"] and not theirs.categories_set_by_user

    sensitive = writer.patch(f"{API}/{own_health['id']}", {"categories": ["hobbies"]}, JSON)
    assert _refusal(sensitive)["message"] == (
        "Refused: Health is a sensitive category, which only the owner may remove from a memory."
    )
    not_its_own = writer.patch(f"{API}/{theirs.id}", {"categories": ["hobbies"]}, JSON)
    assert _refusal(not_its_own)["message"] == (
        "Refused: this app did not write this memory, so it may add categories to it but not "
        "remove Work."
    )
    moved = writer.patch(f"{API}/{own_hobby['memory']['id']}", {"categories": ["travel"]}, JSON)
    assert moved.status_code == 200 and moved.json()["categories"] == ["travel"]
    assert Memory.objects.get(pk=own_health["id"]).categories == ["health"]
    assert Memory.objects.get(pk=theirs.id).categories == ["work"]


def test_an_app_may_add_only_categories_it_was_granted(
    owner: User, make_token: TokenFactory
) -> None:
    writer = _bearer(make_token(owner, scopes=(SCOPE_READ, SCOPE_WRITE)))  # the default grant
    mine = writer.post(API, {"text": "Enjoys hiking in the Alps on weekends"}, JSON).json()
    refused = writer.patch(
        f"{API}/{mine['memory']['id']}", {"categories": ["hobbies", "health"]}, JSON
    )
    assert _refusal(refused)["message"] == (
        "Refused: an app may add only categories it was granted, and this app was not granted "
        "Health."
    )
    assert Memory.objects.get(pk=mine["memory"]["id"]).categories == ["hobbies"]


def test_an_apps_rewrite_keeps_the_sensitive_label_the_text_had(
    owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    """A text edit re-classifies automatic labels; an app's edit may not carry the memory out of
    a sensitive category that way (and a default-grant app still cannot read it)."""
    memory = memory_create(actor=owner_dash, text=HEALTH).memory  # labelled automatically
    assert memory.categories == ["health"] and not memory.categories_set_by_user
    writer = _bearer(make_token(owner, scopes=(SCOPE_READ, SCOPE_WRITE), categories=["all"]))
    reader = _bearer(make_token(owner, scopes=(SCOPE_READ,), name="reader"))
    rewrite = {"text": "Enjoys hiking in the Alps on weekends"}
    response = writer.patch(f"{API}/{memory.id}", rewrite, JSON)
    assert response.status_code == 200, response.content
    assert response.json()["categories"] == ["hobbies", "health"]
    assert reader.get(f"{API}/{memory.id}").status_code == 404
    # The owner's own edit is the owner's choice: the labels follow the new text.
    owner_client = Client()
    owner_client.force_login(owner)
    again = {"text": "Enjoys hiking in the Dolomites on weekends"}
    assert owner_client.patch(f"{API}/{memory.id}", again, JSON).json()["categories"] == ["hobbies"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"text": "Enjoys hiking in the Alps on weekends", "private": True}, "owner_only"),
        ({"text": "Enjoys hiking in the Alps on weekends", "categories": []}, "owners_choice"),
        (
            {"text": "Enjoys hiking in the Alps on weekends", "categories": ["health", "legal"]},
            "owners_choice",
        ),
    ],
)
def test_a_patch_from_an_app_is_one_change_or_none(
    owner: User,
    owner_dash: Actor,
    make_token: TokenFactory,
    change: dict[str, object],
    code: str,
) -> None:
    """Measured: {"text": …, "private": true} committed the text, then answered 403."""
    memory = memory_create(actor=owner_dash, text=HEALTH, categories=["health"]).memory
    secret = make_token(owner, scopes=(SCOPE_READ, SCOPE_WRITE), categories=["health", "hobbies"])
    events = AccessEvent.objects.filter(owner=owner).count()
    response = _bearer(secret).patch(f"{API}/{memory.id}", change, JSON)
    assert _refusal(response)["code"] == code
    memory.refresh_from_db()
    assert (memory.text, memory.categories, memory.is_private) == (HEALTH, ["health"], False)
    assert not MemoryVersion.objects.filter(memory=memory).exists()
    assert AccessEvent.objects.filter(owner=owner).count() == events
    assert memory.changed_by_name == ""


def test_the_owners_combined_patch_commits_as_one_with_its_events(
    owner_api: Client, owner: User, owner_dash: Actor
) -> None:
    memory = memory_create(actor=owner_dash, text="I like green tea").memory
    change = {"text": "I like oolong tea", "categories": ["food"], "state": "paused"}
    body = owner_api.patch(f"{API}/{memory.id}", {**change, "private": True}, JSON).json()
    assert (body["text"], body["categories"], body["state"]) == (
        "I like oolong tea",
        ["food"],
        "paused",
    )
    assert body["is_private"] and body["note"] == "" and body["changed_by"] == "api"
    actions = AccessEvent.objects.filter(owner=owner, memory_ids__contains=[memory.id])
    assert sorted(actions.values_list("action", flat=True)) == [
        "add",
        "state",
        "state",
        "update",
        "update",
    ]


def test_an_app_is_told_when_its_edit_filed_the_memory_where_it_cannot_read_it(
    owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    """Measured: the update answered "[health]", then the next read was "No memory with that
    id", with nothing said in between."""
    memory = memory_create(actor=owner_dash, text="Collects vintage stamps").memory
    app = _bearer(make_token(owner, scopes=(SCOPE_READ, SCOPE_WRITE)))  # no health
    response = app.patch(f"{API}/{memory.id}", {"text": HEALTH}, JSON)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["categories"] == ["health"]
    assert (
        body["note"]
        == "Now in Health, which this app is not granted, so this app can no longer read it."
    )
    assert app.get(f"{API}/{memory.id}").status_code == 404
    # Its own memory stays readable to it, and it is told why.
    own = app.post(API, {"text": "Plays the guitar in a band"}, JSON).json()["memory"]
    moved = app.patch(f"{API}/{own['id']}", {"text": "Takes insulin for type 1 diabetes"}, JSON)
    assert moved.json()["note"] == (
        "Now in Health, which this app is not granted: this app can read it back because it "
        "wrote it; other apps without Health cannot."
    )
    assert app.get(f"{API}/{own['id']}").status_code == 200
    archived = app.patch(f"{API}/{own['id']}", {"state": "archived"}, JSON).json()
    assert archived["note"] == (
        "This memory is now archived: no app sees it until the owner makes it active again."
    )


def test_an_apps_delete_names_no_other_app_but_the_owners_does(
    owner: User, owner_api: Client, owner_dash: Actor, make_token: TokenFactory
) -> None:
    """Measured: `delete_memory` and the API's delete told an app which other apps had read it."""
    first = memory_create(actor=owner_dash, text="I like green tea").memory
    second = memory_create(actor=owner_dash, text="I like black coffee").memory
    reader = _bearer(make_token(owner, scopes=(SCOPE_READ,), name="Claude Desktop"))
    for memory in (first, second):
        assert reader.get(f"{API}/{memory.id}").status_code == 200
    deleter_secret = make_token(owner, scopes=(SCOPE_READ, SCOPE_WRITE, SCOPE_DELETE))
    deleter = _bearer(deleter_secret)
    response = deleter.delete(f"{API}/{first.id}")
    assert response.status_code == 200
    assert response.json() == {"id": str(first.id), "read_by": None, "restorable_days": 30}
    assert b"Claude Desktop" not in response.content
    bulk = deleter.post(f"{API}/bulk/delete", {"memory_ids": [str(second.id)]}, JSON)
    assert bulk.json() == {
        "deleted": [{"id": str(second.id), "read_by": None, "restorable_days": 30}]
    }
    # The owner still learns it, in the access log and on their own door.
    event = AccessEvent.objects.get(owner=owner, action="delete", memory_ids=[first.id])
    assert event.detail["read_by"] == ["Claude Desktop"]
    assert event.app == token_app(deleter_secret)
    third = memory_create(actor=owner_dash, text="I like rooibos").memory
    assert reader.get(f"{API}/{third.id}").status_code == 200
    assert owner_api.delete(f"{API}/{third.id}").json()["read_by"] == ["Claude Desktop"]
