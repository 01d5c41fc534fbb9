"""Erase is physical as far as PostgreSQL allows (issue 14, item 11): after an erase and a
CHECKPOINT, the erased text is in no file of the content tables (heap, TOAST, the GIN index of
its lexeme keys, the other indexes) and never in `pg_stats`. What remains (WAL until recycled,
backups) is documented in docs/guide/export-delete-erase.md, "What erase guarantees"."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory
from memories.search import index as search_index
from memories.selectors.memories import memory_search
from memories.services.adding import memory_create
from memories.services.changing import memory_update
from memories.services.deleting import memory_delete
from memories.services.erasure import CONTENT_MODELS, user_erase

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MARKER = "Zebracornish"  # one word, so its lexeme ("zebracornish") is in the GIN index too
TITLE = "Quokkatitled conversation"
LEXEME_INDEX = "memory_owner_lexemes"  # memories/migrations/0010_search_owner_lexemes.py


def _relation_files(table: str) -> list[Path]:
    """Every file of a table: its heap, its TOAST table and their indexes, all segments."""
    with connection.cursor() as cur:
        cur.execute("SHOW data_directory")
        data = Path(cur.fetchone()[0])
        cur.execute(
            """
            WITH rels AS (
                SELECT c.oid FROM pg_class c WHERE c.oid = %s::regclass
                UNION SELECT c.reltoastrelid FROM pg_class c
                      WHERE c.oid = %s::regclass AND c.reltoastrelid <> 0
            )
            SELECT pg_relation_filepath(oid) FROM rels
            UNION SELECT pg_relation_filepath(i.indexrelid) FROM pg_index i
                  WHERE i.indrelid IN (SELECT oid FROM rels)
            """,
            [table, table],
        )
        paths = [row[0] for row in cur.fetchall() if row[0]]
    return [f for p in paths for f in (data / p).parent.glob(Path(p).name + "*")]


def _holding(needle: bytes) -> list[str]:
    with connection.cursor() as cur:
        cur.execute("CHECKPOINT")  # what is in shared buffers is written to the files
    found = []
    for model in CONTENT_MODELS:
        for file in _relation_files(model._meta.db_table):
            if needle in file.read_bytes().lower():
                found.append(f"{model._meta.db_table}: {file.name}")
    return found


def _in_statistics(needle: str) -> list[Any]:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT tablename, attname FROM pg_stats WHERE schemaname = 'public'"
            " AND (histogram_bounds::text ILIKE %s OR most_common_vals::text ILIKE %s"
            "      OR most_common_elems::text ILIKE %s)",
            [f"%{needle}%"] * 3,
        )
        return cur.fetchall()


@pytest.fixture
def erased_owner(owner: User, stranger: User) -> User:
    actor = owner_actor(owner)
    memory = memory_create(
        actor=actor,
        text=f"{MARKER} is what I call my therapist",
        provenance={"source": "claude", "conversation_title": TITLE},
    ).memory
    memory_update(actor=actor, memory_id=memory.id, text=f"I see a {MARKER} every Tuesday")
    for n in range(40):  # enough rows of the same shape for the statistics to keep values
        memory_create(
            actor=actor, text=f"{MARKER} note {n}", provenance={"conversation_title": TITLE}
        )
    memory_create(actor=owner_actor(stranger), text="The stranger keeps this memory")
    # Erase bypasses the trash: a memory waiting there goes with the rest, at once.
    trashed = memory_create(actor=actor, text="wombattrash was deleted but kept for undo").memory
    memory_delete(actor=actor, memory_id=trashed.id)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    return owner


def test_statistics_never_hold_memory_text(erased_owner: User) -> None:
    assert _in_statistics(MARKER) == [] and _in_statistics("Quokka") == []


def test_after_an_erase_no_file_of_the_content_tables_holds_the_text(erased_owner: User) -> None:
    assert _holding(MARKER.lower().encode()), "the test must see the text before the erase"
    assert _holding(b"wombattrash"), "the trashed memory is stored before the erase"
    user_erase(actor=owner_actor(erased_owner))
    assert _holding(MARKER.lower().encode()) == []
    assert _holding(b"wombattrash") == []  # the trash too
    assert _holding(b"quokkatitled") == []
    assert _in_statistics(MARKER) == []
    assert Memory.objects.filter(text="The stranger keeps this memory").exists()


def test_without_rewriting_tables_the_lexemes_and_statistics_still_go(
    erased_owner: User, settings: Any
) -> None:
    """ERASE_REWRITE_TABLES=false (a large shared server): no exclusive lock, so heap pages may
    keep the bytes in their free space until reused; the search index and statistics do not."""
    settings.ERASE_REWRITE_TABLES = False
    with connection.cursor() as cur:
        # The search index holds each lexeme as a 64-bit key salted with its owner (int8, stored
        # in the machine's byte order).
        cur.execute("SELECT hashtextextended('zebracornish', %s)", [erased_owner.pk])
        key = struct.pack("=q", cur.fetchone()[0])

    def in_index() -> bool:
        with connection.cursor() as cur:
            cur.execute("CHECKPOINT")
        files = [f for f in _relation_files("memories_memory") if _is_index(f, LEXEME_INDEX)]
        assert files
        return any(key in f.read_bytes() for f in files)

    assert in_index(), "the test must see the key before the erase"
    user_erase(actor=owner_actor(erased_owner))
    assert not in_index()
    assert _in_statistics(MARKER) == []


def _is_index(file: Path, index: str) -> bool:
    with connection.cursor() as cur:
        cur.execute("SELECT pg_relation_filepath(%s::regclass)", [index])
        return file.name.split(".")[0] == Path(cur.fetchone()[0]).name


def test_statistics_never_hold_the_keys_of_the_lexeme_index(erased_owner: User) -> None:
    """The search index's keys are lexeme hashes (a dictionary recovers them): no sample of them
    in pg_statistic either."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(*) FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid"
            " WHERE c.relname = %s",
            [LEXEME_INDEX],
        )
        assert cur.fetchone()[0] == 0


