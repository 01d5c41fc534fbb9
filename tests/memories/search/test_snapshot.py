"""The search snapshot: a process that does not hold a user's index reads it in one value from
PostgreSQL and brings it up to date from the change log. What it answers must equal a full read,
whatever was written, deleted, hidden or erased since the snapshot; and a memory deleted for good
leaves the snapshot table with its vector and lexeme keys."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import psycopg
import pytest

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory, SearchSnapshot
from memories.search import index as search_index
from memories.search import snapshot as search_snapshot
from memories.search.background import writer as search_writer
from memories.search.embeddings import DIMENSIONS
from memories.services import adding, changing, deleting, marks
from memories.services.erasure import user_erase
from memories.services.trash import trash_delete_forever
from tests.memories.snapshot_answers import (
    TEXTS,
    cold_answer,
    full_read_answer,
    store,
    vector_bytes,
)


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Snapshots for stores of any size (the server writes them from a thousand memories)."""
    monkeypatch.setattr(search_index, "SNAPSHOT_MIN_MEMORIES", 1)
    search_index.clear()
    yield
    search_index.sweeper.stop()
    search_index.clear()


def _snapshot(owner: User) -> SearchSnapshot | None:
    return SearchSnapshot.objects.filter(owner=owner).first()


def _snapshot_holds(owner: User, memory_id: uuid.UUID) -> bool:
    """Whether any snapshot row holds this memory's id or its vector."""
    vector = vector_bytes(memory_id)
    return any(
        memory_id.bytes in bytes(data) or vector in bytes(data)
        for data in SearchSnapshot.objects.filter(owner=owner).values_list("data", flat=True)
    )


@pytest.mark.django_db
def test_a_full_read_writes_a_snapshot_that_loads_the_very_same_index(
    owner: User, owner_dash: Actor
) -> None:
    store(owner_dash)
    snap = _snapshot(owner)
    assert snap is not None and snap.memories == len(TEXTS)

    fresh, _ = search_index.read_full(owner.pk)
    loaded = search_snapshot.read(owner.pk)
    assert loaded is not None and loaded.generation == fresh.generation
    for name, *_ in search_snapshot.FIELDS:
        assert np.array_equal(loaded.arrays[name], getattr(fresh, name)), name


