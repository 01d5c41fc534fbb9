"""A user's search index as one value in PostgreSQL (`SearchSnapshot`): the cold path.

Why: a process that does not hold a user's index (a new worker, a user evicted from the cache, a
user searched for the first time today) otherwise reads every memory row and PostgreSQL builds the
index from them: two seconds for 50,000 memories (issue 29), paid again by every worker. The
snapshot is the index's own arrays, laid end to end in one `bytea`, little-endian, each at a
16-byte boundary: one statement per 4 MB reads it into one buffer, and numpy views that
buffer without copying or building a Python object per memory (the process's memory grows by the
index and one slice).

The snapshot is read at a generation (`SearchStats.generation`) and brought up to the user's
current one from the change log, as an index held in memory is (`search_index.refresh`). It is
written by the search path after a full read, and rewritten when a cold load had to read many
changes or it is older than half the change log's reach; a write is kept only if the user's
generation is still the one read (checked under a lock the delete trigger also takes, migration
`search_snapshot`), so a snapshot never holds a memory deleted for good.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import psycopg
from django.conf import settings
from django.db import DatabaseError, connection, transaction

from memories.search import snapshot_files
from memories.search.background import writer
from memories.search.embeddings import DIMENSIONS

logger = logging.getLogger(__name__)

# The format's version: 02 since lexemes carry their language's prefix and text without spaces
# is segmented (migration `memory_language`); a value of another version is read in full instead.
_MAGIC = b"CLSNAP02"
_HEADER = np.dtype([("magic", "S8"), ("memories", "<i8"), ("postings", "<i8")])
_ID = np.dtype([("hi", "<u8"), ("lo", "<u8")])
# The index's arrays (`user_index.UserIndex`), in order: per memory, then per posting.
PER_MEMORY: tuple[tuple[str, np.dtype, tuple[int, ...]], ...] = (
    ("ids", np.dtype(np.uint8), (16,)),
    ("has_vector", np.dtype(np.bool_), ()),
    ("echo", np.dtype(np.bool_), ()),
    ("matrix", np.dtype("<f4"), (DIMENSIONS,)),
    ("norms", np.dtype("<f4"), ()),
    ("dl", np.dtype("<f8"), ()),
    ("id_order", np.dtype("<i8"), ()),
    ("id_sorted", _ID, ()),
)
PER_POSTING: tuple[tuple[str, np.dtype, tuple[int, ...]], ...] = (
    ("keys", np.dtype("<i8"), ()),
    ("rows", np.dtype("<i4"), ()),
    ("tf", np.dtype("<f8"), ()),
)
FIELDS = PER_MEMORY + PER_POSTING
_ALIGN = 16


def _layout(memories: int, postings: int) -> tuple[list[tuple[str, np.dtype, tuple, int]], int]:
    """Each array's (name, dtype, shape, offset), and the value's total size."""
    at = _HEADER.itemsize
    placed = []
    for count, fields in ((memories, PER_MEMORY), (postings, PER_POSTING)):
        for name, dtype, tail in fields:
            at = -(-at // _ALIGN) * _ALIGN
            shape = (count, *tail)
            placed.append((name, dtype, shape, at))
            at += dtype.itemsize * int(np.prod(shape))
    return placed, at


def pack(arrays: Mapping[str, np.ndarray]) -> bytearray:
    """The arrays as one value (one buffer, written in place: no second copy of the index)."""
    memories, postings = len(arrays["ids"]), len(arrays["keys"])
    placed, size = _layout(memories, postings)
    out = bytearray(size)
    header = np.frombuffer(out, dtype=_HEADER, count=1)
    header[0] = (_MAGIC, memories, postings)
    for name, dtype, shape, at in placed:
        target = np.frombuffer(out, dtype=dtype, count=int(np.prod(shape)), offset=at)
        target.reshape(shape)[...] = arrays[name]
    return out


def unpack(data: bytes | bytearray | memoryview) -> dict[str, np.ndarray]:
    """Read-only views of the arrays in `data` (which they keep alive)."""
    header = np.frombuffer(data, dtype=_HEADER, count=1)[0]
    if header["magic"] != _MAGIC:
        raise ValueError("not a search snapshot of this version")
    placed, size = _layout(int(header["memories"]), int(header["postings"]))
    if size != len(data):
        raise ValueError("a search snapshot of the wrong size")
    arrays = {
        name: np.frombuffer(data, dtype=dtype, count=int(np.prod(shape)), offset=at).reshape(shape)
        for name, dtype, shape, at in placed
    }
    for array in arrays.values():
        array.flags.writeable = False  # an index is never changed once built
    return arrays


@dataclass(frozen=True)
class Snapshot:
    generation: int
    written_at: datetime
    arrays: dict[str, np.ndarray]
    # Where the value came from: this machine's file ("file") or the row ("database").
    source: str = "database"


# Read in slices (a substring of an uncompressed value fetches only its own TOAST chunks) into
# one buffer: the process never holds the whole value twice (libpq's result and Python's bytes
# of it), only the index and one slice (twice: libpq's and Python's), 8 MB. A value of one slice (up
# to ~2,500 memories) is read in one statement and used as it arrived. Why 4 MB: of 2, 4, 8, 16
# and 32 MB, 2-4 MB cost the least CPU (client and server together: 34 ms at 10,000 memories,
# 180 ms at 50,000, against 68 and 424 ms for 32 MB; docs/benchmarks.md, issue 29). Every
# slice comes with the snapshot's generation and time, so a snapshot rewritten between two
# slices is noticed (and the user read in full).
_SLICE = 4 * 2**20
# No slice at all when this machine's file holds the very value (`snapshot_files`).
_FIRST_SQL = """
SELECT p.generation, p.written_at, length(p.data),
       CASE WHEN p.generation = %(file_generation)s AND p.written_at = %(file_written_at)s
            THEN NULL ELSE substring(p.data FROM 1 FOR %(n)s) END