def test_an_erase_drops_the_users_search_index_from_this_process(erased_owner: User) -> None:
    """The in-memory search index holds the user's vectors and lexeme keys: the process that
    erases drops it at once (other processes at their next sweep, as
    docs/guide/export-delete-erase.md says: tests/memories/search/test_sweep.py)."""
    actor = owner_actor(erased_owner)
    memory_search(actor=actor, query="my therapist on Tuesday")
    key = search_index._key(erased_owner.pk)
    assert search_index._indexes.get(key) is not None
    user_erase(actor=actor)
    assert search_index._indexes.get(key) is None
    assert not [k for k in search_index._visible._entries if k[:2] == key]


def test_another_process_with_an_index_from_before_the_erase_reads_the_user_again(
    erased_owner: User,
) -> None:
    """A process that did not run the erase still holds the old index; when the user writes
    again, it must not bring that index up to date from the new change log (which knows nothing
    of the erased memories) but read the user in full."""
    actor = owner_actor(erased_owner)
    memory_search(actor=actor, query="therapist")
    key = search_index._key(erased_owner.pk)
    stale = search_index._indexes.get(key)
    user_erase(actor=actor)
    search_index._indexes.put(key, stale, stale.nbytes, search_index.budget_bytes())
    actor = owner_actor(erased_owner)  # the erase removed the door the old actor named
    memory_create(actor=actor, text=f"My {MARKER} appointment moved to Wednesday")
    hits = memory_search(actor=actor, query=f"{MARKER} therapist", min_score=0)
    search_index.clear()  # what a process that never saw the user finds
    fresh = memory_search(actor=actor, query=f"{MARKER} therapist", min_score=0)
    assert [(h.memory.id, h.score) for h in hits] == [(h.memory.id, h.score) for h in fresh]
    assert len(hits) == 1
