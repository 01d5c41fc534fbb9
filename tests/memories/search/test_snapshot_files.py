"""This machine's snapshot files: every worker maps a user's index from the file the first one
wrote, instead of reading it from PostgreSQL. A file is used only while it holds its user's
snapshot row's very value; a memory deleted for good takes it away (at the purge or erase on this
machine, at the next use or sweep on any other), and nothing torn, stale or foreign is ever
searched."""

from __future__ import annotations

import stat
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

from accounts.actors import Actor, owner_actor
from accounts.models import User
from memories.models import SearchSnapshot, SearchStats
from memories.search import index as search_index
from memories.search import lexical, snapshot_files
from memories.search import snapshot as search_snapshot
from memories.services import adding, deleting, marks
from memories.services.erasure import user_erase
from memories.services.trash import trash_delete_forever
from tests.memories.snapshot_answers import (
    TEXTS,
    cold_answer,
    full_read_answer,
    store,
    vector_bytes,
)

OTHER_TEXTS = ["Plays chess on Sunday mornings", "Keeps bees in the back garden"]
OnCommit = Callable[..., Any]


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Snapshots for stores of any size, and a snapshot folder of this test's own."""
    monkeypatch.setattr(search_index, "SNAPSHOT_MIN_MEMORIES", 1)
    search_index.clear()
    with override_settings(SEARCH_SNAPSHOT_DIR=str(tmp_path / "search")):
        yield
    search_index.clear()


def _file(owner: User) -> Path:
    folder = snapshot_files.folder(owner.pk)
    assert folder is not None
    return folder / "index.snap"


def _traces(memory_id: uuid.UUID) -> tuple[bytes, bytes]:
    """What of a memory a snapshot holds that would identify it: its id and its vector."""
    return memory_id.bytes, vector_bytes(memory_id)


def _files_hold(owner: User, traces: tuple[bytes, bytes]) -> bool:
    """Whether any file under the snapshot folder holds this memory's id or its vector."""
    every = [p for p in _file(owner).parents[1].rglob("*") if p.is_file()]
    return any(trace in path.read_bytes() for path in every for trace in traces)


def _source(owner: User) -> str | None:
    read = search_snapshot.read(owner.pk)
    return None if read is None else read.source


