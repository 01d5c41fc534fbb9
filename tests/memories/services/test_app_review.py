"""Write review per app: with the owner's review on, an app's adds, updates and deletes wait in
Review as proposals (nothing in the store changes) until the owner accepts them, as the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.actors import Actor, actor_for, owner_actor, stdio_app
from accounts.models import ALL_SCOPES, ConnectedApp, User
from accounts.services import app_set_review
from activity.models import AccessEvent
from kernel.errors import Conflict, OwnerOnly
from memories.models import Memory, MemoryProposal, MemoryState
from memories.selectors import memories as memory_reads
from memories.selectors.pending import pending_writes
from memories.selectors.proposals import proposal_list
from memories.services import adding, app_review, changing, deleting, marks
from memories.services.import_runs import import_prepare
from memories.services.proposals import proposal_accept, proposal_decline

pytestmark = pytest.mark.django_db


def reviewed_app(owner: User, name: str = "Cursor") -> Actor:
    """An app with every scope whose changes the owner turned on review for."""
    app = stdio_app(owner, name, scopes=ALL_SCOPES)
    app_set_review(actor=owner_actor(owner), app_id=app.pk, review=True)
    app.refresh_from_db()
    return actor_for(owner, app)


def proposal_of(owner: User, kind: str) -> MemoryProposal:
    return MemoryProposal.objects.get(owner=owner, kind=kind, status="pending")


def test_review_is_off_for_a_new_app_and_its_writes_are_stored_at_once(owner: User) -> None:
    app = actor_for(owner, stdio_app(owner, "Cursor"))
    assert app.app.review_writes is False
    result = adding.memory_create(actor=app, text="Drinks green tea")
    assert result.pending is None and Memory.objects.filter(owner=owner).count() == 1


def test_an_add_waits_in_review_and_stores_nothing_until_accepted(
    owner: User, owner_dash: Actor
) -> None:
    app = reviewed_app(owner)
    result = adding.memory_create(actor=app, text="Drinks green tea", categories=["food"])
    assert result.pending is not None and result.pending.kind == "add"
    assert not Memory.objects.filter(owner=owner).exists()
    event = AccessEvent.objects.get(owner=owner, action=AccessEvent.Action.PROPOSE)
    assert event.app_id == app.app.pk
    [waiting] = proposal_list(actor=owner_dash)
    assert waiting.app_id == app.app.pk and waiting.proposed_text == "Drinks green tea"
    proposal_accept(actor=owner_dash, proposal_id=waiting.pk)
    memory = Memory.objects.get(owner=owner)
    assert memory.text == "Drinks green tea" and "food" in memory.categories
    assert memory.origin_app_id == app.app.pk and memory.origin_app_name == "Cursor"
    assert AccessEvent.objects.filter(owner=owner, action="accept").exists()
    assert AccessEvent.objects.filter(owner=owner, action="add", app=app.app).exists()


def test_the_same_pending_add_is_not_proposed_twice(owner: User) -> None:
    app = reviewed_app(owner)
    adding.memory_create(actor=app, text="Drinks green tea")
    adding.memory_create(actor=app, text="Drinks green tea")
    assert MemoryProposal.objects.filter(owner=owner, kind="add").count() == 1


def test_an_update_waits_and_accepting_applies_it_as_the_app(
    owner: User, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Lives in Berlin").memory
    app = reviewed_app(owner)
    changed = changing.memory_change(actor=app, memory_id=memory.id, text="Lives in Lisbon")
    assert changed.pending is not None and changed.note == app_review.PENDING_NOTE
    memory.refresh_from_db()
    assert memory.text == "Lives in Berlin"
    proposal_accept(actor=owner_dash, proposal_id=proposal_of(owner, "update").pk)
    memory.refresh_from_db()
    assert memory.text == "Lives in Lisbon" and memory.changed_by_name == "Cursor"


def test_a_pending_delete_does_not_hide_the_memory_until_accepted(
    owner: User, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Plays chess").memory
    app = reviewed_app(owner)
    other = actor_for(owner, stdio_app(owner, "Claude Desktop"))
    deleted = deleting.memory_delete(actor=app, memory_id=memory.id)
    assert deleted.pending is not None and deleted.trash_batch is None
    for reader in (app, other, owner_dash):
        assert memory_reads.memory_get(actor=reader, memory_id=memory.id, record=False).text
    proposal_accept(actor=owner_dash, proposal_id=proposal_of(owner, "delete").pk)
    memory.refresh_from_db()
    assert memory.state == MemoryState.TRASHED  # the owner can still restore it


def test_declining_changes_nothing_and_is_recorded(owner: User, owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Plays chess").memory
    app = reviewed_app(owner)
    deleting.memory_delete(actor=app, memory_id=memory.id)
    proposal_decline(actor=owner_dash, proposal_id=proposal_of(owner, "delete").pk)
    memory.refresh_from_db()
    assert memory.state == MemoryState.ACTIVE
    assert AccessEvent.objects.filter(owner=owner, action="decline").exists()
    assert proposal_list(actor=owner_dash) == []


def test_the_owners_own_writes_never_go_to_review(owner: User, owner_dash: Actor) -> None:
    reviewed_app(owner)
    memory = adding.memory_create(actor=owner_dash, text="Plays chess").memory
    changing.memory_change(actor=owner_dash, memory_id=memory.id, text="Plays chess online")
    deleting.memory_delete(actor=owner_dash, memory_id=memory.id)
    assert not MemoryProposal.objects.filter(owner=owner).exists()
    with pytest.raises(Conflict):
        app_set_review(
            actor=owner_dash, app_id=owner_dash.app.pk, review=True
        )  # a built-in door cannot be held


def test_bulk_entry_points_cannot_bypass_review(owner: User, owner_dash: Actor) -> None:
    ids = [
        adding.memory_create(actor=owner_dash, text=t, categories=["hobbies"]).memory.id
        for t in ("Plays chess", "Collects stamps")
    ]
    app = reviewed_app(owner)
    items = [adding.NewMemory(text=t) for t in ("Likes jazz", "Likes blues")]
    assert all(r.pending for r in adding.memory_create_many(actor=app, items=items))
    assert changing.memory_set_state(actor=app, memory_ids=ids, state="archived") == 0
    assert all(r.pending for r in deleting.memory_delete_many(actor=app, memory_ids=ids))
    assert deleting.memory_delete_all(actor=app) == 2  # two delete proposals more
    assert Memory.objects.filter(owner=owner, state=MemoryState.ACTIVE).count() == 2
    assert Memory.objects.filter(owner=owner).count() == 2
    kinds = list(MemoryProposal.objects.filter(owner=owner).values_list("kind", flat=True))
    assert sorted(kinds) == ["add"] * 2 + ["delete"] * 4 + ["update"] * 2


def test_an_app_cannot_reach_the_import_entry_point_at_all(owner: User, tmp_path: Path) -> None:
    app = reviewed_app(owner)
    upload = tmp_path / "export.json"
    upload.write_text("[]")
    with pytest.raises(OwnerOnly):
        import_prepare(actor=app, path=upload, filename="export.json", source="auto")


def test_the_app_reads_back_its_own_pending_writes_and_not_another_apps(
    owner: User, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Lives in Berlin").memory
    app = reviewed_app(owner)
    other = reviewed_app(owner, "Claude Desktop")
    adding.memory_create(actor=app, text="Drinks green tea")
    changing.memory_change(actor=app, memory_id=memory.id, text="Lives in Lisbon")
    adding.memory_create(actor=other, text="Owns a cat")
    mine = pending_writes(app)
    assert [(p.kind, p.text) for p in mine] == [
        ("add", "Drinks green tea"),
        ("update", "Lives in Lisbon"),
    ]
    assert all(p.id.startswith("pending-") for p in mine)
    assert [p.text for p in pending_writes(other)] == ["Owns a cat"]
    assert pending_writes(owner_dash) == []


def test_a_pending_change_of_a_memory_hidden_since_says_nothing_about_it(
    owner: User, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Lives in Berlin").memory
    app = reviewed_app(owner)
    changing.memory_change(actor=app, memory_id=memory.id, text="Lives in Lisbon")
    deleting.memory_delete(actor=app, memory_id=memory.id)
    marks.memory_set_visibility(actor=owner_dash, memory_id=memory.id, hide_from_app=app.app.pk)
    assert pending_writes(app) == []
    assert memory_reads.memory_search(actor=app, query="Lisbon").pending == []
    # The owner still sees it, and accepting it as the app is refused in words, not applied.
    waiting = proposal_list(actor=owner_dash)
    assert len(waiting) == 2
    with pytest.raises(Conflict):
        proposal_accept(actor=owner_dash, proposal_id=proposal_of(owner, "update").pk)
    memory.refresh_from_db()
    assert memory.text == "Lives in Berlin"


def test_turning_review_on_and_off_is_recorded_and_owner_only(owner: User) -> None:
    app = reviewed_app(owner)
    assert AccessEvent.objects.filter(
        owner=owner, detail__review_writes={"from": False, "to": True}
    ).exists()
    with pytest.raises(OwnerOnly):
        app_set_review(actor=app, app_id=app.app.pk, review=False)
    app_set_review(actor=owner_actor(owner), app_id=app.app.pk, review=False)
    assert ConnectedApp.objects.get(pk=app.app.pk).review_writes is False


def test_the_access_log_says_what_waits_and_what_the_owner_decided(
    owner: User, owner_dash: Actor
) -> None:
    from web.presentation import change_summary

    app = reviewed_app(owner)
    adding.memory_create(actor=app, text="Drinks green tea")
    adding.memory_create(actor=app, text="Owns a cat")
    first, second = MemoryProposal.objects.filter(owner=owner).order_by("pk")
    proposal_accept(actor=owner_dash, proposal_id=first.pk)
    proposal_decline(actor=owner_dash, proposal_id=second.pk)
    said = [
        change_summary(e)
        for e in AccessEvent.objects.filter(
            owner=owner, action__in=["propose", "accept", "decline"]
        ).order_by("pk")
    ]
    assert said == [
        "add waits for your review",
        "add waits for your review",
        "accepted Cursor's add",
        "declined Cursor's add",
    ]
    review_on = AccessEvent.objects.filter(owner=owner, detail__has_key="review_writes").get()
    assert change_summary(review_on) == "reviewing Cursor's changes"


def test_with_an_llm_the_apps_new_and_changed_facts_wait_too(
    owner: User, owner_dash: Actor, fake_provider: Any
) -> None:
    from memories.services import remember

    berlin = adding.memory_create(actor=owner_dash, text="Lives in Berlin").memory
    app = reviewed_app(owner)
    fake_provider.facts = {"Lisbon": ["Lives in Lisbon", "Has a dog named Rex"]}
    fake_provider.supersede = [("Lisbon", "Berlin", "Moved.")]
    result = remember.memory_remember(
        actor=app, text="I moved from Berlin to Lisbon with my dog Rex"
    )
    assert result.actions == ["held", "held"] and app_review.PENDING_NOTE in result.note
    assert list(Memory.objects.filter(owner=owner).values_list("text", flat=True)) == [
        "Lives in Berlin"
    ]
    waiting = {(p.kind, p.memory_id, p.proposed_text) for p in proposal_list(actor=owner_dash)}
    assert waiting == {
        ("update", berlin.id, "Lives in Lisbon"),
        ("add", None, "Has a dog named Rex"),
    }
