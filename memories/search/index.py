"""A per-process, in-memory search index of recently searched users: their vectors and postings,
scored in numpy, used only at the generation it was read at and bounded by SEARCH_CACHE_MB; a user
whose index would not fit is searched in PostgreSQL. Why and how it stays coherent:
ARCHITECTURE.md ("The in-memory index")."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from django.conf import settings
from django.db import connection
from django.utils import timezone

from kernel.tenancy import cross_tenant
from memories.search import moves, snapshot_files
from memories.search import snapshot as search_snapshot
from memories.search.background import writer
from memories.search.embeddings import DIMENSIONS
from memories.search.lru import Lru
from memories.search.sql import ELIGIBLE, KEY_SALT
from memories.search.user_index import Postings, UserIndex, predicted_bytes

logger = logging.getLogger(__name__)

# The user's searchable memories (`memories.search.sql.ELIGIBLE`: the rows the stats trigger
# counts, and apps' echoes), each with whether the caller's view admits it (`seen`; true without a
# view) and whether it is an echo, numbered in the order they were read; per memory one fixed-size
# record, per (memory, lexeme) one posting, each as one bytea. COPY would send a message per row,
# which psycopg turns into a Python call per row (seconds for 50,000 memories). With `since`,
# only the memories changed after that generation, and the ids of every memory changed (those
# gone included). One statement, one snapshot: the generation read with the rows is exactly
# theirs, and so is the model of the user's vectors (`moves`): a vector of another is none.
_READ_SQL = f"""
WITH {{changed}}
live AS MATERIALIZED (SELECT {moves.LIVE_MODEL_SQL} AS model),
u AS MATERIALIZED (
    SELECT (row_number() OVER ())::int4 - 1 AS r, x.* FROM (
        SELECT m.id, m.tsv, {{seen}} AS seen, m.echo_of_id IS NOT NULL AS echo,
               coalesce(m.embedding_model = (SELECT live.model FROM live)
                        AND m.embedding IS NOT NULL, false) AS vec,
               m.embedding
        FROM memories_memory m
        WHERE m.owner_id = %(owner)s AND {ELIGIBLE}
          {{only}}
    ) x
)
SELECT
    (SELECT s.generation FROM memories_searchstats s WHERE s.owner_id = %(owner)s),
    (SELECT s.changes_from FROM memories_searchstats s WHERE s.owner_id = %(owner)s),
    (SELECT live.model FROM live),
    (SELECT string_agg(
         int4send(u.r) || uuid_send(u.id)
         || CASE WHEN u.vec THEN '\\x01'::bytea ELSE '\\x00'::bytea END
         || CASE WHEN u.seen THEN '\\x01'::bytea ELSE '\\x00'::bytea END
         || CASE WHEN u.echo THEN '\\x01'::bytea ELSE '\\x00'::bytea END
         || int4send(coalesce(length(u.tsv), 0))
         || vector_send(CASE WHEN u.vec THEN u.embedding
                             ELSE array_fill(0, ARRAY[{DIMENSIONS}])::vector END),
         ''::bytea)
     FROM u),
    (SELECT string_agg(
         int4send(u.r) || int8send(hashtextextended(l.lexeme, {KEY_SALT}))
         || int4send(coalesce(array_length(l.positions, 1), 1)),
         ''::bytea)
     FROM u, unnest(u.tsv) l),
    {{changed_ids}}
