"""The reads behind the dashboard: owner-scoped, and right about what they count."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from accounts.actors import Actor
from accounts.models import User
from activity.selectors import ActivityFilters, activity_apps, activity_daily, activity_events
from kernel.errors import NotFound, OwnerOnly
from memories.selectors import memories as memory_reads
from memories.selectors import stats as stats_selectors
from memories.selectors.imports import import_run_get, import_run_list
from memories.selectors.proposals import proposal_list
from memories.services import adding, changing, marks
from memories.services.export import export_build

pytestmark = pytest.mark.django_db


def test_related_memories_are_the_owners_nearest_neighbours_only(
    owner_dash: Actor, stranger_dash: Actor
) -> None:
    seat = adding.memory_create(actor=owner_dash, text="Prefers window seats on planes").memory
    adding.memory_create(actor=owner_dash, text="Likes aisle seats on long flights")
    adding.memory_create(actor=owner_dash, text="Has a cat called Miso")
    adding.memory_create(actor=stranger_dash, text="Prefers window seats on flights too")
    related = memory_reads.memory_related(actor=owner_dash, memory_id=seat.id, limit=5)
    texts = [hit.memory.text for hit in related]
    assert texts[0] == "Likes aisle seats on long flights"
    assert "Prefers window seats on flights too" not in texts and seat.text not in texts
    assert "Has a cat called Miso" not in texts  # nearest of the rest, and still unrelated
    with pytest.raises(NotFound):
        memory_reads.memory_related(actor=stranger_dash, memory_id=seat.id)


def test_readers_and_trail_name_the_apps_and_hide_others_memories(
    app_actor: Callable[[User, str], Actor], owner: User, owner_dash: Actor, stranger_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Read by two apps").memory
    for name in ["Cursor", "Claude"]:
        memory_reads.memory_get(actor=app_actor(owner, name), memory_id=memory.id)
    assert memory_reads.memory_readers(actor=owner_dash, memory_ids=[memory.id]) == [
        "Claude",
        "Cursor",
    ]
    trail = memory_reads.memory_access_trail(actor=owner_dash, memory_id=memory.id)
    assert [(e.app_name, e.action) for e in trail] == [
        ("Claude", "read"),
        ("Cursor", "read"),
        ("dashboard", "add"),
    ]
    with pytest.raises(NotFound):
        memory_reads.memory_readers(actor=stranger_dash, memory_ids=[memory.id])
    with pytest.raises(NotFound):
        memory_reads.memory_access_trail(actor=stranger_dash, memory_id=memory.id)
    with pytest.raises(NotFound):
        memory_reads.memory_readers(actor=owner_dash, memory_ids=[uuid.uuid4()])


def test_map_counts_each_category_and_uncategorised_per_app(
    app_actor: Callable[[User, str], Actor],
    owner: User,
    owner_dash: Actor,
    stranger_dash: Actor,
    settings: Any,
) -> None:
    settings.AUTO_CATEGORIZE = False  # "No category" must stay uncategorised here
    cursor = app_actor(owner, "Cursor")
    adding.memory_create(actor=cursor, text="Uses Rust", categories=["technology"])
    adding.memory_create(actor=cursor, text="Uses Vim at work", categories=["technology", "work"])
    adding.memory_create(actor=owner_dash, text="No category")
    archived = adding.memory_create(actor=owner_dash, text="Old", categories=["work"]).memory
    changing.memory_set_state(actor=owner_dash, memory_ids=[archived.id], state="archived")
    adding.memory_create(actor=stranger_dash, text="Not mine", categories=["technology"])
    data = stats_selectors.memory_map(actor=owner_dash)
    assert data.cells == {("technology", "Cursor"): 2, ("work", "Cursor"): 1, ("", "dashboard"): 1}
    assert data.categories[0] == ("technology", 2)
    # Columns count memories (the header's figure), not category memberships.
    assert dict(data.apps) == {"Cursor": 2, "dashboard": 1} and data.total == 3


def test_activity_counts_reads_and_writes_per_app_per_day(
    app_actor: Callable[[User, str], Actor], owner: User, owner_dash: Actor, stranger_dash: Actor
) -> None:
    claude = app_actor(owner, "Claude")
    memory = adding.memory_create(actor=claude, text="Claude wrote this").memory
    memory_reads.memory_get(actor=claude, memory_id=memory.id)
    memory_reads.memory_search(actor=claude, query="wrote")
    adding.memory_create(actor=stranger_dash, text="Stranger activity")
    daily = activity_daily(actor=owner_dash, days=7)
    assert [(d.app_name, d.reads, d.writes) for d in daily] == [("Claude", 2, 1)]
    page = activity_events(actor=owner_dash, filters=ActivityFilters(action="search"))
    assert [e.action for e in page.items] == ["search"]
    recent = stats_selectors.app_recent_reads(actor=owner_dash)
    assert [(r.app_name, [m.text for m in r.memories]) for r in recent] == [
        ("Claude", ["Claude wrote this"])
    ]
    assert activity_apps(actor=stranger_dash) == ["dashboard"]


def test_an_export_counts_as_a_read_on_the_activity_page_as_in_the_erasure_receipt(
    owner_dash: Actor,
) -> None:
    adding.memory_create(actor=owner_dash, text="Exported with everything else")
    export_build(actor=owner_dash)
    daily = activity_daily(actor=owner_dash, days=7)
    assert [(d.app_name, d.reads, d.writes) for d in daily] == [("dashboard", 1, 1)]


def test_store_wide_reads_are_for_the_owner_apps_only(
    app_actor: Callable[[User, str], Actor], owner: User
) -> None:
    app = app_actor(owner, "Cursor")
    for read in (stats_selectors.memory_stats, stats_selectors.memory_map, activity_apps):
        with pytest.raises(OwnerOnly):
            read(actor=app)


def test_an_app_asking_for_proposals_or_import_runs_is_refused_not_given_an_empty_list(
    app_actor: Callable[[User, str], Actor], owner: User
) -> None:
    app = app_actor(owner, "Cursor")
    for listing in (proposal_list, import_run_list):
        with pytest.raises(OwnerOnly):
            listing(actor=app)
    with pytest.raises(OwnerOnly):  # the same answer whatever the id
        import_run_get(actor=app, run_id=uuid.uuid4())


def test_a_grants_hidden_memories_are_counted_once_each_and_add_up(
    owner: User, owner_dash: Actor
) -> None:
    """Issue 39: "Hidden: 1 in health; 1 private" counted one memory twice."""
    from accounts.actors import actor_for, stdio_app
    from memories.models import Memory
    from memories.selectors.grants import grant_preview

    app = stdio_app(owner, "claude-desktop")
    private = _add(owner_dash, "Takes insulin twice a day", ["health"])
    marks.memory_set_visibility(actor=owner_dash, memory_id=private.id, private=True)
    hid = _add(owner_dash, "Sees a therapist on Fridays", ["health"])
    marks.memory_set_visibility(actor=owner_dash, memory_id=hid.id, hide_from_app=app.pk)
    _add(owner_dash, "Blood pressure is fine", ["health"])
    kept = _add(owner_dash, "Keeps a diary", ["hobbies"])
    Memory.objects.filter(owner=owner, pk=kept.id).update(seen_only_by=[])
    adding.memory_create(
        actor=actor_for(owner, app), text="Asked about a cardiologist", categories=["health"]
    )  # written by the app: visible to it, not hidden
    _add(owner_dash, "Likes tea", ["food"])

    preview = grant_preview(owner, app)
    assert (preview.visible, preview.total) == (2, 6)
    assert preview.hidden_parts == [
        "1 in health",
        "1 you hid from it",
        "1 kept from new apps",
        "1 private",
    ]
    hidden = preview.in_hidden_categories + preview.uncategorised_hidden
    hidden += preview.hidden_from_it + preview.kept_from_it + preview.private
    assert hidden == preview.total - preview.visible


def _add(actor: Actor, text: str, categories: list[str]) -> Any:
    return adding.memory_create(actor=actor, text=text, categories=categories).memory
