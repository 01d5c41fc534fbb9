"""A machine's copy of its users' search snapshots, as files every worker process maps.

Why (issue 29): each worker otherwise reads a user's snapshot from PostgreSQL at its first search
of that user (160 ms at 50,000 memories), and again after every restart or recycling. The same
bytes in a file under the data folder are mapped by every worker of the machine from the page
cache in milliseconds, shared between them, and survive restarts.

PostgreSQL stays the authority. A file holds one snapshot value (`memories/search/snapshot.py`)
behind a header naming its user, generation and time written, and is used only while the user's
snapshot row is that very value (checked by the statement that would otherwise read the row). A
memory deleted for good drops the row (migration `search_snapshot`); the file goes with it:
- on this machine, when the purge or erase commits (`remove`);
- on any machine, at the next use of the file or the next sweep of a process that searched
  (`sweep`, every SEARCH_CACHE_SWEEP_SECONDS), whichever comes first.
A file is written to a private temporary name, flushed to disk and renamed into place, then
checked against its row again, so a purge that committed while it was being written still removes
it. docs/reliability.md says what remains where.
"""

from __future__ import annotations

import hashlib
import logging
import mmap
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from django.conf import settings
from django.db import connection

from kernel.tenancy import cross_tenant

logger = logging.getLogger(__name__)

_MAGIC = b"CLSFILE1"
_HEADER = np.dtype(
    [
        ("magic", "S8"),
        ("owner", "<i8"),
        ("generation", "<i8"),
        ("written_us", "<i8"),  # the row's written_at, in microseconds since the epoch
        ("size", "<i8"),  # the snapshot value's length, after the header
        ("pad", "V24"),
    ]
)
_DATA_AT = _HEADER.itemsize  # 64: the value's arrays keep their 16-byte alignment
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SUFFIX = ".snap"
# A temporary file left by a writer that died is removed by the sweep after this long.
_STALE_TEMPORARY_SECONDS = 3600


def _micros(at: datetime) -> int:
    return (at - _EPOCH) // timedelta(microseconds=1)


def _folder() -> Path | None:
    """This database's folder of snapshot files, or None when SEARCH_SNAPSHOT_DIR is empty. Why
    per database: one data folder may serve a test run's database and the real one, or two
    servers' databases of the same name."""
    root = settings.SEARCH_SNAPSHOT_DIR
    if not root:
        return None
    db = connection.settings_dict
    where = f"{db.get('HOST') or ''}:{db.get('PORT') or ''}/{db['NAME']}"
    return Path(root) / hashlib.sha256(where.encode()).hexdigest()[:16]


def _path(owner_id: int) -> Path | None:
    folder = _folder()
    return None if folder is None else folder / f"{owner_id}{_SUFFIX}"


def key(owner_id: int) -> str:
    """One name per user and database: a write of the user's file under way is not repeated."""
    return str(_path(owner_id))


@dataclass(frozen=True)
class Held:
    """The header of a user's file: the snapshot it claims to copy."""

    generation: int
    written_at: datetime
    path: Path


def _header(path: Path) -> np.void | None:
    try:
        with path.open("rb") as f:
            raw = f.read(_DATA_AT)
            size = os.fstat(f.fileno()).st_size
    except OSError:
        return None
    if len(raw) < _DATA_AT:
        return None
    header = np.frombuffer(raw, dtype=_HEADER, count=1)[0]
    if header["magic"] != _MAGIC or size != _DATA_AT + int(header["size"]):
        return None
    return header


def held(owner_id: int) -> Held | None:
    """Which snapshot this machine's file of the user claims to hold, if it has a whole one."""
    path = _path(owner_id)
    header = None if path is None else _header(path)
    if path is None or header is None or int(header["owner"]) != owner_id:
        return None
    written_at = _EPOCH + timedelta(microseconds=int(header["written_us"]))
    return Held(generation=int(header["generation"]), written_at=written_at, path=path)