"""  # noqa: S608 - only constants; values are bound parameters
_DOC = np.dtype(
    [
        ("r", ">i4"),
        ("id", "V16"),
        ("vec", "u1"),
        ("seen", "u1"),
        ("echo", "u1"),
        ("dl", ">i4"),
        ("dims", ">u2"),
        ("pad", ">u2"),
        ("vector", ">f4", (DIMENSIONS,)),
    ]
)
_POSTING = np.dtype([("r", ">i4"), ("key", ">i8"), ("tf", ">i4")])
# The refresh's parts: every memory changed after `since` (those gone included), and the echoes
# of those memories: whether an app sees its echo depends on whether it sees the memory echoed.
_CHANGED = """
logged AS (
    SELECT c.memory_id FROM memories_searchchange c
    WHERE c.owner_id = %(owner)s AND c.generation > %(since)s
),
changed AS (
    SELECT memory_id FROM logged
    UNION
    SELECT e.id FROM memories_memory e
    WHERE e.owner_id = %(owner)s AND e.echo_of_id IN (SELECT memory_id FROM logged)
),"""
_ONLY_CHANGED = "AND m.id IN (SELECT memory_id FROM changed)"
_CHANGED_IDS = "(SELECT string_agg(uuid_send(c.memory_id), ''::bytea) FROM changed c)"

# A later caller's view of an index already read: the ids of the memories it may see.
_VISIBLE_SQL = """
SELECT (SELECT s.generation FROM memories_searchstats s WHERE s.owner_id = %(owner)s),
       (SELECT string_agg(uuid_send(m.id), ''::bytea) FROM memories_memory m WHERE {filters})
