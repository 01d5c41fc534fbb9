import re
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import ConnectedApp, User
from activity.models import AccessEvent
from kernel.errors import AppPaused, InvalidInput, ScopeRequired
from kernel.gates import SCOPE_READ
from memories.models import Memory, MemoryState, MemoryTombstone, MemoryVersion
from memories.selectors.memories import (
    MemoryFilters,
    memory_get,
    memory_list,
    memory_search,
    memory_versions,
)
from memories.services import adding, batch_insert, changing, deleting, text_changes
from memories.services.trash import trash_delete_forever

pytestmark = pytest.mark.django_db


def test_add_stores_text_with_embedding_and_provenance(owner_dash: Actor) -> None:
    result = adding.memory_create(actor=owner_dash, text="  I prefer tea over coffee  ")
    memory = result.memory
    assert result.created
    assert memory.text == "I prefer tea over coffee"
    assert memory.embedding is not None and len(memory.embedding) == 384
    assert memory.origin == "dashboard"
    assert memory.origin_app_name == "dashboard"
    assert memory.provenance["app"] == "dashboard"


def test_the_batch_insert_writes_every_column_of_memory() -> None:
    """A field added to Memory must be added to the raw-SQL batch INSERT too (its column list
    is not Django's, so nothing else would notice a column left to NULL)."""
    columns = {f.column for f in Memory._meta.concrete_fields}
    assert set(batch_insert.INSERT_COLUMNS) == columns
    aliases = {alias for _, alias in batch_insert.ROW_ARRAYS.values()}
    used = {
        a for sql in batch_insert.INSERT_COLUMNS.values() for a in re.findall(r"\bu\.(\w+)", sql)
    }
    assert used == aliases, "every per-row array is written to a column, and only those"


def test_a_batch_written_memory_is_what_a_read_back_of_its_row_gives(owner_dash: Actor) -> None:
    when = timezone.now() - timedelta(days=3)
    items = [
        adding.NewMemory(
            text="Plays the oboe on Sundays",
            categories=["Hobbies"],
            provenance={"source": "claude", "conversation_title": "Music"},
            metadata={"needs_extraction": True},
            created_at=when,
        ),
        adding.NewMemory(text="Used to live in Berlin", state=MemoryState.ARCHIVED),
        adding.NewMemory(text="Likes green tea"),
    ]
    written = [r.memory for r in adding.memory_create_many(actor=owner_dash, items=items)]
    fields = [f.attname for f in Memory._meta.concrete_fields if f.attname != "tsv"]
    for memory in written:
        stored = Memory.objects.get(owner=owner_dash.user, pk=memory.pk)
        for name in fields:
            mine, theirs = getattr(memory, name), getattr(stored, name)
            if name == "embedding":
                mine, theirs = list(mine), list(theirs)
            assert mine == theirs, f"{name}: built {mine!r}, stored {theirs!r}"
    assert written[0].created_at == when and written[0].categories == ["hobbies"]
    assert written[1].state == MemoryState.ARCHIVED


def test_same_text_after_normalisation_is_stored_once(owner_dash: Actor) -> None:
    first = adding.memory_create(actor=owner_dash, text="I live in Lisbon.")
    second = adding.memory_create(actor=owner_dash, text="  i LIVE in   lisbon ")
    assert not second.created
    assert second.memory.id == first.memory.id
    assert Memory.objects.filter(owner=owner_dash.user).count() == 1


def test_batch_add_dedups_within_the_batch(owner_dash: Actor) -> None:
    items = [adding.NewMemory(text=t) for t in ("Likes jazz", "likes jazz!", "Plays chess")]
    results = adding.memory_create_many(actor=owner_dash, items=items)
    assert [r.created for r in results] == [True, False, True]
    assert results[0].memory.id == results[1].memory.id
    assert Memory.objects.filter(owner=owner_dash.user).count() == 2


@pytest.mark.parametrize("bad", ["", "   ", "x" * 10_001, None, 42])
def test_bad_text_is_refused_and_nothing_is_written(owner_dash: Actor, bad: object) -> None:
    with pytest.raises(InvalidInput):
        adding.memory_create(actor=owner_dash, text=bad)  # type: ignore[arg-type]
    assert Memory.objects.count() == 0


def test_one_bad_item_refuses_the_whole_batch(owner_dash: Actor) -> None:
    items = [adding.NewMemory(text="fine"), adding.NewMemory(text="  ")]
    with pytest.raises(InvalidInput) as err:
        adding.memory_create_many(actor=owner_dash, items=items)
    assert err.value.field == "texts[1]"
    assert Memory.objects.count() == 0


def test_update_keeps_prior_text_as_a_version(owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Works at Acme").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Works at Globex")
    memory.refresh_from_db()
    assert memory.text == "Works at Globex"
    assert memory.user_edited_at is not None
    versions = memory_versions(actor=owner_dash, memory_id=memory.id)
    assert [v.text for v in versions] == ["Works at Acme"]