def map_value(file: Held) -> memoryview | None:
    """The snapshot value of `file`, mapped read-only and shared with every process that maps
    it (its pages read in now, not at the first search). None when the file was replaced since
    its header was read."""
    try:
        with file.path.open("rb") as f:
            flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
            mapped = mmap.mmap(f.fileno(), 0, flags=flags, prot=mmap.PROT_READ)
    except (OSError, ValueError):
        return None
    header = np.frombuffer(mapped, dtype=_HEADER, count=1)[0]
    same = (int(header["generation"]), int(header["written_us"])) == (
        file.generation,
        _micros(file.written_at),
    )
    if header["magic"] != _MAGIC or not same or len(mapped) != _DATA_AT + int(header["size"]):
        return None
    return memoryview(mapped)[_DATA_AT:]


_ROW_SQL = """
SELECT 1 FROM memories_searchsnapshot p
WHERE p.owner_id = %(owner)s AND p.generation = %(generation)s AND p.written_at = %(written_at)s
"""


def write(owner_id: int, generation: int, written_at: datetime, value: bytes | bytearray) -> bool:
    """Copy the user's snapshot row (its generation, time written and value) into this machine's
    file; False when files are off, the write failed, or the row changed meanwhile (then no file
    is left behind)."""
    path = _path(owner_id)
    if path is None:
        return False
    header = np.zeros(1, dtype=_HEADER)
    header[0] = (_MAGIC, owner_id, generation, _micros(written_at), len(value), b"\0" * 24)
    temporary = path.with_name(f".{owner_id}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(header.tobytes())
                f.write(value)
                f.flush()
                os.fsync(f.fileno())  # whole on disk before it has its name: never a torn file
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
    except OSError:
        logger.exception("search snapshot file of user %s not written", owner_id)
        return False
    # A purge that committed while the file was being written found no file to remove: look
    # again now it is in place (a purge committing after this look removes it itself).
    with connection.cursor() as cur:
        cur.execute(
            _ROW_SQL, {"owner": owner_id, "generation": generation, "written_at": written_at}
        )
        current = cur.fetchone() is not None
    if not current:
        remove(owner_id)
    return current


def remove(owner_id: int) -> None:
    """Remove this machine's file of the user (a purge or erase committed; the file is stale)."""
    path = _path(owner_id)
    if path is not None:
        path.unlink(missing_ok=True)


_ROWS_SQL = """
SELECT p.owner_id, p.generation, p.written_at FROM memories_searchsnapshot p
WHERE p.owner_id = ANY(%(owners)s)
"""


def sweep() -> int:
    """Remove every file of this machine whose user's snapshot row is not the one it copies
    (dropped by a purge or an erase on another machine, or rewritten since), and temporary files
    a writer left; returns how many files went."""
    folder = _folder()
    if folder is None or not folder.is_dir():
        return 0
    files: dict[int, tuple[Path, int, int]] = {}
    removed = 0
    for entry in os.scandir(folder):
        path = Path(entry.path)
        if entry.name.endswith(".tmp"):
            try:
                old = time.time() - entry.stat().st_mtime > _STALE_TEMPORARY_SECONDS
            except FileNotFoundError:
                continue
            if old:
                path.unlink(missing_ok=True)
                removed += 1
            continue
        header = _header(path) if entry.name.endswith(_SUFFIX) else None
        if header is None:
            continue
        files[int(header["owner"])] = (path, int(header["generation"]), int(header["written_us"]))
    if not files:
        return removed
    reason = "the sweep checks this machine's search snapshot files against their users' rows"
    with cross_tenant(reason), connection.cursor() as cur:
        cur.execute(_ROWS_SQL, {"owners": list(files)})
        rows = {int(o): (int(g), _micros(w)) for o, g, w in cur.fetchall()}
    for owner, (path, generation, written_us) in files.items():
        if rows.get(owner) != (generation, written_us):
            path.unlink(missing_ok=True)
            removed += 1
    return removed
