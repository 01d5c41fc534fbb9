"""The owner's trash, through the service layer: what a delete keeps, what a restore brings
back, who sees it meanwhile (nobody but the owner's Trash page), and the purge after TRASH_DAYS.

The doors (dashboard in Chromium, REST API, MCP over HTTP and stdio, admin) have their own tests
next to each door's others; the import side is in tests/memories/services/test_ingest_import.py."""

from __future__ import annotations

import io
import os
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from contextlayer.tasks import cleanup_oauth
from kernel.env import env_int
from kernel.errors import InvalidInput, NotFound, OwnerOnly
from memories.models import Memory, MemoryTombstone, MemoryVersion, TrashBatch
from memories.search import index as search_index
from memories.selectors.memories import (
    MemoryFilters,
    memory_count,
    memory_get,
    memory_list,
    memory_related,
    memory_search,
    memory_versions,
)
from memories.selectors.stats import memory_categories, memory_map, memory_stats
from memories.selectors.trash import trash_groups, trash_notices
from memories.services import adding, changing, deleting, marks
from memories.services.export import export_build, export_markdown
from memories.services.trash import (
    SAME_TEXT,
    trash_delete_forever,
    trash_notice_seen,
    trash_purge_expired,
    trash_restore,
)
from tests.memories.memory_rows import memory_snapshot

pytestmark = pytest.mark.django_db

AppFactory = Callable[[User, str], Actor]


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    search_index.clear()
    yield
    search_index.clear()


def _trashed(owner: User) -> set[uuid.UUID]:
    return set(Memory.objects.filter(owner=owner, state="trashed").values_list("id", flat=True))