FROM memories_searchsnapshot p WHERE p.owner_id = %(owner)s
"""
_SLICE_SQL = """
SELECT p.generation, p.written_at, substring(p.data FROM %(at)s FOR %(n)s)
FROM memories_searchsnapshot p WHERE p.owner_id = %(owner)s
"""


def read(owner_id: int) -> Snapshot | None:
    """The user's snapshot, or None (none written, dropped by a delete, or rewritten while it
    was being read): mapped from this machine's file when that holds the row's very value, else
    read from the row (and copied into the file on a thread of its own)."""
    file = snapshot_files.held(owner_id)
    args = {
        "owner": owner_id,
        "n": _SLICE,
        "file_generation": file.generation if file else None,
        "file_written_at": file.written_at if file else None,
    }
    connection.ensure_connection()
    # Binary results: the bytea arrives as bytes, not as hex text.
    with psycopg.Cursor(connection.connection) as cur:
        cur.execute(_FIRST_SQL, args, binary=True)
        row = cur.fetchone()
        if row is None:
            if file is not None:
                snapshot_files.remove(owner_id)  # its row went with a memory deleted for good
            return None
        generation, written_at, size, first = row
        if first is None and file is not None:
            mapped = snapshot_files.map_value(file)
            if mapped is not None:
                try:
                    arrays = unpack(mapped)
                except ValueError:
                    logger.warning("search snapshot file of user %s unreadable", owner_id)
                else:
                    return Snapshot(int(generation), written_at, arrays, source="file")
            # Replaced or unreadable since its header was read: read the row instead.
            cur.execute(_SLICE_SQL, {"owner": owner_id, "at": 1, "n": _SLICE}, binary=True)
            again = cur.fetchone()
            if again is None or (again[0], again[1]) != (generation, written_at):
                return None
            first = again[2]
        data: bytes | bytearray = first  # the whole value when it is one slice (no copy)
        at = len(first)
        if at < size:
            data = buffer = bytearray(size)
            buffer[:at] = first
            del first, row
            while at < size:
                cur.execute(_SLICE_SQL, {"owner": owner_id, "at": at + 1, "n": _SLICE}, binary=True)
                again = cur.fetchone()
                if again is None or (again[0], again[1]) != (generation, written_at):
                    return None
                buffer[at : at + len(again[2])] = again[2]
                at += len(again[2])
    return _from_row(owner_id, int(generation), written_at, data)


def _from_row(
    owner_id: int, generation: int, written_at: datetime, data: bytes | bytearray
) -> Snapshot | None:
    """The snapshot whose value was read from its row, copied into this machine's file on a
    thread of its own (when there are files); None when the value is unreadable."""
    try:
        arrays = unpack(data)
    except ValueError:
        logger.warning("search snapshot of user %s unreadable: read in full", owner_id)
        return None
    if settings.SEARCH_SNAPSHOT_DIR:
        # The arrays are views of `data`: the copy holds no second buffer.
        writer.run(
            snapshot_files.key(owner_id),
            lambda: snapshot_files.write(owner_id, generation, written_at, data),
            name="search-snapshot-file",
        )
    return Snapshot(generation=generation, written_at=written_at, arrays=arrays)


# Kept only while the user's generation is still the one the index was read at: the statistics
# row is locked (FOR SHARE) for the check, and a delete of one of the user's memories locks it
# (FOR UPDATE) before it drops the snapshot (migration `search_snapshot`).
_WRITE_SQL = """
INSERT INTO memories_searchsnapshot AS p (owner_id, generation, written_at, memories, data)
SELECT s.owner_id, s.generation, now(), %(memories)s, %(data)s
FROM memories_searchstats s
WHERE s.owner_id = %(owner)s AND s.generation = %(generation)s
FOR SHARE OF s
ON CONFLICT (owner_id) DO UPDATE
SET generation = excluded.generation, written_at = excluded.written_at,
    memories = excluded.memories, data = excluded.data
WHERE p.generation < excluded.generation
RETURNING p.written_at
"""


def write(owner_id: int, generation: int, arrays: Mapping[str, np.ndarray]) -> bool:
    """Store the user's index read at `generation`; False when the user's memories changed since
    (nothing is written) or the write failed (the search goes on: the snapshot is a cache)."""
    data = pack(arrays)
    args = {"owner": owner_id, "generation": generation, "memories": len(arrays["ids"])}
    try:
        with transaction.atomic():
            connection.ensure_connection()
            with psycopg.Cursor(connection.connection) as cur:
                cur.execute(_WRITE_SQL, {**args, "data": data})
                row = cur.fetchone()
    except (DatabaseError, psycopg.Error):
        logger.exception("search snapshot of user %s not written", owner_id)
        return False
    if row is None:
        return False
    # This machine's workers map the same value from a file from now on.
    snapshot_files.write(owner_id, generation, row[0], data)
    return True
