"""One user's searchable memories at one generation as numpy arrays (vectors, lengths, postings
sorted by lexeme key, ids in PostgreSQL's uuid order), and what such an index costs in memory:
what search scores in-process. Apart from `index.py`, which reads, refreshes and caches them."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from memories.search.embeddings import DIMENSIONS

_ID = np.dtype([("hi", "<u8"), ("lo", "<u8")])
Postings = tuple[np.ndarray, np.ndarray, np.ndarray]  # lexeme keys, rows, term frequencies

# What an index holds per memory (id, two flags, vector and its norm, length, place in id order
# and its id there) and per posting (lexeme key, row, count): `UserIndex`'s arrays.
BYTES_PER_MEMORY = 16 + 1 + 1 + 4 * DIMENSIONS + 4 + 8 + np.dtype(np.intp).itemsize + _ID.itemsize
BYTES_PER_POSTING = 8 + 4 + 8


def predicted_bytes(memories: int, postings: int) -> int:
    """The size of the index of `memories` searchable memories holding `postings` (memory,
    lexeme) pairs: the user's statistics (`SearchStats.documents`, `.length`) give both before
    anything is read. Why exact: a memory of a long text holds hundreds of postings, and an
    estimate per memory admitted indexes eight times the budget, read in full at every search
    and never kept (issue 24 item 4)."""
    return memories * BYTES_PER_MEMORY + postings * BYTES_PER_POSTING


def _id_keys(ids: np.ndarray) -> np.ndarray:
    """Memory ids (n, 16 bytes) as sortable (hi, lo) pairs, in the order PostgreSQL sorts uuids."""
    keys = np.empty(len(ids), dtype=_ID)
    keys["hi"] = np.ascontiguousarray(ids[:, :8]).view(">u8").ravel()
    keys["lo"] = np.ascontiguousarray(ids[:, 8:]).view(">u8").ravel()
    return keys


# Each index built gets its own number: a caller's mask is remembered for one index (one row
# order), never for a user and generation, which a refresh and a full read share with different
# row orders (issue 24 item 2).
_serials = itertools.count(1)


@dataclass(frozen=True)
class UserIndex:
    """One user's searchable memories at one generation. Never changed once built: a newer
    generation is a new index (built from this one when only a few memories changed)."""

    generation: int | None
    ids: np.ndarray  # (n, 16) uint8
    has_vector: np.ndarray  # (n,) bool: a vector of the current model
    echo: np.ndarray  # (n,) bool: an app's echo of a memory (never a memory to the owner)
    matrix: np.ndarray  # (n, DIMENSIONS) float32: the vectors as stored (zeros without a vector)
    norms: np.ndarray  # (n,) float32: their lengths (1 without a vector)
    dl: np.ndarray  # (n,) float64: tsvector length (distinct lexemes), as BM25 counts it
    keys: np.ndarray  # (p,) int64: posting lexeme keys, sorted
    rows: np.ndarray  # (p,) int32: the posting's memory row
    tf: np.ndarray  # (p,) float64: occurrences of the lexeme in that memory
    id_order: np.ndarray  # (n,) rows in id order
    id_sorted: np.ndarray  # (n,) _ID: the ids in that order
    # The owner's view (every row but echoes), None when that is every row.
    owner_view: np.ndarray | None
    # This index's own number: the key of the masks computed for its rows.
    serial: int = field(default_factory=lambda: next(_serials), compare=False)
    # The snapshot (generation, time written) whose rows these are, as loaded: the machine's
    # masks of those rows are kept beside it (`snapshot_files`).
    snapshot: tuple[int, datetime] | None = field(default=None, compare=False)
    # The model of the vectors (`has_vector` rows): the user's at `generation` (`moves`).
    model: str = ""

    @classmethod
    def build(
        cls,
        generation: int | None,
        ids: np.ndarray,
        has_vector: np.ndarray,
        echo: np.ndarray,
        matrix: np.ndarray,
        dl: np.ndarray,
        postings: Postings,
        model: str = "",
    ) -> UserIndex:
        keys, rows, tf = postings
        order = np.argsort(keys, kind="stable")
        id_keys = _id_keys(ids)
        id_order = np.argsort(id_keys, order=("hi", "lo"))
        norms = np.linalg.norm(matrix, axis=1).astype(np.float32)
        norms[norms == 0] = 1
        return cls(
            generation=generation,
            ids=ids,
            has_vector=has_vector,
            echo=echo,
            matrix=matrix,
            norms=norms,
            dl=dl,
            keys=keys[order],
            rows=rows[order],
            tf=tf[order],
            id_order=id_order,
            id_sorted=id_keys[id_order],
            owner_view=~echo if echo.any() else None,
            model=model,
        )

    @classmethod
    def from_arrays(
        cls,
        generation: int,
        a: Mapping[str, np.ndarray],
        written_at: datetime | None = None,
        model: str = "",
    ) -> UserIndex:
        """The index whose arrays a snapshot holds (`memories/search/snapshot.py`), as they are;
        `written_at`: that snapshot's time written (its masks are kept with it); `model`: the
        user's model as the caller read it (a switch of models drops the snapshot)."""
        echo = a["echo"]
        return cls(
            model=model,
            snapshot=None if written_at is None else (generation, written_at),
            generation=generation,
            ids=a["ids"],
            has_vector=a["has_vector"],
            echo=echo,
            matrix=a["matrix"],
            norms=a["norms"],
            dl=a["dl"],
            keys=a["keys"],
            rows=a["rows"],
            tf=a["tf"],
            id_order=a["id_order"],
            id_sorted=a["id_sorted"],
            owner_view=~echo if echo.any() else None,
        )

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def nbytes(self) -> int:
        """What the index holds in memory: every array (the few hundred bytes of the object
        itself aside)."""
        return sum(a.nbytes for a in vars(self).values() if isinstance(a, np.ndarray))

    @property
    def echo_bytes(self) -> int:
        """What its apps' echoes add to what the user's statistics reckon (`predicted_bytes`)."""
        own = ~self.echo
        return self.nbytes - predicted_bytes(int(own.sum()), int(self.dl[own].sum()))

    def reached_by(self, changes_from: int | None) -> bool:
        """Whether the user's change log, kept from generation `changes_from`, reaches back to
        this index, so `refresh` can bring it up to date by reading only what changed."""
        return (
            self.generation is not None
            and changes_from is not None
            and (self.generation >= changes_from)
        )

    def memory_id(self, row: int) -> uuid.UUID:
        return uuid.UUID(bytes=self.ids[row].tobytes())

    def rows_of(self, ids: np.ndarray) -> np.ndarray:
        """The row of each id (n, 16 bytes), -1 where the index does not hold it."""
        if not len(ids) or not len(self):
            return np.full(len(ids), -1, dtype=np.intp)
        wanted = _id_keys(ids)
        at = np.minimum(np.searchsorted(self.id_sorted, wanted), len(self) - 1)
        return np.where(self.id_sorted[at] == wanted, self.id_order[at], -1)

    def row_of(self, memory_id: uuid.UUID) -> int | None:
        row = int(self.rows_of(np.frombuffer(memory_id.bytes, dtype=np.uint8).reshape(1, 16))[0])
        return None if row < 0 else row

    def id_keys(self, rows: np.ndarray) -> np.ndarray:
        """The ids of these rows as (hi, lo) pairs: ties between scores are broken by id."""
        return _id_keys(self.ids[rows])

    def cosines(self, qvec: np.ndarray) -> np.ndarray:
        """Cosine similarity of every row to `qvec` (NaN for rows without a current vector), as
        BLAS computes it: within a few 1e-5 of the exact value, but a row's last bits depend on
        its place in the matrix, so these only rank (`memories.search.relevance.exact_cosines`
        scores)."""
        q = np.asarray(qvec, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        sims = (self.matrix @ (q / norm if norm else q)).astype(np.float64) / self.norms
        sims[~self.has_vector] = np.nan
        return sims

    def postings(self, key: int, visible: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """The rows holding lexeme `key` (of those `visible`, all when None) and its count in
        each."""
        lo = int(np.searchsorted(self.keys, key, side="left"))
        hi = int(np.searchsorted(self.keys, key, side="right"))
        rows, tf = self.rows[lo:hi], self.tf[lo:hi]
        if visible is not None and len(rows):
            keep = visible[rows]
            rows, tf = rows[keep], tf[keep]
        return rows, tf