def test_a_restore_brings_back_text_versions_categories_visibility_and_state(
    owner: User, owner_dash: Actor, app_actor: AppFactory
) -> None:
    cursor = app_actor(owner, "Cursor")
    old = adding.memory_create(actor=owner_dash, text="Lives in Berlin").memory
    moved = changing.memory_supersede(
        actor=owner_dash, memory_id=old.id, text="Lives in Lisbon", reason="moved"
    ).memory
    changing.memory_update(actor=owner_dash, memory_id=moved.id, text="Lives in Lisbon, Alfama")
    changing.memory_set_categories(actor=owner_dash, memory_id=moved.id, categories=["home"])
    marks.memory_set_visibility(actor=owner_dash, memory_id=moved.id, hide_from_app=cursor.app.pk)
    quiet = adding.memory_create(actor=owner_dash, text="Sees a therapist on Mondays").memory
    marks.memory_set_visibility(actor=owner_dash, memory_id=quiet.id, private=True)
    changing.memory_set_state(actor=owner_dash, memory_ids=[quiet.id], state="archived")
    everything = [old.id, moved.id, quiet.id]
    before = memory_snapshot(owner)

    results = deleting.memory_delete_many(actor=owner_dash, memory_ids=[moved.id, quiet.id])

    # One delete: both memories and the predecessor that exists only through the first.
    assert _trashed(owner) == set(everything)
    batch = TrashBatch.objects.get(owner=owner)
    assert {r.batch_id for r in results} == {batch.id} and batch.memories_deleted == 2
    assert Memory.objects.get(pk=old.id).trashed_with_id == moved.id
    assert set(MemoryTombstone.objects.filter(owner=owner).values_list("memory_id", flat=True)) == (
        set(everything)
    )
    assert memory_list(actor=owner_dash, filters=MemoryFilters(state=None)).items == []
    [group] = trash_groups(actor=owner_dash)
    assert {m.id for m in group.memories} == {moved.id, quiet.id}  # not the predecessor
    assert group.purge_at == batch.created_at + timedelta(days=30)

    restored = trash_restore(actor=owner_dash, batch_id=batch.id)

    assert sorted(restored.restored) == sorted([moved.id, quiet.id]) and restored.refused == []
    assert memory_snapshot(owner) == before
    assert not MemoryTombstone.objects.filter(owner=owner).exists()
    assert not TrashBatch.objects.filter(owner=owner).exists()
    assert [v.text for v in memory_versions(actor=owner_dash, memory_id=moved.id)] == [
        "Lives in Lisbon",
        "Lives in Berlin",
    ]
    actions = list(
        AccessEvent.objects.filter(owner=owner, action__in=["delete", "restore"])
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["delete", "restore"]


def test_nobody_reads_a_trashed_memory_and_search_finds_it_again_after_a_restore(
    owner: User, owner_dash: Actor, app_actor: AppFactory
) -> None:
    claude = app_actor(owner, "Claude")
    target = adding.memory_create(
        actor=owner_dash, text="Keeps the spare key under the blue flowerpot", categories=["home"]
    ).memory
    adding.memory_create(actor=owner_dash, text="Allergic to penicillin", categories=["home"])
    query = "where is the spare key"
    for actor in (owner_dash, claude):  # the in-memory index is warm for both
        assert memory_search(actor=actor, query=query)[0].memory.id == target.id

    deleted = deleting.memory_delete(actor=claude, memory_id=target.id)

    for actor in (owner_dash, claude):
        assert target.id not in [h.memory.id for h in memory_search(actor=actor, query=query)]
        assert target.id not in [m.id for m in memory_list(actor=actor).items]
        assert memory_count(actor=actor) == 1
        with pytest.raises(NotFound):
            memory_get(actor=actor, memory_id=target.id)
        with pytest.raises(NotFound):  # a second delete answers like a missing id
            deleting.memory_delete(actor=actor, memory_id=target.id)
    other = Memory.objects.get(owner=owner, text="Allergic to penicillin")
    assert memory_related(actor=owner_dash, memory_id=other.id) == []
    assert memory_stats(actor=owner_dash).total == 1
    assert memory_stats(actor=owner_dash).in_trash == 1
    assert memory_map(actor=owner_dash).total == 1
    assert memory_categories(actor=owner_dash) == ["home"]
    assert _export_texts(owner_dash) == {"Allergic to penicillin": None, target.text: "Claude"}

    trash_restore(actor=owner_dash, batch_id=deleted.batch_id)

    for actor in (owner_dash, claude):
        assert memory_search(actor=actor, query=query)[0].memory.id == target.id
        assert memory_get(actor=actor, memory_id=target.id).text == target.text


def _export_texts(owner_dash: Actor) -> dict[str, str | None]:
    """Each exported memory's text and, for one in the trash, who deleted it."""
    document = export_build(actor=owner_dash)
    return {
        m["text"]: (m["trash"] or {}).get("deleted_by")
        for m in document["memories"]
        if not m["superseded_by"]
    }


def test_the_export_includes_the_trash_marked_in_its_state_before(
    owner: User, owner_dash: Actor
) -> None:
    kept = adding.memory_create(actor=owner_dash, text="Plays the cello").memory
    gone = adding.memory_create(actor=owner_dash, text="Collects stamps").memory
    changing.memory_set_state(actor=owner_dash, memory_ids=[gone.id], state="paused")
    deleting.memory_delete(actor=owner_dash, memory_id=gone.id)
    by_id = {m["id"]: m for m in export_build(actor=owner_dash)["memories"]}
    assert by_id[str(kept.id)]["trash"] is None
    assert by_id[str(gone.id)]["state"] == "paused"  # what it comes back as
    assert by_id[str(gone.id)]["trash"]["deleted_by"] == "dashboard"
    markdown = export_markdown(actor=owner_dash)
    trash_part = markdown.split("## In the trash")[1].split("## Connected apps")[0]
    assert "Collects stamps" in trash_part and "Plays the cello" not in trash_part


def test_a_restore_leaves_in_the_trash_a_memory_whose_text_is_active_again(
    owner: User, owner_dash: Actor
) -> None:
    tea = adding.memory_create(actor=owner_dash, text="Prefers tea over coffee").memory
    jazz = adding.memory_create(actor=owner_dash, text="Listens to jazz").memory
    batch = deleting.memory_delete_many(actor=owner_dash, memory_ids=[tea.id, jazz.id])[0].batch_id
    again = adding.memory_create(actor=owner_dash, text="prefers tea over coffee!").memory
    assert again.id != tea.id  # the trash holds no text: a new memory, not a duplicate

    result = trash_restore(actor=owner_dash, batch_id=batch)

    assert result.restored == [jazz.id]
    assert [(r.memory.id, r.reason) for r in result.refused] == [(tea.id, SAME_TEXT)]
    assert _trashed(owner) == {tea.id}
    assert Memory.objects.get(pk=again.id).state == "active"
    # Both in the trash: the older comes back, the other stays.
    deleting.memory_delete(actor=owner_dash, memory_id=again.id)
    both = trash_restore(actor=owner_dash, memory_ids=[again.id, tea.id])
    assert both.restored == [tea.id] and [r.memory.id for r in both.refused] == [again.id]


def test_memories_older_than_trash_days_are_purged_for_real_by_the_hourly_clean_up(
    owner: User, owner_dash: Actor, stranger_dash: Actor, settings: SettingsWrapper
) -> None:
    settings.TRASH_DAYS = 30
    canary = f"canary{uuid.uuid4().hex[:10]}"
    old = adding.memory_create(actor=owner_dash, text=f"{canary} first text").memory
    changing.memory_update(actor=owner_dash, memory_id=old.id, text=f"{canary} second text")
    newer = changing.memory_supersede(
        actor=owner_dash,
        memory_id=old.id,
        text=f"{canary} third text",
        reason="changed",
        respect_user_edits=False,
    ).memory
    recent = adding.memory_create(actor=owner_dash, text="Deleted yesterday").memory
    theirs = adding.memory_create(actor=stranger_dash, text="The stranger's, expired").memory
    expired_batch = deleting.memory_delete(actor=owner_dash, memory_id=newer.id).batch_id
    recent_batch = deleting.memory_delete(actor=owner_dash, memory_id=recent.id).batch_id
    theirs_batch = deleting.memory_delete(actor=stranger_dash, memory_id=theirs.id).batch_id
    TrashBatch.objects.filter(pk__in=[expired_batch, theirs_batch]).update(
        created_at=timezone.now() - timedelta(days=30, minutes=1)
    )
    TrashBatch.objects.filter(pk=recent_batch).update(
        created_at=timezone.now() - timedelta(days=29, hours=23)
    )

    out = io.StringIO()
    call_command("cleanup", stdout=out)

    assert "purged 2 memories kept in the trash for 30 days" in out.getvalue()
    assert not Memory.objects.filter(pk__in=[old.id, newer.id, theirs.id]).exists()
    assert not MemoryVersion.objects.filter(memory_id__in=[old.id, newer.id]).exists()
    assert _rows_holding(canary) == []
    assert _trashed(owner) == {recent.id}  # within TRASH_DAYS: still restorable
    assert set(TrashBatch.objects.values_list("pk", flat=True)) == {recent_batch}
    # What remains: content-free tombstones, and the access log saying who purged what.
    assert MemoryTombstone.objects.filter(memory_id__in=[old.id, newer.id]).count() == 2
    purge = AccessEvent.objects.get(owner=owner, action="purge")
    assert purge.memory_ids == [newer.id] and purge.actor == "trash (kept 30 days)"
    assert AccessEvent.objects.filter(owner=theirs.owner, action="purge").count() == 1


def _rows_holding(needle: str) -> list[str]:
    """Every text column of every table that still holds `needle`."""
    found = []
    with connection.cursor() as cur:
        cur.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb')"
        )
        for table, column in cur.fetchall():
            query = f'SELECT count(*) FROM "{table}" WHERE "{column}"::text LIKE %s'  # noqa: S608
            cur.execute(query, [f"%{needle}%"])
            if cur.fetchone()[0]:
                found.append(f"{table}.{column}")
    return found