@pytest.mark.django_db
def test_a_snapshot_read_in_many_slices_is_the_same_and_one_rewritten_meanwhile_is_refused(
    owner: User, owner_dash: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    store(owner_dash)
    whole = search_snapshot.read(owner.pk)
    monkeypatch.setattr(search_snapshot, "_SLICE", 1000)  # a dozen slices
    sliced = search_snapshot.read(owner.pk)
    assert whole is not None and sliced is not None
    for name, *_ in search_snapshot.FIELDS:
        assert np.array_equal(sliced.arrays[name], whole.arrays[name]), name

    adding.memory_create(actor=owner_dash, text="Parks the car on level three")
    rewrite = search_index.read_full(owner.pk)[0]
    fetch = psycopg.Cursor.fetchone

    def rewritten_after_the_first_slice(cur: psycopg.Cursor[Any]) -> Any:
        row = fetch(cur)
        if row is not None and len(row) == 4:  # the first slice: now the snapshot is rewritten
            assert search_index.save_snapshot(owner.pk, rewrite)
        return row

    monkeypatch.setattr(psycopg.Cursor, "fetchone", rewritten_after_the_first_slice)
    assert search_snapshot.read(owner.pk) is None  # read in full instead


@pytest.mark.django_db
def test_a_write_after_the_snapshot_is_found_by_a_process_that_loads_it(
    owner: User, owner_dash: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    store(owner_dash)
    written = _snapshot(owner)
    adding.memory_create(actor=owner_dash, text="The spare key for the shed is on the hook")
    changing.memory_update(
        actor=owner_dash,
        memory_id=Memory.objects.get(owner=owner, text=TEXTS[2]).id,
        text="Prefers window seats on long flights",
    )

    cold = cold_answer(owner_dash, "spare key window seat")
    assert "The spare key for the shed is on the hook" in [text for text, _ in cold]
    assert "Prefers window seats on long flights" in [text for text, _ in cold]
    assert cold == full_read_answer(owner_dash, "spare key window seat", monkeypatch)
    # Two changes: brought up to date from the change log, the snapshot not rewritten.
    kept = _snapshot(owner)
    assert kept is not None and written is not None and kept.generation == written.generation


@pytest.mark.django_db
def test_many_changes_since_the_snapshot_rewrite_it_at_the_current_generation(
    owner: User, owner_dash: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    store(owner_dash)
    monkeypatch.setattr(search_index, "SNAPSHOT_REWRITE_CHANGES", 1)
    adding.memory_create(actor=owner_dash, text="Parks the car on level three")
    adding.memory_create(actor=owner_dash, text="Takes the train on Fridays")

    cold_answer(owner_dash, "car")
    snap = _snapshot(owner)
    assert snap is not None and snap.memories == len(TEXTS) + 2
    assert snap.generation == search_index.read_full(owner.pk)[0].generation


@pytest.mark.django_db
def test_a_memory_trashed_after_the_snapshot_is_not_found_by_a_process_that_loads_it(
    owner: User, owner_dash: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = store(owner_dash)
    deleting.memory_delete(actor=owner_dash, memory_id=ids[0])

    cold = cold_answer(owner_dash, "spare key flowerpot")
    assert TEXTS[0] not in [text for text, _ in cold]
    assert cold == full_read_answer(owner_dash, "spare key flowerpot", monkeypatch)


@pytest.mark.django_db
def test_a_memory_deleted_forever_takes_the_users_snapshot_with_it(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    ids = store(owner_dash)
    store(stranger_dash)
    assert _snapshot_holds(owner, ids[0])

    deleting.memory_delete(actor=owner_dash, memory_id=ids[0])
    trash_delete_forever(actor=owner_dash, memory_ids=[ids[0]])
    assert _snapshot(owner) is None  # its vector and lexeme keys went with the row
    assert _snapshot(stranger) is not None  # another user's is left alone

    cold = cold_answer(owner_dash, "spare key flowerpot")  # read in full, written again
    assert TEXTS[0] not in [text for text, _ in cold]
    assert _snapshot(owner) is not None
    assert _snapshot_holds(owner, ids[1])  # the others are in it again
    assert ids[0].bytes not in bytes(_snapshot(owner).data)  # type: ignore[union-attr]


@pytest.mark.django_db
def test_an_erase_leaves_no_snapshot_of_the_user(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    store(owner_dash)
    store(stranger_dash)
    user_erase(actor=owner_dash)
    assert _snapshot(owner) is None
    assert _snapshot(stranger) is not None


@pytest.mark.django_db
def test_a_snapshot_read_before_a_write_is_not_stored(owner: User, owner_dash: Actor) -> None:
    """A process that read the user's memories, then lost the race to a write, stores nothing:
    the snapshot might hold a memory deleted for good in between."""
    ids = store(owner_dash)
    SearchSnapshot.objects.filter(owner=owner).delete()
    before, _ = search_index.read_full(owner.pk)
    deleting.memory_delete(actor=owner_dash, memory_id=ids[0])

    assert not search_index.save_snapshot(owner.pk, before)
    assert _snapshot(owner) is None
    after, _ = search_index.read_full(owner.pk)
    assert search_index.save_snapshot(owner.pk, after)
    assert not search_index.save_snapshot(owner.pk, before)  # never replaced by an older one
    assert _snapshot(owner).generation == after.generation  # type: ignore[union-attr]


@pytest.mark.django_db
def test_an_app_loading_the_snapshot_never_sees_a_memory_hidden_from_it_since(
    owner: User,
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    claude = app_actor(owner, "Claude")
    ids = store(owner_dash)
    assert TEXTS[0] in [text for text, _ in cold_answer(claude, "spare key flowerpot")]
    assert claude.app is not None
    marks.memory_set_visibility(actor=owner_dash, memory_id=ids[0], hide_from_app=claude.app.pk)
    marks.memory_set_visibility(actor=owner_dash, memory_id=ids[1], private=True)

    cold = cold_answer(claude, "spare key flowerpot penicillin")
    assert TEXTS[0] not in [text for text, _ in cold]
    assert TEXTS[1] not in [text for text, _ in cold]
    assert cold == full_read_answer(claude, "spare key flowerpot penicillin", monkeypatch)
    assert TEXTS[0] in [text for text, _ in cold_answer(owner_dash, "spare key flowerpot")]


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_written_behind_the_search_holds_the_generation_it_read(
    owner: User, owner_dash: Actor
) -> None:
    search_writer.background = True
    for text in TEXTS:
        adding.memory_create(actor=owner_dash, text=text)
    cold_answer(owner_dash, "spare key")
    search_writer.flush()
    snap = _snapshot(owner)
    assert snap is not None and snap.memories == len(TEXTS)
    assert snap.generation == search_index.read_full(owner.pk)[0].generation


def test_a_snapshot_of_another_version_or_size_is_refused() -> None:
    index = {
        name: np.zeros((2, *tail), dtype=dtype)
        if name not in ("keys", "rows", "tf")
        else np.zeros((3, *tail), dtype=dtype)
        for name, dtype, tail in search_snapshot.FIELDS
    }
    data = bytes(search_snapshot.pack(index))
    assert search_snapshot.unpack(data)["matrix"].shape == (2, DIMENSIONS)
    with pytest.raises(ValueError, match="version"):
        search_snapshot.unpack(b"X" + data[1:])
    with pytest.raises(ValueError, match="size"):
        search_snapshot.unpack(data + b"\0")
