"""A machine's copy of its users' search snapshots (and its apps' masks), as files every worker
process maps.

Why (issue 29): each worker otherwise reads a user's snapshot from PostgreSQL at its first search
of that user (160 ms at 50,000 memories), and again after every restart or recycling; and an app's
search then asks PostgreSQL which of those memories the app may see (another 100-250 ms at 50,000:
every row of the user is read). The same bytes in files under the data folder are mapped by every
worker of the machine from the page cache in milliseconds, shared between them, and survive
restarts.

PostgreSQL stays the authority. A user's folder holds one snapshot value
(`memories/search/snapshot.py`) behind a header naming its user, generation and time written,
used only while the user's snapshot row is that very value (checked by the statement that would
otherwise read the row), and the masks of the apps that searched it at that generation, each
used only with that snapshot. A memory deleted for good drops the row (migration
`search_snapshot`); the folder goes with it:
- on this machine, when the purge or erase commits (`remove`);
- on any machine, at the next use of the snapshot or the next sweep (`sweep`), whichever comes
  first. Every server process sweeps when it starts and then every SEARCH_CACHE_SWEEP_SECONDS
  (`memories.search.index.start_sweeper`), whether it ever searched or not.
A file is written to a private temporary name and renamed into place (the snapshot flushed to
disk first, a mask checked by its checksum), then checked against its row again, so a purge that
committed while it was being written still removes it. The sweep removes whatever it cannot read
as ours (a file where a folder should be, a torn or foreign snapshot, a name it does not know),
one entry's failure never stopping it; every folder is the server user's alone (0700).

The files hold no text. Their lexeme keys are salted with the user's secret
(`SearchStats.salt`, in the database only; migration `search_key_salt`), so hashing a dictionary
of words finds nothing in them, and an erase deletes the salt with the user's rows.
docs/guide/export-delete-erase.md says what remains where, and for how long.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import mmap
import os
import shutil
import stat
import time
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import numpy as np
from django.conf import settings
from django.db import connection

from kernel.tenancy import cross_tenant

logger = logging.getLogger(__name__)

# The format's version (2: the lexemes of migration `memory_language`); another is refused.
_MAGIC = b"CLSFILE2"
_MASK_MAGIC = b"CLSMASK1"
# Both kinds of file: magic, user, the snapshot's generation and time written (microseconds since
# the epoch), then the length of what follows (bytes of the value; rows of a mask) and, for a
# mask, the CRC-32 of its bits.
_HEADER = np.dtype(
    [
        ("magic", "S8"),
        ("owner", "<i8"),
        ("generation", "<i8"),
        ("written_us", "<i8"),
        ("size", "<i8"),
        ("crc", "<u4"),
        ("pad", "V20"),
    ]
)
_DATA_AT = _HEADER.itemsize  # 64: the value's arrays keep their 16-byte alignment
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SNAPSHOT = "index.snap"
_MASK_SUFFIX = ".mask"
# An app's masks kept per user (the most recently written): a search filter is part of a mask's
# view, so filtered searches would otherwise leave a file each.
MASKS_PER_USER = 8
# A temporary file left by a writer that died is removed by the sweep after this long.
_STALE_TEMPORARY_SECONDS = 3600


def _micros(at: datetime) -> int:
    return (at - _EPOCH) // timedelta(microseconds=1)


def _root() -> Path | None:
    """This database's folder of users' folders, or None when SEARCH_SNAPSHOT_DIR is empty. Per
    database name: a test run's database and the real one may share a data folder. (A file is
    used only when its row has the same generation and time written to the microsecond, so two
    servers sharing a folder could waste each other's files, never use them.)"""
    root = settings.SEARCH_SNAPSHOT_DIR
    if not root:
        return None
    return Path(root) / str(connection.settings_dict["NAME"])


def _private_folder(path: Path) -> None:
    """`path` and the folders above it up to SEARCH_SNAPSHOT_DIR, made if missing, each readable
    by the server's user alone: a listing of user folders says whose indexes this machine holds."""
    top = Path(settings.SEARCH_SNAPSHOT_DIR)
    chain = [path, *(p for p in path.parents if p == top or top in p.parents)]
    for level in reversed(chain):
        try:
            level.mkdir(mode=0o700, parents=level == top)
        except FileExistsError:
            continue
        os.chmod(level, 0o700)  # whatever the umask


def folder(owner_id: int) -> Path | None:
    """The user's folder: their snapshot (`index.snap`) and apps' masks (`*.mask`)."""
    root = _root()
    return None if root is None else root / str(owner_id)


def key(owner_id: int) -> str:
    """One name per user and database: a write of the user's file under way is not repeated."""
    return f"snapshot-file:{folder(owner_id)}"


@dataclass(frozen=True)
class Held:
    """The header of a user's snapshot file: the snapshot it claims to copy."""

    generation: int
    written_at: datetime
    path: Path