def test_the_scheduled_clean_up_task_purges_the_trash_and_schedules_itself_again(
    owner: User, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Old news").memory
    batch = deleting.memory_delete(actor=owner_dash, memory_id=memory.id).batch_id
    TrashBatch.objects.filter(pk=batch).update(created_at=timezone.now() - timedelta(days=31))
    result = cleanup_oauth.call()
    assert result["purged_memories"] == 1
    assert not Memory.objects.filter(pk=memory.id).exists()
    from django_tasks_db.models import DBTaskResult

    assert DBTaskResult.objects.filter(task_path=cleanup_oauth.module_path).exists()


def test_the_owner_deletes_for_good_one_a_batch_or_everything(
    owner: User, owner_dash: Actor
) -> None:
    a, b, c, d = (
        adding.memory_create(actor=owner_dash, text=t).memory
        for t in ("Likes figs", "Likes plums", "Likes pears", "Likes limes")
    )
    deleting.memory_delete(actor=owner_dash, memory_id=a.id)
    batch = deleting.memory_delete_many(actor=owner_dash, memory_ids=[b.id, c.id])[0].batch_id
    deleting.memory_delete(actor=owner_dash, memory_id=d.id)
    assert trash_delete_forever(actor=owner_dash, memory_ids=[a.id]) == 1
    assert trash_delete_forever(actor=owner_dash, batch_id=batch) == 2
    with pytest.raises(InvalidInput):
        trash_delete_forever(actor=owner_dash)  # nothing named
    assert trash_delete_forever(actor=owner_dash, everything=True) == 1
    assert not Memory.objects.filter(owner=owner).exists()
    assert not TrashBatch.objects.filter(owner=owner).exists()
    assert AccessEvent.objects.filter(owner=owner, action="purge").count() == 3


def test_an_apps_delete_is_a_notice_until_the_owner_restores_or_dismisses_it(
    owner: User, owner_dash: Actor, app_actor: AppFactory
) -> None:
    claude = app_actor(owner, "Claude Desktop")
    for text in ("Runs on Sundays", "Reads sci-fi", "Bakes sourdough"):
        adding.memory_create(actor=owner_dash, text=text, categories=["hobbies"])
    mine = adding.memory_create(actor=owner_dash, text="Deleted in the dashboard").memory
    deleting.memory_delete(actor=owner_dash, memory_id=mine.id)
    assert trash_notices(actor=owner_dash) == []  # the owner saw "Deleted · Undo" already

    assert deleting.memory_delete_all(actor=claude) == 3

    [notice] = trash_notices(actor=owner_dash)
    assert (notice.app_name, notice.left) == ("Claude Desktop", 3)  # type: ignore[attr-defined]
    one = Memory.objects.get(owner=owner, text="Reads sci-fi")
    trash_restore(actor=owner_dash, memory_ids=[one.id])  # restoring any of it counts as seen
    assert trash_notices(actor=owner_dash) == []
    assert len(_trashed(owner)) == 3  # the rest stays in the trash

    again = deleting.memory_delete(actor=claude, memory_id=one.id).batch_id
    assert [n.id for n in trash_notices(actor=owner_dash)] == [again]
    trash_notice_seen(actor=owner_dash, batch_id=again)
    assert trash_notices(actor=owner_dash) == []
    assert Memory.objects.get(pk=one.id).state == "trashed"


def test_another_user_and_every_app_find_nothing_of_the_owners_trash(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    app_actor: AppFactory,
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Owner's secret plan").memory
    batch = deleting.memory_delete(actor=owner_dash, memory_id=memory.id).batch_id
    attempts: list[Callable[[], object]] = [
        lambda: trash_restore(actor=stranger_dash, memory_ids=[memory.id]),
        lambda: trash_restore(actor=stranger_dash, batch_id=batch),
        lambda: trash_delete_forever(actor=stranger_dash, memory_ids=[memory.id]),
        lambda: trash_restore(actor=owner_dash, memory_ids=[uuid.uuid4()]),
        lambda: trash_restore(actor=owner_dash, memory_ids=["not-an-id"]),
    ]
    for attempt in attempts:
        with pytest.raises(NotFound):
            attempt()
    assert trash_groups(actor=stranger_dash) == []
    trash_notice_seen(actor=stranger_dash, batch_id=batch)  # changes nothing of the owner's
    app = app_actor(owner, "Cursor")
    refused: list[Callable[[], object]] = [
        lambda: trash_restore(actor=app, memory_ids=[memory.id]),
        lambda: trash_groups(actor=app),
        lambda: trash_delete_forever(actor=app, everything=True),
        lambda: trash_notices(actor=app),
    ]
    for attempt in refused:
        with pytest.raises(OwnerOnly):
            attempt()
    assert _trashed(owner) == {memory.id}
    assert TrashBatch.objects.get(pk=batch).seen_at is None


def test_an_app_cannot_trash_or_restore_through_a_state_change(
    owner: User, owner_dash: Actor, app_actor: AppFactory
) -> None:
    app = app_actor(owner, "Cursor")
    memory = adding.memory_create(actor=app, text="Uses Neovim").memory
    with pytest.raises(InvalidInput):
        changing.memory_set_state(actor=app, memory_ids=[memory.id], state="trashed")
    deleting.memory_delete(actor=owner_dash, memory_id=memory.id)
    with pytest.raises(NotFound):
        changing.memory_set_state(actor=owner_dash, memory_ids=[memory.id], state="active")
    assert _trashed(owner) == {memory.id}


def test_trash_days_below_one_is_refused_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(os.environ, "TRASH_DAYS", "0")
    with pytest.raises(ImproperlyConfigured, match="TRASH_DAYS='0': expected at least 1"):
        env_int("TRASH_DAYS", 30, minimum=1)
    monkeypatch.setitem(os.environ, "TRASH_DAYS", "a month")
    with pytest.raises(ImproperlyConfigured, match="expected an integer"):
        env_int("TRASH_DAYS", 30, minimum=1)


def test_purging_with_nothing_expired_changes_nothing(owner: User, owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Fresh delete").memory
    deleting.memory_delete(actor=owner_dash, memory_id=memory.id)
    report = trash_purge_expired()
    assert (report.users, report.memories) == (0, 0)
    assert _trashed(owner) == {memory.id}
    assert not AccessEvent.objects.filter(action="purge").exists()


def test_a_large_delete_lists_its_first_hundred_and_restores_whole(
    owner: User, owner_dash: Actor, bulk_memories: Callable[[User, int], None]
) -> None:
    bulk_memories(owner, 105)
    assert deleting.memory_delete_all(actor=owner_dash) == 105
    [group] = trash_groups(actor=owner_dash)
    assert (len(group.memories), group.count, group.more) == (100, 105, 5)
    assert len({m.id for m in group.memories}) == 100
    restored = trash_restore(actor=owner_dash, batch_id=group.batch.id)
    assert len(restored.restored) == 105 and not _trashed(owner)


def test_a_delete_of_nothing_leaves_no_trace_after_trash_days(
    owner: User, owner_dash: Actor
) -> None:
    assert deleting.memory_delete_all(actor=owner_dash) == 0
    assert trash_groups(actor=owner_dash) == [] and trash_notices(actor=owner_dash) == []
    TrashBatch.objects.filter(owner=owner).update(created_at=timezone.now() - timedelta(days=31))
    assert trash_purge_expired().memories == 0
    assert not TrashBatch.objects.filter(owner=owner).exists()