"""


def _raw_ids(raw: bytes | None) -> np.ndarray:
    return np.frombuffer(raw or b"", dtype=np.uint8).reshape(-1, 16)


@dataclass(frozen=True)
class View:
    """A caller who sees less than the owner: the filters (consent, category) and their values."""

    filters: str
    params: dict[str, Any]
    key: tuple[Any, ...]


@dataclass(frozen=True)
class _Read:
    generation: int | None
    changes_from: int | None
    model: str  # the model of the user's vectors (those of another are read as none)
    docs: np.ndarray  # _DOC records, by r
    postings: np.ndarray  # _POSTING records
    changed: np.ndarray  # (c, 16) ids changed since `since` (refresh only)


def _read(owner_id: int, view: View | None, since: int | None = None) -> _Read:
    """Every searchable memory of the user, or (`since`) those changed after that generation."""
    seen = f"({view.filters})" if view else "true"
    args = {**(view.params if view else {}), "owner": owner_id, **moves.live_params()}
    if since is None:
        sql = _READ_SQL.format(changed="", only="", changed_ids="NULL::bytea", seen=seen)
    else:
        sql = _READ_SQL.format(
            changed=_CHANGED, only=_ONLY_CHANGED, changed_ids=_CHANGED_IDS, seen=seen
        )
        args["since"] = since
    connection.ensure_connection()
    # Server-side binding, results in binary: the bytea values arrive as bytes, not hex text.
    with psycopg.Cursor(connection.connection) as cur:
        cur.execute(sql, args, binary=True)
        generation, changes_from, model, docs_raw, posts_raw, changed_raw = cur.fetchone()  # type: ignore[misc]
    docs = np.frombuffer(docs_raw or b"", dtype=_DOC)
    docs = docs[np.argsort(docs["r"], kind="stable")]
    if len(docs) and not (docs["dims"] == DIMENSIONS).all():
        raise ValueError("unexpected vector dimensions in the search index")
    return _Read(
        generation=None if generation is None else int(generation),
        changes_from=None if changes_from is None else int(changes_from),
        model=str(model),
        docs=docs,
        postings=np.frombuffer(posts_raw or b"", dtype=_POSTING),
        changed=_raw_ids(changed_raw),
    )


def _columns(
    read: _Read,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, Postings]:
    docs = read.docs
    matrix = docs["vector"].astype(np.float32).reshape(-1, DIMENSIONS)
    ids = np.frombuffer(docs["id"].tobytes(), dtype=np.uint8).reshape(-1, 16)
    posts = read.postings
    postings = (
        posts["key"].astype(np.int64),
        posts["r"].astype(np.int32),
        posts["tf"].astype(np.float64),
    )
    flags = docs["vec"].astype(bool), docs["echo"].astype(bool)
    return ids, *flags, matrix, docs["dl"].astype(np.float64), postings


def read_full(owner_id: int, view: View | None = None) -> tuple[UserIndex, np.ndarray | None]:
    """Read the user's searchable memories in one statement; with `view`, also which of them
    that caller may see (a mask)."""
    read = _read(owner_id, view)
    index = UserIndex.build(read.generation, *_columns(read), model=read.model)
    return index, (read.docs["seen"].astype(bool) if view else None)


# Below this many memories a full read (about 4 ms at 200) is as quick as mapping the snapshot's
# file and asking PostgreSQL whether it is current; at 1,000 a full read took 9-33 ms in
# `bench hosted`, the file 2 ms.
SNAPSHOT_MIN_MEMORIES = 200
# A cold load that had to read more changed memories than this share of the index (or than
# SNAPSHOT_REWRITE_CHANGES) writes the snapshot again, as does one from a snapshot older than
# SNAPSHOT_REWRITE_SECONDS (half the change log's hour: the log must still reach back to it).
SNAPSHOT_REWRITE_SHARE = 1 / 16
SNAPSHOT_REWRITE_CHANGES = 256
SNAPSHOT_REWRITE_SECONDS = 30 * 60


def load(
    owner_id: int,
    view: View | None = None,
    generation: int | None = None,
    model: str = "",
) -> tuple[UserIndex, np.ndarray | None]:
    """The user's index for a process that does not hold it: from the user's snapshot brought up
    to date from the change log (`memories/search/snapshot.py`), else read in full (and the
    snapshot written). With `view`, the caller's mask when it came with the read (None after a
    snapshot: `for_user` computes it). A snapshot at `generation` (the user's, as the caller just
    read it with `model`) is used as it is, without asking the change log."""
    snap = search_snapshot.read(owner_id)
    if snap is not None:
        start = UserIndex.from_arrays(snap.generation, snap.arrays, snap.written_at, model)
        if snap.generation == generation:
            return start, None
        # The view's mask of the snapshot's rows (the machine's, else read now and kept for it),
        # brought up to date with them.
        start_mask = _mask(start, owner_id, view, behind=True) if view else None
        found = _refresh(start, owner_id, view, start_mask)
        if found is not None:
            index, mask, changed = found
            age = (timezone.now() - snap.written_at).total_seconds()
            stale = changed > max(SNAPSHOT_REWRITE_CHANGES, len(index) * SNAPSHOT_REWRITE_SHARE)
            if index.generation is not None and (
                stale or (changed and age > SNAPSHOT_REWRITE_SECONDS)
            ):
                _save_later(owner_id, index)
            return index, mask
    index, mask = read_full(owner_id, view)
    if index.generation is not None and len(index) >= SNAPSHOT_MIN_MEMORIES:
        _save_later(owner_id, index)
    return index, mask


def save_snapshot(owner_id: int, index: UserIndex) -> bool:
    """Write `index` as the user's snapshot (kept only if still at the user's generation)."""
    assert index.generation is not None
    arrays = {name: getattr(index, name) for name, *_ in search_snapshot.FIELDS}
    return search_snapshot.write(owner_id, index.generation, arrays)


def _save_later(owner_id: int, index: UserIndex) -> None:
    """Write the snapshot on a thread of its own (`background.writer`), so the search that read
    the index does not wait for it: a 50,000-memory snapshot is 85 MB of TOAST and WAL."""
    writer.run(_key(owner_id), lambda: save_snapshot(owner_id, index), name="search-snapshot")


def refresh(
    old: UserIndex, owner_id: int, view: View | None, old_mask: np.ndarray | None
) -> tuple[UserIndex, np.ndarray | None] | None:
    """`old` brought up to the user's current generation by reading only the memories changed
    since (and `old_mask`, the view's mask at `old`, with it); None when the change log no longer
    reaches back to `old` (read in full then)."""
    found = _refresh(old, owner_id, view, old_mask)
    return None if found is None else found[:2]


def _refresh(
    old: UserIndex, owner_id: int, view: View | None, old_mask: np.ndarray | None
) -> tuple[UserIndex, np.ndarray | None, int] | None:
    """`refresh`, and how many memories changed since `old`."""
    assert old.generation is not None
    read = _read(owner_id, view, since=old.generation)
    switched = bool(old.model) and read.model != old.model  # "": a snapshot's, as it stands
    if read.changes_from is None or read.changes_from > old.generation or switched:
        return None  # the log does not reach back, or the user switched models: read in full
    if read.generation == old.generation:
        return old, old_mask, 0
    keep = np.ones(len(old), dtype=bool)
    gone = old.rows_of(read.changed)
    keep[gone[gone >= 0]] = False
    ids, has_vector, echo, matrix, dl, (keys, rows, tf) = _columns(read)
    renumber = np.cumsum(keep) - 1  # old row -> new row, for the rows kept
    kept_postings = keep[old.rows]
    base = int(keep.sum())
    index = UserIndex.build(
        read.generation,
        np.concatenate([old.ids[keep], ids]),
        np.concatenate([old.has_vector[keep], has_vector]),
        np.concatenate([old.echo[keep], echo]),
        np.concatenate([old.matrix[keep], matrix]),
        np.concatenate([old.dl[keep], dl]),
        (
            np.concatenate([old.keys[kept_postings], keys]),
            np.concatenate([renumber[old.rows[kept_postings]].astype(np.int32), rows + base]),
            np.concatenate([old.tf[kept_postings], tf]),
        ),
        model=read.model,
    )
    mask = None
    if view is not None and old_mask is not None:
        mask = np.concatenate([old_mask[keep], read.docs["seen"].astype(bool)])
    return index, mask, len(read.changed)


# ---- the per-process caches -------------------------------------------------------------------


class SearchCache:
    """One process's search cache: the users' indexes, the callers' masks, and the BM25 totals
    of narrower views (`memories.search.scoring`). A process holds one (`current`); tests and
    `bench coherence` hold several, as several server processes would (`serving`)."""

    def __init__(self) -> None:
        self.indexes = Lru()
        self.visible = Lru()
        self.subsets = Lru()
        # Per user, what apps' echoes add to the predicted size (learnt when an index is read).
        self.echo_bytes = Lru()


_process = SearchCache()
_serving: ContextVar[SearchCache | None] = ContextVar("search_cache", default=None)
# The process's own cache under its old names (tests reach in).
_indexes = _process.indexes
_visible = _process.visible


def current() -> SearchCache:
    """The cache this thread's searches use: the process's, unless `serving` chose another."""
    return _serving.get() or _process


@contextmanager
def serving(cache: SearchCache) -> Iterator[SearchCache]:
    """Search through `cache` within the block, as another server process would."""
    token = _serving.set(cache)
    try:
        yield cache
    finally:
        _serving.reset(token)


_VISIBLE_BUDGET = 16 * 1024 * 1024
_ECHO_ENTRIES = 65536


def budget_bytes() -> int:
    return max(settings.SEARCH_CACHE_MB, 0) * 1024 * 1024


def _key(owner_id: int) -> tuple[str, int]:
    return (str(connection.settings_dict["NAME"]), owner_id)


def _view_key(owner_id: int, index: UserIndex, view: View) -> tuple[Any, ...]:
    """A mask's key: the index it was computed for (its rows, in its order), not its generation."""
    return (*_key(owner_id), index.serial, view.filters, view.key)


def for_user(
    owner_id: int,
    generation: int | None,
    *,
    changes_from: int | None,
    searchable: int,
    postings: int,
    view: View | None = None,
    model: str = "",
) -> tuple[UserIndex, np.ndarray | None] | None:
    """The user's index at `generation` (cached, brought up to date, or read in full) and, with
    `view`, that caller's mask (None if the user's memories changed since the index was read);
    None when the cache is off or the index of the user's `searchable` memories and their
    `postings` would not fit in it (search in PostgreSQL then, without reading anything).
    `model`: the user's, read with `generation`; the index's own (`UserIndex.model`) may be
    newer."""
    budget = budget_bytes()
    cache = current()
    extra = cache.echo_bytes.get(_key(owner_id)) or 0
    if predicted_bytes(searchable, postings) + extra > budget:
        return None
    cached: UserIndex | None = cache.indexes.get(_key(owner_id))
    if cached is not None and cached.generation == generation is not None:
        return cached, (None if view is None else _mask(cached, owner_id, view))
    # Bring it up to date, or read it in full. If a write committed since `generation` was read,
    # this is the newer state, with exactly its generation: good for this search and the cache.
    found = None
    if cached is not None and cached.reached_by(changes_from):
        old_mask = cache.visible.get(_view_key(owner_id, cached, view)) if view else None
        found = refresh(cached, owner_id, view, old_mask)
    index, mask = found or load(owner_id, view, generation, model)
    if index.generation is None:
        return index, mask
    # Kept unless its echoes took it past the budget: then the next search of this user goes to
    # PostgreSQL at once (the echoes' size is remembered), never reads it again.
    cache.echo_bytes.put(_key(owner_id), index.echo_bytes, 1, _ECHO_ENTRIES)
    cache.indexes.put(_key(owner_id), index, index.nbytes, budget)
    start_sweeper()
    if view is None:
        return index, None
    if mask is None:
        return index, _mask(index, owner_id, view)
    cache.visible.put(_view_key(owner_id, index, view), mask, mask.nbytes, _VISIBLE_BUDGET)
    return index, mask


def _kept_mask(owner_id: int, index: UserIndex, view: View) -> np.ndarray | None:
    """The view's mask of a snapshot's rows that this machine kept (`snapshot_files`)."""
    if index.snapshot is None:
        return None
    generation, written_at = index.snapshot
    digest = snapshot_files.view_digest(view.filters, view.key)
    return snapshot_files.read_mask(owner_id, generation, written_at, digest, len(index))


def _mask(
    index: UserIndex, owner_id: int, view: View, *, behind: bool = False
) -> np.ndarray | None:
    """Which rows of `index` the view admits; remembered for this index (and, for a snapshot's
    rows, kept for the machine's other processes: every row of the user is read to compute it).
    None when the user's memories changed since the index was read, unless `behind`: `index` is
    a snapshot about to be brought up to date (`load`), whose every row changed since is read
    again with the view then, while a row unchanged since admits now what it admitted at the
    snapshot's generation (a consent change is a change of the row); so a mask read at any later
    generation serves, this process and the machine's others, until the snapshot is rewritten."""
    key = _view_key(owner_id, index, view)
    mask = current().visible.get(key)
    if mask is not None:
        return mask
    mask = _kept_mask(owner_id, index, view)
    if mask is None:
        mask = _read_mask(index, owner_id, view, behind=behind)
        if mask is None:
            return None
        if index.snapshot is not None:
            generation, written_at = index.snapshot
            digest = snapshot_files.view_digest(view.filters, view.key)
            snapshot_files.write_mask(owner_id, generation, written_at, digest, mask)
    if not behind:  # a snapshot about to be brought up to date is not what the cache holds
        current().visible.put(key, mask, mask.nbytes, _VISIBLE_BUDGET)
    return mask


def _read_mask(index: UserIndex, owner_id: int, view: View, *, behind: bool) -> np.ndarray | None:
    """`_mask` read from the table: every row of the user the view admits."""
    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cur:
        cur.execute(
            _VISIBLE_SQL.format(filters=view.filters),
            {**view.params, "owner": owner_id},
            binary=True,
        )
        seen, raw = cur.fetchone()  # type: ignore[misc]
    if seen != index.generation and not behind:
        return None
    rows = index.rows_of(_raw_ids(raw))
    mask = np.zeros(len(index), dtype=bool)
    mask[rows[rows >= 0]] = True
    return mask


def clear() -> None:
    """Forget every cached index (tests; a process that re-embedded the store)."""
    cache = current()
    cache.indexes.clear()
    cache.visible.clear()
    cache.subsets.clear()
    cache.echo_bytes.clear()


def forget(owner_id: int) -> None:
    """Drop this process's copy of a user's index and masks (their vectors and lexeme keys), and
    this machine's snapshot file, at once, as an erase does: other processes drop theirs at their
    next sweep (`sweep`), search for the user or eviction, whichever comes first; other machines
    their file at their next sweep (docs/guide/export-delete-erase.md, "What erase
    guarantees")."""
    key, cache = _key(owner_id), current()
    snapshot_files.remove(owner_id)
    cache.indexes.forget(lambda k: k == key)
    cache.visible.forget(lambda k: k[:2] == key)
    cache.subsets.forget(lambda k: k[:2] == key)
    cache.echo_bytes.forget(lambda k: k == key)


# ---- the sweep: what another process deleted leaves this one's cache within seconds -------------

_STATS_SQL = """
SELECT s.owner_id, s.generation, s.changes_from FROM memories_searchstats s
WHERE s.owner_id = ANY(%(owners)s)
"""


def sweep() -> int:
    """Bring every index this process holds up to its user's current generation (reading only
    the memories changed since), or drop it when that cannot be done (the user was erased, or
    the change log no longer reaches back). Why: a memory deleted, or a user erased, through
    another server process (or this one, without a search since) would otherwise keep its
    vector and lexeme keys in this process's memory until the next search for that user.
    Returns how many indexes were brought up to date or dropped."""
    name, cache = str(connection.settings_dict["NAME"]), current()
    held = {key[1]: index for key, index in cache.indexes.items() if key[0] == name}
    if not held:
        return 0
    reason = "the search cache's sweep reads the generation of each user this process holds"
    with cross_tenant(reason), connection.cursor() as cur:
        cur.execute(_STATS_SQL, {"owners": list(held)})
        stats = {int(o): (int(g), c) for o, g, c in cur.fetchall()}
    swept = 0
    for owner_id, index in held.items():
        generation, changes_from = stats.get(owner_id, (None, None))
        if index.generation == generation is not None:
            continue
        fresh = None
        if index.reached_by(changes_from):
            found = refresh(index, owner_id, None, None)
            fresh = found[0] if found and found[0].generation is not None else None
        key = (name, owner_id)
        cache.indexes.swap(key, index, fresh, fresh.nbytes if fresh else 0, budget_bytes())
        # The masks of the index replaced (a later caller reads its mask of the new one).
        cache.visible.forget(lambda k, key=key, old=index.serial: k[:3] == (*key, old))
        swept += 1
    return swept


class _Sweeper:
    """One daemon thread per process (started when a server process starts: each web worker's
    lifespan, the stdio command; and again with a cached index, so a forked worker starts its
    own) that sweeps at once and then every SEARCH_CACHE_SWEEP_SECONDS on a connection of its
    own: the process's indexes (`sweep`) and the machine's snapshot files
    (`snapshot_files.sweep`). Sweeping from the start, a process that never searches still
    removes what a purge or erase on another machine left in this one's files."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, interval: float) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._stop = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(interval, self._stop), name="search-sweep", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """Stop this process's sweeper and wait for it (tests; a clean shutdown)."""
        with self._lock:
            thread, self._pid, self._thread = self._thread, None, None
            self._stop.set()
        if thread is not None:
            thread.join()

    @staticmethod
    def _run(interval: float, stop: threading.Event) -> None:
        while True:
            for step in (sweep, snapshot_files.sweep):
                try:
                    step()
                except Exception:  # retried at the next sweep; the thread and the other go on
                    logger.exception("search sweep failed")
            connection.close()
            if stop.wait(interval):
                return


sweeper = _Sweeper()


def start_sweeper() -> None:
    """This process's sweeper, once (SEARCH_CACHE_SWEEP_SECONDS=0: none)."""
    interval = settings.SEARCH_CACHE_SWEEP_SECONDS
    if interval > 0:
        sweeper.start(interval)