@pytest.mark.django_db
def test_another_process_maps_the_index_from_the_file_and_answers_the_same(
    owner: User, owner_dash: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    store(owner_dash)
    path = _file(owner)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # only the server's user reads it
    row = SearchSnapshot.objects.get(owner=owner)
    assert path.read_bytes().endswith(bytes(row.data))  # the row's very value

    assert _source(owner) == "file"
    query = "spare key flowerpot cello"
    assert cold_answer(owner_dash, query) == full_read_answer(owner_dash, query, monkeypatch)


@pytest.mark.django_db
def test_a_process_that_read_the_row_leaves_the_file_for_the_others(
    owner: User, owner_dash: Actor
) -> None:
    store(owner_dash)
    _file(owner).unlink()  # a machine that has never searched this user

    assert _source(owner) == "database"
    assert _source(owner) == "file"


@pytest.mark.django_db
def test_a_write_after_the_file_is_found_by_a_process_that_maps_it(
    owner: User, owner_dash: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = store(owner_dash)
    adding.memory_create(actor=owner_dash, text="The spare key for the shed is on the hook")
    deleting.memory_delete(actor=owner_dash, memory_id=ids[0])

    assert _source(owner) == "file"
    cold = cold_answer(owner_dash, "spare key")
    assert "The spare key for the shed is on the hook" in [text for text, _ in cold]
    assert TEXTS[0] not in [text for text, _ in cold]  # in the trash now
    assert cold == full_read_answer(owner_dash, "spare key", monkeypatch)


@pytest.mark.django_db
def test_a_memory_deleted_forever_removes_the_users_file_when_the_purge_commits(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    django_capture_on_commit_callbacks: OnCommit,
) -> None:
    ids = store(owner_dash)
    store(stranger_dash, OTHER_TEXTS)
    purged, kept = _traces(ids[0]), _traces(ids[1])
    assert _files_hold(owner, purged)

    deleting.memory_delete(actor=owner_dash, memory_id=ids[0])
    with django_capture_on_commit_callbacks(execute=True):
        trash_delete_forever(actor=owner_dash, memory_ids=[ids[0]])
    assert not _file(owner).exists()
    assert _file(stranger).exists()  # another user's is left alone
    assert not _files_hold(owner, purged)

    cold = cold_answer(owner_dash, "spare key flowerpot")  # read in full, both written again
    assert TEXTS[0] not in [text for text, _ in cold]
    assert _file(owner).exists() and _files_hold(owner, kept)
    assert not _files_hold(owner, purged)


@pytest.mark.django_db
def test_an_erase_removes_the_users_file(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    django_capture_on_commit_callbacks: OnCommit,
) -> None:
    store(owner_dash)
    store(stranger_dash, OTHER_TEXTS)
    with django_capture_on_commit_callbacks(execute=True):
        user_erase(actor=owner_dash)
    assert not _file(owner).exists()
    assert _file(stranger).exists()


@pytest.mark.django_db
def test_a_purge_on_another_machine_leaves_a_file_that_is_never_used_and_goes_at_the_sweep(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    """Another machine's purge removes its own file when it commits; this machine learns of it
    from the snapshot row, which went with the purged memory."""
    ids = store(owner_dash)
    store(stranger_dash, OTHER_TEXTS)
    purged = _traces(ids[0])
    deleting.memory_delete(actor=owner_dash, memory_id=ids[0])
    trash_delete_forever(actor=owner_dash, memory_ids=[ids[0]])  # its on-commit runs elsewhere
    assert _file(owner).exists()

    assert snapshot_files.sweep() == 1
    assert not _file(owner).exists()
    assert _file(stranger).exists()
    assert not _files_hold(owner, purged)


@pytest.mark.django_db
def test_a_file_whose_row_is_gone_is_removed_by_the_next_search_instead_of_used(
    owner: User, owner_dash: Actor
) -> None:
    ids = store(owner_dash)
    deleting.memory_delete(actor=owner_dash, memory_id=ids[0])
    trash_delete_forever(actor=owner_dash, memory_ids=[ids[0]])  # its on-commit runs elsewhere

    assert search_snapshot.read(owner.pk) is None  # no row: read in full
    assert not _file(owner).exists()


@pytest.mark.django_db
def test_a_file_of_an_older_snapshot_is_replaced_not_used(
    owner: User, owner_dash: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    store(owner_dash)
    older = _file(owner).read_bytes()
    adding.memory_create(actor=owner_dash, text="Parks the car on level three")
    assert search_index.save_snapshot(owner.pk, search_index.read_full(owner.pk)[0])
    _file(owner).write_bytes(older)  # as a machine that missed the rewrite holds it

    assert _source(owner) == "database"
    assert _file(owner).read_bytes().endswith(bytes(SearchSnapshot.objects.get(owner=owner).data))
    cold = cold_answer(owner_dash, "car level")
    assert "Parks the car on level three" in [text for text, _ in cold]
    assert cold == full_read_answer(owner_dash, "car level", monkeypatch)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="torn"),
        pytest.param(lambda data: b"NOTASNAP" + data[8:], id="foreign"),
        pytest.param(lambda data: b"", id="empty"),
    ],
)
def test_a_torn_or_foreign_file_is_refused_and_written_again(
    owner: User, owner_dash: Actor, spoil: Callable[[bytes], bytes]
) -> None:
    store(owner_dash)
    whole = _file(owner).read_bytes()
    _file(owner).write_bytes(spoil(whole))

    assert _source(owner) == "database"
    assert _file(owner).read_bytes() == whole
    assert _source(owner) == "file"


@pytest.mark.django_db
def test_another_users_file_under_this_users_name_is_refused(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    store(owner_dash)
    store(stranger_dash, OTHER_TEXTS)
    _file(owner).write_bytes(_file(stranger).read_bytes())

    assert snapshot_files.held(owner.pk) is None
    assert _source(owner) == "database"
    assert TEXTS[0] in [text for text, _ in cold_answer(owner_dash, "spare key flowerpot")]


@pytest.mark.django_db
def test_a_file_written_after_its_row_went_removes_itself(owner: User, owner_dash: Actor) -> None:
    """A purge that commits while a worker writes the file finds no file to remove: the writer
    looks at the row again once the file is in place."""
    store(owner_dash)
    row = SearchSnapshot.objects.get(owner=owner)
    SearchSnapshot.objects.filter(owner=owner).delete()  # as the purge's trigger does

    assert not snapshot_files.write(owner.pk, row.generation, row.written_at, bytes(row.data))
    assert not _file(owner).exists()
    assert not [p for p in _file(owner).parents[1].rglob("*.tmp")]


@pytest.mark.django_db
def test_with_the_folder_unset_no_file_is_written_and_search_still_answers(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    with override_settings(SEARCH_SNAPSHOT_DIR=""):
        store(owner_dash)
        assert _source(owner) == "database"
        assert TEXTS[0] in [text for text, _ in cold_answer(owner_dash, "spare key flowerpot")]
    assert not (tmp_path / "search").exists()


@pytest.mark.django_db
def test_each_database_has_a_folder_of_its_own(owner: User, owner_dash: Actor) -> None:
    store(owner_dash)
    here = _file(owner)
    name = connection.settings_dict["NAME"]
    try:
        connection.settings_dict["NAME"] = f"{name}_other"
        assert snapshot_files.held(owner.pk) is None
        assert snapshot_files.folder(owner.pk) != here.parent
    finally:
        connection.settings_dict["NAME"] = name


def _kept_masks_found(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """From now on, for each look for a kept mask, whether one was found."""
    kept = search_index._kept_mask
    found: list[bool] = []

    def kept_and_seen(*args: Any) -> Any:
        mask = kept(*args)
        found.append(mask is not None)
        return mask

    monkeypatch.setattr(search_index, "_kept_mask", kept_and_seen)
    return found


def _masks(owner: User) -> list[Path]:
    return sorted(_file(owner).parent.glob("*.mask"))


@pytest.mark.django_db
def test_an_apps_mask_is_kept_beside_the_snapshot_and_a_later_process_answers_the_same(
    owner: User,
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    claude = app_actor(owner, "Claude")
    ids = store(owner_dash)
    marks.memory_set_visibility(actor=owner_dash, memory_id=ids[1], private=True)
    cold_answer(owner_dash, "spare key")  # the snapshot rewritten at the current generation
    search_index.save_snapshot(owner.pk, search_index.read_full(owner.pk)[0])
    assert _masks(owner) == []

    query = "spare key flowerpot penicillin"
    first = cold_answer(claude, query)
    assert len(_masks(owner)) == 1  # every row of the user was read once, for the machine
    found = _kept_masks_found(monkeypatch)
    assert cold_answer(claude, query) == first
    assert found == [True]  # the kept mask, not every row read again
    assert first == full_read_answer(claude, query, monkeypatch)
    assert TEXTS[1] not in [text for text, _ in first]  # private: never the app's


@pytest.mark.django_db
def test_a_memory_hidden_from_the_app_after_its_mask_was_kept_stays_hidden(
    owner: User,
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    claude = app_actor(owner, "Claude")
    ids = store(owner_dash)
    assert TEXTS[0] in [text for text, _ in cold_answer(claude, "spare key flowerpot")]
    assert len(_masks(owner)) == 1
    assert claude.app is not None
    marks.memory_set_visibility(actor=owner_dash, memory_id=ids[0], hide_from_app=claude.app.pk)

    cold = cold_answer(claude, "spare key flowerpot")  # the kept mask, brought up to date
    assert TEXTS[0] not in [text for text, _ in cold]
    assert cold == full_read_answer(claude, "spare key flowerpot", monkeypatch)


@pytest.mark.django_db
def test_a_forged_mask_that_admits_everything_still_shows_the_app_nothing_it_may_not_see(
    owner: User, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    """Whoever can write the data folder can only change what is ranked: the row fetch checks
    consent again in SQL."""
    claude = app_actor(owner, "Claude")
    ids = store(owner_dash)
    marks.memory_set_visibility(actor=owner_dash, memory_id=ids[0], private=True)
    search_index.save_snapshot(owner.pk, search_index.read_full(owner.pk)[0])
    cold_answer(claude, "spare key flowerpot")
    (mask,) = _masks(owner)
    snap = SearchSnapshot.objects.get(owner=owner)
    digest = mask.name.removesuffix(".mask")
    everything = np.ones(len(TEXTS), dtype=bool)
    assert snapshot_files.write_mask(owner.pk, snap.generation, snap.written_at, digest, everything)

    assert TEXTS[0] not in [text for text, _ in cold_answer(claude, "spare key flowerpot")]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda data: data[:-1] + bytes([data[-1] ^ 0x80]), id="a bit flipped"),
        pytest.param(lambda data: data[:64], id="torn"),
    ],
)
def test_a_spoilt_mask_is_never_used(
    owner: User,
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    spoil: Callable[[bytes], bytes],
) -> None:
    claude = app_actor(owner, "Claude")
    store(owner_dash)
    cold_answer(claude, "spare key")
    (mask,) = _masks(owner)
    mask.write_bytes(spoil(mask.read_bytes()))
    snap = SearchSnapshot.objects.get(owner=owner)
    digest = mask.name.removesuffix(".mask")

    assert snapshot_files.read_mask(owner.pk, snap.generation, snap.written_at, digest, 5) is None


@pytest.mark.django_db
def test_a_user_keeps_a_bounded_number_of_masks(owner: User, owner_dash: Actor) -> None:
    store(owner_dash)
    snap = SearchSnapshot.objects.get(owner=owner)
    for n in range(snapshot_files.MASKS_PER_USER + 3):
        mask = np.ones(len(TEXTS), dtype=bool)
        assert snapshot_files.write_mask(owner.pk, snap.generation, snap.written_at, f"v{n}", mask)
    assert len(_masks(owner)) == snapshot_files.MASKS_PER_USER


@pytest.mark.django_db
def test_the_sweep_removes_masks_of_an_older_snapshot_and_keeps_the_current(
    owner: User, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    claude = app_actor(owner, "Claude")
    store(owner_dash)
    cold_answer(claude, "spare key")
    (mask,) = _masks(owner)
    older = mask.read_bytes()
    adding.memory_create(actor=owner_dash, text="Parks the car on level three")
    assert search_index.save_snapshot(owner.pk, search_index.read_full(owner.pk)[0])
    cold_answer(claude, "spare key")  # a mask of the new snapshot, under the same name
    assert mask.read_bytes() != older
    (_file(owner).parent / "older.mask").write_bytes(older)  # and one of the older snapshot

    assert snapshot_files.sweep() == 0  # the user's snapshot is current
    assert _masks(owner) == [mask]


@pytest.mark.django_db
def test_a_user_who_wrote_since_the_snapshot_has_the_apps_mask_read_once_for_the_machine(
    owner: User,
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Assistants write all the time: a mask kept only at the snapshot's generation would be
    read from every row at each cold load until the snapshot is rewritten."""
    claude = app_actor(owner, "Claude")
    assert claude.app is not None
    ids = store(owner_dash)
    adding.memory_create(actor=owner_dash, text="The spare bike key hangs by the door")
    marks.memory_set_visibility(actor=owner_dash, memory_id=ids[0], hide_from_app=claude.app.pk)
    query = "spare key flowerpot bike"

    first = cold_answer(claude, query)  # behind the snapshot: the mask read now, and kept
    assert len(_masks(owner)) == 1
    marks.memory_set_visibility(actor=owner_dash, memory_id=ids[1], private=True)
    adding.memory_create(actor=owner_dash, text="The spare car key is in the kitchen drawer")

    found = _kept_masks_found(monkeypatch)
    later = cold_answer(claude, query)
    assert found == [True]  # not every row read again
    texts = [text for text, _ in later]
    assert TEXTS[0] not in texts and TEXTS[1] not in texts  # hidden, then private
    assert "The spare car key is in the kitchen drawer" in texts
    assert TEXTS[0] not in [text for text, _ in first]
    assert later == full_read_answer(claude, query, monkeypatch)


# --- Nothing left behind that a dictionary or a stray entry could keep (issue 39, item 4) -------

RARE = "zebracornish"


def _key(lexeme: str, salt: int) -> bytes:
    """A lexeme's key as the snapshot lays it out, with this salt (0: unsalted)."""
    with connection.cursor() as cur:
        cur.execute("SELECT hashtextextended(%s, %s)", [lexeme, salt])
        return np.array([cur.fetchone()[0]], dtype="<i8").tobytes()


def _lexeme(word: str) -> str:
    """The word's lexeme in an English memory (memories/search/lexical.py: unprefixed)."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT lexeme FROM unnest(to_tsvector(%s::regconfig, %s))",
            [lexical.DEFAULT.config, word],
        )
        return str(cur.fetchone()[0])


@pytest.mark.django_db
def test_the_files_keys_are_salted_per_user_so_hashing_a_dictionary_finds_nothing(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    """Measured before: hashing "mountain" found it 300 times in an erased user's file."""
    store(owner_dash, [*TEXTS, f"Named the cat {RARE}", f"The {RARE} cat sleeps a lot"])
    store(stranger_dash, [*OTHER_TEXTS, f"A {RARE} is not a real animal"])
    lexeme = _lexeme(RARE)
    mine, theirs = _file(owner).read_bytes(), _file(stranger).read_bytes()
    salts = dict(SearchStats.objects.values_list("owner_id", "salt"))
    assert salts[owner.pk] != salts[stranger.pk]

    assert _key(lexeme, 0) not in mine and _key(lexeme, 0) not in theirs
    assert _key(lexeme, owner.pk) not in mine  # the user id is no secret: not the salt
    assert _key(lexeme, salts[owner.pk]) in mine  # with the user's secret, it is there
    assert _key(lexeme, salts[owner.pk]) not in theirs
    assert _key(lexeme, salts[stranger.pk]) in theirs
    # The keys are the search's: the word is found the same from the file and from the rows.
    assert cold_answer(owner_dash, RARE)[0][0] == f"Named the cat {RARE}"


@pytest.mark.django_db
def test_an_erase_takes_the_salt_so_a_file_left_elsewhere_cannot_be_read(
    owner: User, owner_dash: Actor, django_capture_on_commit_callbacks: OnCommit
) -> None:
    store(owner_dash, [*TEXTS, f"Named the cat {RARE}"])
    salt = SearchStats.objects.get(owner=owner).salt
    left = _file(owner).read_bytes()  # as another machine holds it until its sweep
    with django_capture_on_commit_callbacks(execute=True):
        user_erase(actor=owner_dash)
    assert not SearchStats.objects.filter(owner=owner).exists()
    assert _key(_lexeme(RARE), salt) in left  # only the erased salt would read it
    adding.memory_create(actor=owner_actor(owner), text=f"Named the dog {RARE}")
    assert SearchStats.objects.get(owner=owner).salt != salt


@pytest.mark.django_db
def test_every_folder_is_the_server_users_alone(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    store(owner_dash)
    user_folder = _file(owner).parent
    top = Path(settings.SEARCH_SNAPSHOT_DIR)
    for folder in (top, user_folder.parent, user_folder):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    # Folders an earlier version made readable by every local user are closed by the sweep.
    for folder in (top, user_folder.parent, user_folder):
        folder.chmod(0o755)
    snapshot_files.sweep()
    for folder in (top, user_folder.parent, user_folder):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


@pytest.mark.django_db
def test_the_sweep_survives_any_stray_entry_and_removes_what_it_cannot_read(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor, tmp_path: Path
) -> None:
    """Measured before: a file where a user folder should be made every sweep fail with
    NotADirectoryError; a folder with a torn or foreign index.snap was never removed."""
    store(owner_dash)
    store(stranger_dash, OTHER_TEXTS)
    root = _file(owner).parents[1]
    elsewhere = tmp_path / "not ours"
    elsewhere.mkdir()
    (elsewhere / "precious").write_text("kept")
    strays = {
        "file where a folder should be": root / "12345",
        "torn": root / "23456" / "index.snap",
        "foreign": root / "34567" / "index.snap",
        "a folder as the snapshot": root / "45678" / "index.snap" / "x",
        "unknown name": root / "notes" / "a.txt",
        "unknown file beside a snapshot": _file(owner).parent / "notes.txt",
        "unknown folder beside a snapshot": _file(owner).parent / "sub" / "b.txt",
    }
    for path in strays.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    strays["file where a folder should be"].write_bytes(b"stray")
    strays["torn"].write_bytes(_file(owner).read_bytes()[:100])
    strays["foreign"].write_bytes(_file(stranger).read_bytes())  # another user's, other name
    strays["a folder as the snapshot"].write_bytes(b"x")
    strays["unknown name"].write_bytes(b"?")
    strays["unknown file beside a snapshot"].write_bytes(b"?")
    strays["unknown folder beside a snapshot"].write_bytes(b"?")
    (root / "56789").symlink_to(elsewhere, target_is_directory=True)
    (root / "67890").mkdir()
    (root / "67890" / "index.snap").symlink_to(_file(owner))

    assert snapshot_files.sweep() == 4  # the torn, foreign, folder-as-file and linked snapshots
    left = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    assert left == sorted(
        p.relative_to(root).as_posix()
        for p in [_file(owner).parent, _file(owner), _file(stranger).parent, _file(stranger)]
    ), left
    assert (elsewhere / "precious").read_text() == "kept"  # a link is removed, never followed
    assert _source(owner) == "file" and _source(stranger) == "file"


@pytest.mark.django_db(transaction=True)
def test_a_process_sweeps_when_its_sweeper_starts_not_at_its_first_search(
    owner: User, owner_dash: Actor
) -> None:
    """Measured before: the sweeper started only at a process's first search, so after a
    restart an erased user's file stayed until some other user's search (80 s and more)."""
    store(owner_dash)
    SearchSnapshot.objects.filter(owner=owner).delete()  # another machine's purge or erase
    search_index.sweeper.stop()
    try:
        with override_settings(SEARCH_CACHE_SWEEP_SECONDS=3600):
            search_index.start_sweeper()  # as a worker's start-up does, before any search
            deadline = time.monotonic() + 30
            while _file(owner).exists() and time.monotonic() < deadline:
                time.sleep(0.05)
        assert not _file(owner).exists(), "the first sweep waited for its interval"
    finally:
        search_index.sweeper.stop()
