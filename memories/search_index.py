"""A per-process, in-memory search index of recently searched users: their vectors and postings.

Why: PostgreSQL pays about a microsecond per row through its executor, so an exact scan of one
user's vectors, or a BM25 pass over the memories matching a common word, grows with the store
(issue 16: 58 ms for the dense scan of 10,000 memories). numpy does the same arithmetic at memory
bandwidth: the dense scan of 10,000 memories takes 0.4 ms, BM25 over thousands of postings well
under a millisecond. Search stays exact: every searchable memory of the user is scored by both
arms (no approximate index, no candidate depth).

Coherence: an index is used only at the generation it was read at. The generation is per user
(`memories_searchstats.generation`), replaced by a trigger in the transaction of every write to
the user's memories (migration 0005) and taken from a sequence, so no two states of a user's
memories ever share a number, even across a rollback. The row fetch after search checks the
consent rule again in SQL, so even an index gone wrong could not show a memory the caller may not
see.

Memory is bounded by `SEARCH_CACHE_MB` (least recently used users go first); a user whose index
would not fit is not cached, and search runs in PostgreSQL instead (`memories/search.py`).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection

DIMS = 384
_HEADER = 19  # PGCOPY signature (11), flags (4), header extension length (4)
_TRAILER = 2
_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"

# The searchable rows (`memories.search.ELIGIBLE`, the same predicate as the stats trigger's),
# in id order; a row's position in that order is its number in the index.
_USER_ROWS = """
    SELECT * FROM memories_memory
    WHERE owner_id = {owner} AND state = 'active' AND superseded_by_id IS NULL
"""
# One fixed-size record per memory: id, has a vector of the current model, vector (zeros when
# not), tsvector length. Field count 2 + (4 + 16) + (4 + 1) + (4 + 4 + 4 * DIMS) + (4 + 4).
_DOCS_SQL = f"""
COPY (
    SELECT m.id, coalesce(m.embedding_model = {{model}} AND m.embedding IS NOT NULL, false),
           CASE WHEN m.embedding_model = {{model}} AND m.embedding IS NOT NULL THEN m.embedding
                ELSE array_fill(0, ARRAY[{DIMS}])::vector END,
           coalesce(length(m.tsv), 0)
    FROM ({_USER_ROWS}) m ORDER BY m.id
) TO STDOUT (FORMAT BINARY)
"""  # noqa: S608 - only constants; the owner and model are bound with sql.Literal
_DOC_RECORD = 2 + 20 + 5 + 8 + 4 * DIMS + 8
# One record per (memory, lexeme): row number, lexeme key, term frequency.
# Field count 2 + (4 + 4) + (4 + 8) + (4 + 4).
_POSTINGS_SQL = f"""
COPY (
    SELECT d.r::int4, hashtextextended(u.lexeme, 0), coalesce(array_length(u.positions, 1), 1)
    FROM (SELECT row_number() OVER (ORDER BY m.id) - 1 AS r, m.tsv FROM ({_USER_ROWS}) m) d,
         unnest(d.tsv) u
) TO STDOUT (FORMAT BINARY)
"""  # noqa: S608 - only constants; the owner is bound with sql.Literal
_POSTING_RECORD = 2 + 8 + 12 + 8

# The visible subset of the searchable rows, as row numbers, with the generation it was read at.
VISIBLE_ROWS_SQL = f"""
SELECT (SELECT s.generation FROM memories_searchstats s WHERE s.owner_id = %(owner)s),
       ARRAY(SELECT m.r FROM (
           SELECT row_number() OVER (ORDER BY u.id) - 1 AS r, u.*
           FROM ({_USER_ROWS.format(owner="%(owner)s")}) u
       ) m WHERE {{filters}} ORDER BY m.r)