def test_restore_version_brings_back_old_text(owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Drives a Volvo").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Drives a Saab")
    version = MemoryVersion.objects.get(memory=memory)
    text_changes.memory_restore_version(
        actor=owner_dash, memory_id=memory.id, version_id=version.pk
    )
    memory.refresh_from_db()
    assert memory.text == "Drives a Volvo"
    assert sorted(v.text for v in memory_versions(actor=owner_dash, memory_id=memory.id)) == [
        "Drives a Saab",
        "Drives a Volvo",
    ]


def test_delete_then_purge_leaves_no_text_or_embedding_in_any_table(owner_dash: Actor) -> None:
    canary = f"canary-{uuid.uuid4().hex}"
    memory = adding.memory_create(actor=owner_dash, text=f"My secret is {canary}").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text=f"My secret was {canary}")
    deleting.memory_delete(actor=owner_dash, memory_id=memory.id)
    assert Memory.objects.filter(pk=memory.pk, state="trashed").exists()  # in the trash first
    trash_delete_forever(actor=owner_dash, memory_ids=[memory.id])

    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert not MemoryVersion.objects.filter(memory_id=memory.pk).exists()
    tomb = MemoryTombstone.objects.get(memory_id=memory.pk)
    assert tomb.owner_id == owner_dash.user.pk
    with connection.cursor() as cur:
        cur.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb')"
        )
        columns = cur.fetchall()
        for table, column in columns:
            query = f'SELECT count(*) FROM "{table}" WHERE "{column}"::text LIKE %s'  # noqa: S608
            cur.execute(query, [f"%{canary}%"])
            assert cur.fetchone()[0] == 0, f"{table}.{column} still holds the text"
        cur.execute("SELECT count(*) FROM memories_memory WHERE embedding IS NOT NULL")
        assert cur.fetchone()[0] == 0


def test_delete_names_the_apps_that_read_the_memory(owner: User, owner_dash: Actor) -> None:
    # Not a sensitive category: an app only reads those when granted them by name.
    memory = adding.memory_create(
        actor=owner_dash, text="Plays the cello", categories=["hobbies"]
    ).memory
    cursor_app = actor_for(owner, stdio_app(owner, "cursor"))
    memory_get(actor=cursor_app, memory_id=memory.id)
    result = deleting.memory_delete(actor=owner_dash, memory_id=memory.id)
    assert result.read_by == ["cursor"]


def test_state_changes_are_recorded_with_from_and_to(owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Training for a marathon").memory
    changing.memory_set_state(actor=owner_dash, memory_ids=[memory.id], state=MemoryState.ARCHIVED)
    event = AccessEvent.objects.get(action=AccessEvent.Action.STATE)
    assert event.detail == {"from": "active", "to": "archived"}
    assert event.app_name == "dashboard"
    assert memory_list(actor=owner_dash).items == []
    archived = memory_list(actor=owner_dash, filters=MemoryFilters(state="archived")).items
    assert [m.id for m in archived] == [memory.id]


def test_every_read_and_write_records_an_access_event(owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Has a cat named Miso").memory
    memory_get(actor=owner_dash, memory_id=memory.id)
    memory_search(actor=owner_dash, query="pet")
    memory_list(actor=owner_dash)
    actions = list(AccessEvent.objects.order_by("id").values_list("action", flat=True))
    assert actions == ["add", "read", "search", "list"]


def test_list_paginates_newest_first_with_a_cursor(owner_dash: Actor) -> None:
    for i in range(7):
        adding.memory_create(actor=owner_dash, text=f"Fact number {i}")
    seen: list[str] = []
    cursor = None
    while True:
        page = memory_list(actor=owner_dash, limit=3, cursor=cursor)
        seen.extend(m.text for m in page.items)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [f"Fact number {i}" for i in reversed(range(7))]


def test_a_forged_cursor_is_a_domain_error(owner_dash: Actor) -> None:
    with pytest.raises(InvalidInput):
        memory_list(actor=owner_dash, cursor="not-a-cursor!!")


def test_missing_scope_refuses_before_writing(owner: User) -> None:
    reader = actor_for(owner, stdio_app(owner, "reader"), scopes=[SCOPE_READ])
    with pytest.raises(ScopeRequired):
        adding.memory_create(actor=reader, text="should not be stored")
    assert Memory.objects.count() == 0


def test_paused_app_is_refused(owner: User) -> None:
    app = stdio_app(owner, "paused-one")
    ConnectedApp.objects.filter(pk=app.pk).update(paused=True)
    app.refresh_from_db()
    with pytest.raises(AppPaused):
        memory_search(actor=actor_for(owner, app), query="anything")
    with pytest.raises(AppPaused):
        adding.memory_create(actor=actor_for(owner, app), text="nope")
    assert Memory.objects.count() == 0