def _header(path: Path, magic: bytes) -> np.void | None:
    try:
        with path.open("rb") as f:
            raw = f.read(_DATA_AT)
            size = os.fstat(f.fileno()).st_size
    except OSError:
        return None
    if len(raw) < _DATA_AT:
        return None
    header = np.frombuffer(raw, dtype=_HEADER, count=1)[0]
    body = int(header["size"]) if magic == _MAGIC else -(-int(header["size"]) // 8)
    if header["magic"] != magic or size != _DATA_AT + body:
        return None
    return header


def held(owner_id: int) -> Held | None:
    """Which snapshot this machine's file of the user claims to hold, if it has a whole one."""
    where = folder(owner_id)
    header = None if where is None else _header(where / _SNAPSHOT, _MAGIC)
    if where is None or header is None or int(header["owner"]) != owner_id:
        return None
    written_at = _EPOCH + timedelta(microseconds=int(header["written_us"]))
    return Held(int(header["generation"]), written_at, where / _SNAPSHOT)


def map_value(file: Held) -> memoryview | None:
    """The snapshot value of `file`, mapped read-only and shared with every process that maps
    it (its pages read in now, not at the first search). None when the file was replaced since
    its header was read."""
    try:
        with file.path.open("rb") as f:
            if hasattr(mmap, "MAP_POPULATE"):  # Linux: the pages mapped in one call
                flags = mmap.MAP_SHARED | mmap.MAP_POPULATE
                mapped = mmap.mmap(f.fileno(), 0, flags=flags, prot=mmap.PROT_READ)
            else:
                mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
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


def _place(path: Path, header: np.ndarray, body: bytes | bytearray, *, durable: bool) -> bool:
    """Write `header` and `body` to a private temporary name, then rename it to `path`."""
    temporary = path.with_name(f".{os.getpid()}.{time.monotonic_ns()}.tmp")
    try:
        _private_folder(path.parent)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(header.tobytes())
                f.write(body)
                if durable:
                    f.flush()
                    os.fsync(f.fileno())  # whole on disk before it has its name: never torn
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
    except OSError:
        logger.exception("search file %s not written", path.name)
        return False
    return True


_ROW_SQL = """
SELECT 1 FROM memories_searchsnapshot p
WHERE p.owner_id = %(owner)s AND p.generation = %(generation)s AND p.written_at = %(written_at)s
"""


def _still_current(owner_id: int, generation: int, written_at: datetime) -> bool:
    """Whether the user's snapshot row is still this one; when not, the user's folder goes. A
    purge that committed while a file was being written found no file to remove: this look comes
    after the file is in place (a purge committing after it removes the file itself)."""
    with connection.cursor() as cur:
        cur.execute(
            _ROW_SQL, {"owner": owner_id, "generation": generation, "written_at": written_at}
        )
        current = cur.fetchone() is not None
    if not current:
        remove(owner_id)
    return current


def write(owner_id: int, generation: int, written_at: datetime, value: bytes | bytearray) -> bool:
    """Copy the user's snapshot row (its generation, time written and value) into this machine's
    file; False when files are off, the write failed, or the row changed meanwhile (then no file
    is left behind)."""
    where = folder(owner_id)
    if where is None:
        return False
    header = np.zeros(1, dtype=_HEADER)
    header[0] = (_MAGIC, owner_id, generation, _micros(written_at), len(value), 0, b"\0" * 20)
    if not _place(where / _SNAPSHOT, header, value, durable=True):
        return False
    return _still_current(owner_id, generation, written_at)


def view_digest(filters: str, key: tuple[object, ...]) -> str:
    """A name for an app's view (its consent rule and the values in it) that every process
    computes alike."""
    return hashlib.sha256(repr((filters, key)).encode()).hexdigest()[:32]


def read_mask(
    owner_id: int, generation: int, written_at: datetime, digest: str, rows: int
) -> np.ndarray | None:
    """The mask of the view `digest` over the rows of the user's snapshot (generation, time
    written), if one was written for that very snapshot and is whole."""
    where = folder(owner_id)
    if where is None:
        return None
    path = where / f"{digest}{_MASK_SUFFIX}"
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    if len(raw) < _DATA_AT:
        return None
    header = np.frombuffer(raw, dtype=_HEADER, count=1)[0]
    bits = raw[_DATA_AT:]
    whole = (
        header["magic"] == _MASK_MAGIC
        and int(header["owner"]) == owner_id
        and int(header["size"]) == rows
        and len(bits) == -(-rows // 8)
        and int(header["crc"]) == zlib.crc32(bits)
    )
    if not whole or (int(header["generation"]), int(header["written_us"])) != (
        generation,
        _micros(written_at),
    ):
        return None
    return np.unpackbits(np.frombuffer(bits, dtype=np.uint8), count=rows).astype(bool)


def write_mask(
    owner_id: int, generation: int, written_at: datetime, digest: str, mask: np.ndarray
) -> bool:
    """Keep the mask of the view `digest` over the rows of the user's snapshot (generation,
    time written) for every process of the machine."""
    where = folder(owner_id)
    if where is None or not (where / _SNAPSHOT).exists():
        return False
    bits = np.packbits(mask.astype(bool)).tobytes()
    header = np.zeros(1, dtype=_HEADER)
    header[0] = (
        _MASK_MAGIC,
        owner_id,
        generation,
        _micros(written_at),
        len(mask),
        zlib.crc32(bits),
        b"\0" * 20,
    )
    if not _place(where / f"{digest}{_MASK_SUFFIX}", header, bits, durable=False):
        return False
    masks = sorted(where.glob(f"*{_MASK_SUFFIX}"), key=_mtime, reverse=True)
    for old in masks[MASKS_PER_USER:]:
        old.unlink(missing_ok=True)
    return _still_current(owner_id, generation, written_at)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def remove(owner_id: int) -> None:
    """Remove this machine's files of the user (a purge or erase committed; they are stale)."""
    where = folder(owner_id)
    if where is not None:
        _discard(where)


def _discard(path: Path) -> None:
    """Remove a file, a link (never what it points to) or a folder and all it holds."""
    try:
        if path.is_symlink() or not path.is_dir():
            path.unlink(missing_ok=True)
        else:
            shutil.rmtree(path, ignore_errors=True)
    except OSError:
        logger.warning("search file %s not removed", path.name)


_ROWS_SQL = """
SELECT p.owner_id, p.generation, p.written_at FROM memories_searchsnapshot p
WHERE p.owner_id = ANY(%(owners)s)
"""


def sweep() -> int:
    """Remove the folder of every user whose snapshot row is not the one this machine's file
    copies (dropped by a purge or an erase on another machine, or rewritten since), every entry
    that is not a user's folder holding a whole snapshot of theirs (a file or a link where a
    folder should be, a torn or foreign snapshot, an unknown name), masks of older snapshots, and
    temporary files a writer left; returns how many users' folders went. One entry that cannot
    be read or removed is logged and skipped: the sweep of the others goes on."""
    root = _root()
    if root is None:
        return 0
    try:
        entries = list(os.scandir(root))
        for level in (root.parent, root):  # also folders an earlier version made 0755
            if stat.S_IMODE(level.stat().st_mode) != 0o700:
                os.chmod(level, 0o700)
    except FileNotFoundError:
        return 0
    except NotADirectoryError:
        _discard(root)
        return 0
    held_by: dict[int, tuple[int, int]] = {}
    gone = 0
    for entry in entries:
        path = Path(entry.path)
        try:
            if not (entry.name.isdigit() and entry.is_dir(follow_symlinks=False)):
                _discard(path)
                continue
            owner = int(entry.name)
            snapshot = _whole_snapshot(path, owner)
            if snapshot is False:  # torn, foreign, or not a file: nothing in it is usable
                _discard(path)
                gone += 1
            elif snapshot is None:
                _tidy(path, None)
            else:
                held_by[owner] = snapshot
        except OSError:
            logger.warning("search sweep skipped %s", entry.name, exc_info=True)
    if held_by:
        reason = "the sweep checks this machine's search snapshot files against their users' rows"
        with cross_tenant(reason), connection.cursor() as cur:
            cur.execute(_ROWS_SQL, {"owners": list(held_by)})
            rows = {int(o): (int(g), _micros(w)) for o, g, w in cur.fetchall()}
        for owner, snapshot in held_by.items():
            try:
                if rows.get(owner) != snapshot:
                    remove(owner)
                    gone += 1
                else:
                    _tidy(root / str(owner), snapshot)
            except OSError:
                logger.warning("search sweep skipped %s", owner, exc_info=True)
    return gone


def _whole_snapshot(where: Path, owner: int) -> tuple[int, int] | Literal[False] | None:
    """The (generation, time written) of the user's whole snapshot file in `where`; None when
    there is none (a first write may be under way); False when what is there is not one."""
    path = where / _SNAPSHOT
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return None
    header = _header(path, _MAGIC) if stat.S_ISREG(mode) else None
    if header is None or int(header["owner"]) != owner:
        return False
    return int(header["generation"]), int(header["written_us"])


def _tidy(where: Path, snapshot: tuple[int, int] | None) -> None:
    """Remove the masks of another snapshot than `snapshot` (all of them without one), stale
    temporary files and anything else that is not ours; a folder left empty goes too."""
    for entry in os.scandir(where):
        path = Path(entry.path)
        regular = entry.is_file(follow_symlinks=False)
        if entry.name.endswith(".tmp") and regular:
            if time.time() - _mtime(path) > _STALE_TEMPORARY_SECONDS:
                path.unlink(missing_ok=True)
        elif entry.name.endswith(_MASK_SUFFIX) and regular:
            header = _header(path, _MASK_MAGIC)
            if header is None or snapshot != (
                int(header["generation"]),
                int(header["written_us"]),
            ):
                path.unlink(missing_ok=True)
        elif not (entry.name == _SNAPSHOT and regular):
            _discard(path)
    if stat.S_IMODE(where.stat().st_mode) != 0o700:
        os.chmod(where, 0o700)
    with contextlib.suppress(OSError):
        where.rmdir()  # only when empty
