"""The profile an assistant loads first (memories/selectors/profile.py) and the owner's pins,
through the service layer: what an app's profile holds, what it never reveals, its size bound, who
may pin.

The doors have their own tests: tests/api/test_profile.py, tests/mcpbridge/test_profile.py
and tests/e2e/test_profile_browser.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from kernel.errors import OwnerOnly
from memories.models import Memory
from memories.selectors import profile as profile_module
from memories.selectors.memories import memory_get, memory_list, memory_search
from memories.selectors.profile import memory_profile
from memories.services import adding, deleting, marks

pytestmark = pytest.mark.django_db

AppActor = Callable[[User, str], Actor]


def _add(actor: Actor, text: str, categories: list[str] | None = None) -> Memory:
    return adding.memory_create(actor=actor, text=text, categories=categories or ["work"]).memory


def _pin(owner_dash: Actor, *memories: Memory) -> None:
    marks.memory_set_pinned(actor=owner_dash, memory_ids=[m.id for m in memories], pinned=True)


def _texts(actor: Actor) -> list[str]:
    return [m.text for m in memory_profile(actor=actor, record=False).memories]


def test_a_memory_the_owner_pins_opens_the_apps_profile(
    owner: User, owner_dash: Actor, app_actor: AppActor
) -> None:
    cursor = app_actor(owner, "Cursor on laptop")
    first = _add(owner_dash, "Works as a data engineer in Lisbon")
    second = _add(owner_dash, "Prefers short answers with code first")
    _add(owner_dash, "Owns a bicycle")
    assert _texts(cursor) == []  # nothing pinned, nothing read yet

    _pin(owner_dash, first)
    _pin(owner_dash, second)

    profile = memory_profile(actor=cursor)
    assert [m.text for m in profile.pinned] == [second.text, first.text]  # newest pin first
    assert profile.most_read == [] and not profile.truncated
    event = AccessEvent.objects.filter(owner=owner, app=cursor.app).latest("id")
    assert event.action == AccessEvent.Action.LIST and event.detail == {"profile": True}
    assert set(event.memory_ids) == {first.id, second.id}


def test_unpinning_takes_a_memory_out_of_the_profile(
    owner: User, owner_dash: Actor, app_actor: AppActor
) -> None:
    cursor = app_actor(owner, "Cursor on laptop")
    memory = _add(owner_dash, "Works as a data engineer in Lisbon")
    _pin(owner_dash, memory)
    changed = marks.memory_set_pinned(actor=owner_dash, memory_ids=[memory.id], pinned=False)
    assert changed == 1
    assert _texts(cursor) == []
    assert Memory.objects.get(pk=memory.pk).pinned_at is None


def test_a_pinned_memory_the_app_may_not_see_is_absent_and_its_existence_not_revealed(
    owner: User, owner_dash: Actor, app_actor: AppActor
) -> None:
    cursor = app_actor(owner, "Cursor on laptop")
    shared = _add(owner_dash, "Works as a data engineer in Lisbon")
    _pin(owner_dash, shared)
    before = memory_profile(actor=cursor, record=False)

    health = _add(owner_dash, "Is allergic to penicillin", ["health"])  # sensitive, not granted
    private = _add(owner_dash, "Is planning a surprise party for Ana")
    hidden = _add(owner_dash, "Is interviewing with another company")
    trashed = _add(owner_dash, "Used to live in Porto")
    marks.memory_set_visibility(actor=owner_dash, memory_id=private.id, private=True)
    marks.memory_set_visibility(actor=owner_dash, memory_id=hidden.id, hide_from_app=cursor.app.pk)
    _pin(owner_dash, health, private, hidden, trashed)
    deleting.memory_delete(actor=owner_dash, memory_id=trashed.id)
    # Reads that would make them "most read" do not bring them in either.
    for memory in (health, private, hidden):
        memory_get(actor=owner_dash, memory_id=memory.id)

    after = memory_profile(actor=cursor, record=False)
    assert [m.id for m in after.memories] == [m.id for m in before.memories] == [shared.id]
    assert (after.omitted, after.chars) == (before.omitted, before.chars)
    # The owner's own door sees every pin but the trashed one.
    assert {m.id for m in memory_profile(actor=owner_dash, record=False).pinned} == {
        shared.id,
        health.id,
        private.id,
        hidden.id,
    }


def test_the_most_read_memories_follow_the_pinned_ones_without_repeats(
    owner: User, owner_dash: Actor, app_actor: AppActor
) -> None:
    claude = app_actor(owner, "Claude")
    cursor = app_actor(owner, "Cursor on laptop")
    pinned = _add(owner_dash, "Works as a data engineer in Lisbon")
    often = _add(owner_dash, "Writes Python and Rust at work")
    once = _add(owner_dash, "Uses Neovim as their editor")
    _add(owner_dash, "Has never been read by anybody")
    _pin(owner_dash, pinned)
    for _ in range(3):
        memory_get(actor=claude, memory_id=often.id)
    memory_get(actor=claude, memory_id=pinned.id)  # read, but pinned: listed once, as pinned
    memory_get(actor=cursor, memory_id=once.id)
    # Profile reads and listings are not "reads" for the ranking: these change nothing.
    for _ in range(5):
        memory_profile(actor=cursor)
        memory_list(actor=claude)

    profile = memory_profile(actor=cursor, record=False)
    assert [m.id for m in profile.pinned] == [pinned.id]
    assert [m.id for m in profile.most_read] == [often.id, once.id]


def test_a_search_hit_counts_as_a_read(owner: User, owner_dash: Actor, app_actor: AppActor) -> None:
    claude = app_actor(owner, "Claude")
    memory = _add(owner_dash, "Brews coffee with an AeroPress")
    hits = memory_search(actor=claude, query="coffee brewing", limit=3)
    assert [h.memory.id for h in hits] == [memory.id]
    assert [m.id for m in memory_profile(actor=claude, record=False).most_read] == [memory.id]


def test_the_profile_keeps_within_its_size_and_says_what_it_left_out(
    owner: User, owner_dash: Actor, app_actor: AppActor, settings: SettingsWrapper
) -> None:
    settings.PROFILE_MAX_CHARS = 250
    cursor = app_actor(owner, "Cursor on laptop")
    short = [_add(owner_dash, f"Short fact number {n} about the owner") for n in range(4)]
    long = _add(owner_dash, "A long account of the owner's career: " + "details " * 30)
    _pin(owner_dash, *short)
    _pin(owner_dash, long)  # pinned last: first in line, too long for what is left

    profile = memory_profile(actor=cursor)
    assert profile.chars <= 250
    assert long.id not in {m.id for m in profile.memories}
    assert len(profile.memories) == 4 and profile.omitted == 1 and profile.truncated
    assert profile.max_chars == 250


def test_an_app_cannot_pin_or_unpin(owner: User, owner_dash: Actor, app_actor: AppActor) -> None:
    cursor = app_actor(owner, "Cursor on laptop")
    mine = _add(cursor, "Prefers tabs over spaces")
    owners = _add(owner_dash, "Works as a data engineer in Lisbon")
    _pin(owner_dash, owners)
    events = AccessEvent.objects.count()
    for memory, pinned in ((mine, True), (owners, False)):
        with pytest.raises(OwnerOnly):
            marks.memory_set_pinned(actor=cursor, memory_ids=[memory.id], pinned=pinned)
    assert Memory.objects.get(pk=mine.pk).pinned_at is None
    assert Memory.objects.get(pk=owners.pk).pinned_at is not None
    assert AccessEvent.objects.count() == events


def test_pinning_records_one_event_and_leaves_the_memory_unchanged(
    owner: User, owner_dash: Actor
) -> None:
    a = _add(owner_dash, "Works as a data engineer in Lisbon")
    b = _add(owner_dash, "Prefers short answers with code first")
    _pin(owner_dash, a)
    before = Memory.objects.get(pk=b.pk)
    assert marks.memory_set_pinned(actor=owner_dash, memory_ids=[a.id, b.id], pinned=True) == 1
    event = AccessEvent.objects.filter(owner=owner).latest("id")
    assert event.action == AccessEvent.Action.STATE and event.memory_ids == [b.id]
    assert event.detail == {"from": {"pinned": False}, "to": {"pinned": True}}
    after = Memory.objects.get(pk=b.pk)
    assert after.pinned_at is not None
    assert (after.updated_at, after.changed_at, after.text) == (
        before.updated_at,
        before.changed_at,
        before.text,
    )


def test_the_activity_page_says_what_a_pin_and_a_profile_read_were(
    owner: User, owner_client: Client, owner_dash: Actor, app_actor: AppActor
) -> None:
    cursor = app_actor(owner, "Cursor on laptop")
    memory = _add(owner_dash, "Works as a data engineer in Lisbon")
    _pin(owner_dash, memory)
    memory_profile(actor=cursor)
    marks.memory_set_pinned(actor=owner_dash, memory_ids=[memory.id], pinned=False)
    page = owner_client.get("/activity/").content.decode()
    assert "pinned to the profile" in page
    assert "loaded as the profile" in page
    assert "unpinned" in page


def test_only_recent_reads_count_for_the_most_read(
    owner: User,
    owner_dash: Actor,
    app_actor: AppActor,
    settings: SettingsWrapper,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.PROFILE_READ_DAYS = 30
    claude = app_actor(owner, "Claude")
    old = _add(owner_dash, "Used to work at a bank")
    new = _add(owner_dash, "Works as a data engineer in Lisbon")
    newest = _add(owner_dash, "Is learning Portuguese")
    for _ in range(3):
        memory_get(actor=claude, memory_id=old.id)
    AccessEvent.objects.filter(owner=owner, memory_ids=[old.id]).update(
        created_at=timezone.now() - timedelta(days=31)
    )
    memory_get(actor=claude, memory_id=new.id)
    memory_get(actor=claude, memory_id=newest.id)
    assert [m.id for m in memory_profile(actor=claude, record=False).most_read] == [
        newest.id,  # as often as `new`, more recently
        new.id,
    ]
    monkeypatch.setattr(profile_module, "READ_EVENTS", 1)  # only the newest counted event
    assert [m.id for m in memory_profile(actor=claude, record=False).most_read] == [newest.id]