"""  # noqa: S608 - only constants; values are bound parameters


def _records(data: bytes, size: int) -> np.ndarray:
    body = len(data) - _HEADER - _TRAILER
    if not data.startswith(_SIGNATURE) or body < 0 or body % size:
        raise ValueError("unexpected COPY output for the search index")
    return np.frombuffer(data, dtype=np.uint8, count=body, offset=_HEADER).reshape(-1, size)


def _be(records: np.ndarray, start: int, dtype: str) -> np.ndarray:
    width = np.dtype(dtype).itemsize
    return np.ascontiguousarray(records[:, start : start + width]).view(dtype).ravel()


@dataclass
class UserIndex:
    """One user's searchable memories at one generation, in id order."""

    generation: int | None
    ids: np.ndarray  # (n, 16) uint8
    has_vector: np.ndarray  # (n,) bool: a vector of the current model
    matrix: np.ndarray  # (n, DIMS) float32, rows L2-normalised (zeros without a vector)
    dl: np.ndarray  # (n,) float64: tsvector length (distinct lexemes), as BM25 counts it
    keys: np.ndarray  # (p,) int64: posting lexeme keys, sorted
    rows: np.ndarray  # (p,) int32: the posting's memory row
    tf: np.ndarray  # (p,) float64: occurrences of the lexeme in that memory
    _by_id: dict[bytes, int] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def nbytes(self) -> int:
        parts = (self.ids, self.has_vector, self.matrix, self.dl, self.keys, self.rows, self.tf)
        return int(sum(a.nbytes for a in parts))

    def memory_id(self, row: int) -> uuid.UUID:
        return uuid.UUID(bytes=self.ids[row].tobytes())

    def row_of(self, memory_id: uuid.UUID) -> int | None:
        if self._by_id is None:
            self._by_id = {self.ids[i].tobytes(): i for i in range(len(self.ids))}
        return self._by_id.get(memory_id.bytes)

    def cosines(self, qvec: np.ndarray) -> np.ndarray:
        """Cosine similarity of every row to `qvec` (NaN for rows without a current vector)."""
        q = np.asarray(qvec, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        sims = (self.matrix @ (q / norm if norm else q)).astype(np.float64)
        sims[~self.has_vector] = np.nan
        return sims

    def postings(self, key: int) -> tuple[np.ndarray, np.ndarray]:
        lo = int(np.searchsorted(self.keys, key, side="left"))
        hi = int(np.searchsorted(self.keys, key, side="right"))
        return self.rows[lo:hi], self.tf[lo:hi]

    def bm25(
        self, keys: Iterable[int], visible: np.ndarray | None, *, k1: float, b: float
    ) -> tuple[np.ndarray, float, float]:
        """BM25 of every row for the query lexemes `keys`, over the `visible` rows (all when
        None), as the full pass computes it: idf from the visible matches, average length of
        the visible rows. Also the query's ideal score (the sum of its lexemes' idf) and the part
        of it from lexemes some visible memory holds."""
        if visible is None:
            n_docs, total = float(len(self)), float(self.dl.sum())
        else:
            n_docs, total = float(visible.sum()), float(self.dl[visible].sum())
        avgdl = max(total / n_docs, 1.0) if n_docs else 1.0
        scores = np.zeros(len(self), dtype=np.float64)
        ideal = known = 0.0
        for key in dict.fromkeys(keys):
            rows, tf = self.postings(key)
            if visible is not None and len(rows):
                keep = visible[rows]
                rows, tf = rows[keep], tf[keep]
            df = float(len(rows))
            idf = float(np.log(1 + (n_docs - df + 0.5) / (df + 0.5)))
            ideal += idf
            if len(rows):
                known += idf
                denom = tf + k1 * (1 - b + b * self.dl[rows] / avgdl)
                scores[rows] += idf * tf * (k1 + 1) / denom
        return scores, ideal, known


def _copy(statement: Any) -> bytes:
    connection.ensure_connection()
    with connection.connection.cursor() as cur, cur.copy(statement) as copy:
        return b"".join(bytes(chunk) for chunk in copy)


def generation(owner_id: int) -> int | None:
    with connection.cursor() as cur:
        cur.execute("SELECT generation FROM memories_searchstats WHERE owner_id = %s", [owner_id])
        row = cur.fetchone()
    return None if row is None else int(row[0])


def load(owner_id: int) -> UserIndex:
    """Read the user's searchable memories (two binary COPYs) and the generation they are.

    The generation is read before and after: equal, no write to this user's memories committed in
    between, so both reads are exactly that generation; different, the index is marked unknown
    (generation None): good for the search at hand, never cached.
    """
    from psycopg import sql

    before = generation(owner_id)
    owner = sql.Literal(owner_id)
    model = sql.Literal(settings.EMBEDDING_MODEL)
    docs = _records(_copy(sql.SQL(_DOCS_SQL).format(owner=owner, model=model)), _DOC_RECORD)
    posts = _records(_copy(sql.SQL(_POSTINGS_SQL).format(owner=owner)), _POSTING_RECORD)
    after = generation(owner_id)
    if len(docs) and not (_be(docs, 31, ">u2") == DIMS).all():
        raise ValueError("unexpected vector dimensions in the search index")
    matrix = np.ascontiguousarray(docs[:, 35 : 35 + 4 * DIMS]).view(">f4").astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    keys = _be(posts, 14, ">i8").astype(np.int64)
    order = np.argsort(keys, kind="stable")
    return UserIndex(
        generation=before if before == after else None,
        ids=docs[:, 6:22].copy(),
        has_vector=docs[:, 26].astype(bool),
        matrix=matrix,
        dl=_be(docs, 35 + 4 * DIMS + 4, ">i4").astype(np.float64),
        keys=keys[order],
        rows=_be(posts, 6, ">i4").astype(np.int32)[order],
        tf=_be(posts, 26, ">i4").astype(np.float64)[order],
    )


# ---- the per-process caches -------------------------------------------------------------------


class Lru:
    """A thread-safe least-recently-used map with a budget (sizes are the caller's units)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[Any, Any] = OrderedDict()
        self._sizes: dict[Any, int] = {}
        self._total = 0

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Any, value: Any, size: int, budget: int) -> None:
        with self._lock:
            if key in self._entries:
                del self._entries[key]
                self._total -= self._sizes.pop(key)
            if size > budget:
                return
            self._entries[key] = value
            self._sizes[key] = size
            self._total += size
            while self._total > budget:
                old, _ = self._entries.popitem(last=False)
                self._total -= self._sizes.pop(old)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._sizes.clear()
            self._total = 0


_indexes = Lru()
_visible = Lru()
# Per searchable memory: id, flag, vector, length, and about fifteen postings.
BYTES_PER_MEMORY = 16 + 1 + 4 * DIMS + 8 + 15 * (8 + 4 + 8)
_VISIBLE_BUDGET = 16 * 1024 * 1024


def budget_bytes() -> int:
    return max(settings.SEARCH_CACHE_MB, 0) * 1024 * 1024


def _key(owner_id: int) -> tuple[str, int]:
    return (str(connection.settings_dict["NAME"]), owner_id)


def for_user(owner_id: int, generation: int | None, *, searchable: int) -> UserIndex | None:
    """The user's index at `generation` (cached or read now), or None when the cache is off or
    the user's `searchable` memories would not fit in it."""
    budget = budget_bytes()
    if searchable * BYTES_PER_MEMORY > budget:
        return None
    index = _indexes.get(_key(owner_id))
    if index is None or index.generation is None or index.generation != generation:
        index = load(owner_id)
        if index.generation is not None:
            _indexes.put(_key(owner_id), index, index.nbytes, budget)
    return index


def visible_rows(
    index: UserIndex, owner_id: int, filters: str, params: dict[str, Any], frozen: tuple[Any, ...]
) -> np.ndarray | None:
    """The rows of `index` that the filters (consent, category) admit, as a mask; remembered per
    generation. None when the user's memories changed since the index was read (reload then)."""
    key = (*_key(owner_id), index.generation, filters, frozen)
    mask = _visible.get(key) if index.generation is not None else None
    if mask is not None:
        return mask
    with connection.cursor() as cur:
        cur.execute(VISIBLE_ROWS_SQL.format(filters=filters), {**params, "owner": owner_id})
        seen, rows = cur.fetchone()
    if seen != index.generation:
        return None
    mask = np.zeros(len(index), dtype=bool)
    mask[np.asarray(rows, dtype=np.intp)] = True
    if index.generation is not None:
        _visible.put(key, mask, mask.nbytes, _VISIBLE_BUDGET)
    return mask


def clear() -> None:
    """Forget every cached index (tests; a process that re-embedded the store)."""
    _indexes.clear()
    _visible.clear()
