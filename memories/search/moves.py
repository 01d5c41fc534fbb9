"""Which embedding model a user's vectors are in, and the model they are moving to (issue 36).

A user is searched with one model at a time: the query is embedded with the model of the user's
vectors (`SearchModel.model`, which the search reads in its own statements: `LIVE_MODEL_SQL`), so
a memory is never compared with another model's vector, and a change of EMBEDDING_MODEL loses no
memory from search. The worker (`memories/services/maintenance.py`) embeds each memory again with
the new model beside its live vector (`StagedVector`); once every memory of a user has one, one
transaction switches that user: the staged vectors become the memories' own, the user's search
generation moves on (every process reads the user's index again) and their snapshot goes.

A writer takes the user's row FOR SHARE (`held`) before it writes a vector, and writes a vector
of each model the row names: the live one into the memory, the next one staged beside it. The
switch updates that row, so a write either commits before it (its staged vector moves with the
rest) or waits for it and then writes the new model's vector.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection, transaction

from memories.search.embeddings import get_embedder, vector_literal

# The model of the user's vectors, in a statement that names the user as %(owner)s; a user
# without a row has no memories yet and is on the process's EMBEDDING_MODEL (%(default_model)s).
LIVE_MODEL_SQL = (
    "coalesce((SELECT e.model FROM memories_searchmodel e WHERE e.owner_id = %(owner)s), "
    "%(default_model)s)"
)


def live_params() -> dict[str, str]:
    """What `LIVE_MODEL_SQL` takes beside the owner."""
    return {"default_model": settings.EMBEDDING_MODEL}


@dataclass(frozen=True)
class Models:
    """A user's live model and the one they are moving to ("" when not moving)."""

    live: str
    next: str = ""

    @property
    def written(self) -> tuple[str, ...]:
        """The models a write embeds its text with: the live one, and the next one staged."""
        return (self.live, self.next) if self.next else (self.live,)


_HELD_SQL = """
SELECT e.model, e.next_model FROM memories_searchmodel e WHERE e.owner_id = %(owner)s FOR SHARE
"""
_CREATE_SQL = """
INSERT INTO memories_searchmodel (owner_id, model, next_model)
VALUES (%(owner)s, %(model)s, '') ON CONFLICT (owner_id) DO NOTHING
"""


def held(owner_id: int) -> Models:
    """The user's models, locked (FOR SHARE) until the caller's transaction ends: the switch of
    the user waits for it, so the vectors written in it are of the models returned. A user's
    first memory makes the row, on EMBEDDING_MODEL."""
    if not connection.in_atomic_block:
        raise RuntimeError("held() locks the user's models for a transaction: open one first")
    with connection.cursor() as cur:
        cur.execute(_HELD_SQL, {"owner": owner_id})
        row = cur.fetchone()
        if row is None:
            cur.execute(_CREATE_SQL, {"owner": owner_id, "model": settings.EMBEDDING_MODEL})
            cur.execute(_HELD_SQL, {"owner": owner_id})
            row = cur.fetchone()
    assert row is not None
    models = Models(str(row[0]), str(row[1]))
    _remember(owner_id, models)
    return models


# What `held` last returned for each user, per process: a writer embeds for these models before
# its transaction (the model is the slow part) and embeds again inside only when they changed.
_last: dict[tuple[str, int], Models] = {}
_LAST_ENTRIES = 65536
_last_lock = threading.Lock()


def _remember(owner_id: int, models: Models) -> None:
    key = (str(connection.settings_dict["NAME"]), owner_id)
    with _last_lock:
        if _last.get(key) != models:
            if len(_last) >= _LAST_ENTRIES:
                _last.clear()
            _last[key] = models


def expected(owner_id: int) -> Models:
    """The user's models as this process last saw them (a guess: `held` decides)."""
    key = (str(connection.settings_dict["NAME"]), owner_id)
    return _last.get(key) or Models(settings.EMBEDDING_MODEL)


class Vectors:
    """Texts' vectors under each model asked for, each model's computed once (by the embedder
    of that model: a memory's vector and the query it is compared with come from one model)."""

    def __init__(self, texts: Sequence[str], given: Mapping[str, Sequence[Any]] | None = None):
        self.texts = list(texts)
        self._by_model: dict[str, list[Any]] = {}
        for model, vectors in (given or {}).items():
            if len(vectors) != len(self.texts):
                raise ValueError("one vector per text")
            self._by_model[model] = list(vectors)

    def ensure(self, models: Iterable[str]) -> Vectors:
        for model in dict.fromkeys(models):
            if model and model not in self._by_model:
                self._by_model[model] = get_embedder(model).embed(self.texts)
        return self

    def of(self, model: str) -> list[Any]:
        return self.ensure([model])._by_model[model]

    def pick(self, indices: Sequence[int]) -> Vectors:
        """The vectors of the texts at `indices`, in that order."""
        picked = Vectors([self.texts[i] for i in indices])
        for model, vectors in self._by_model.items():
            picked._by_model[model] = [vectors[i] for i in indices]
        return picked


def staged_sql(model: str, *, select: str = "1") -> str:
    """SQL: the staged vector of memory `m` under `model` (an SQL expression) that holds for the
    text `m` has now, as a subquery selecting `select` (`EXISTS (...)`: whether there is one).
    The one home of when a staged vector counts: the move's, the switch's and the operator's
    counts, and the vectors compared in another model's terms (`vectors_of`)."""
    return (
        f"SELECT {select} FROM memories_stagedvector s "  # noqa: S608 - constants only
        "WHERE s.owner_id = m.owner_id AND s.memory_id = m.id "
        f"AND s.model = {model} AND s.text_md5 = md5(m.text)"
    )


# What a memory's vector is computed from: what apps read of it (`app_text`: the owner's text
# with its credentials withheld, issue 37), else its text; its staged vector is still keyed by
# its text's digest (an edit changes both).
EMBEDDED_TEXT = "coalesce(m.app_text, m.text)"


# A vector kept beside a memory's own (a staged one, the second search arm's: tables of the same
# columns) holds for the text it was embedded from: written only while the memory still has
# that text, with the digest of the text it has.
def _keep_sql(table: str) -> str:
    return f"""
INSERT INTO {table} (memory_id, owner_id, model, embedding, text_md5)
SELECT m.id, m.owner_id, %(model)s, u.emb::vector, md5(m.text)
FROM unnest(%(ids)s::uuid[], %(texts)s::text[], %(embs)s::text[]) AS u(id, text, emb)
JOIN memories_memory m ON m.id = u.id AND {EMBEDDED_TEXT} = u.text
WHERE m.owner_id = %(owner)s
ON CONFLICT (memory_id) DO UPDATE
SET model = excluded.model, embedding = excluded.embedding, text_md5 = excluded.text_md5
"""  # noqa: S608 - only constants; values are bound parameters


STAGED = "memories_stagedvector"
_KEEP_SQL = {table: _keep_sql(table) for table in (STAGED, "memories_memoryaltvector")}


def keep(
    table: str,
    owner_id: int,
    model: str,
    ids: Sequence[uuid.UUID],
    texts: Sequence[str],
    vectors: Sequence[Any],
) -> int:
    """Keep these memories' vectors under `model` in `table` (`_KEEP_SQL`'s); a memory whose
    text is no longer `texts[i]` is left out. Returns how many were kept."""
    if not ids:
        return 0
    with connection.cursor() as cur:
        cur.execute(
            _KEEP_SQL[table],
            {
                "owner": owner_id,
                "model": model,
                "ids": list(ids),
                "texts": list(texts),
                "embs": [vector_literal(np.asarray(v)) for v in vectors],
            },
        )
        return int(cur.rowcount)


# Keep these memories' vectors under the model their owner is moving to beside their live ones
# (`keep` into the staging table): stage(owner_id, model, ids, texts, vectors).
stage = partial(keep, STAGED)


# Each memory's vector under `model`: its own when it is of that model, else the one staged for
# its text, if any.
_OF_MODEL_SQL = f"""
SELECT m.id, coalesce(
    CASE WHEN m.embedding_model = %(model)s THEN vector_send(m.embedding) END,
    ({staged_sql("%(model)s", select="vector_send(s.embedding)")}))
FROM memories_memory m
WHERE m.owner_id = %(owner)s AND m.id = ANY(%(ids)s::uuid[])
"""  # noqa: S608 - only constants; values are bound parameters


def vectors_of(
    owner_id: int, model: str, ids: Sequence[uuid.UUID], texts: Sequence[str]
) -> list[np.ndarray]:
    """The vectors under `model` of these memories of the user (with these texts), for what
    compares them with vectors of that model (the classifier, the local extractor's repeats):
    their own or their staged one where it is of that model, else embedded now (and staged, when
    the user is moving to `model`: the move has that much less to do)."""
    found: dict[uuid.UUID, np.ndarray] = {}
    with connection.cursor() as cur:
        cur.execute(_OF_MODEL_SQL, {"owner": owner_id, "model": model, "ids": list(ids)})
        for memory_id, raw in cur.fetchall():
            if raw is not None:
                found[memory_id] = np.frombuffer(bytes(raw), dtype=">f4", offset=4).astype(
                    np.float32
                )
    missing = [i for i, memory_id in enumerate(ids) if memory_id not in found]
    if missing:
        vectors = get_embedder(model).embed([texts[i] for i in missing])
        found.update((ids[i], v) for i, v in zip(missing, vectors, strict=True))
        # `stage` keeps only those whose text is still the one embedded.
        with transaction.atomic():
            if held(owner_id).next == model:
                stage(
                    owner_id, model, [ids[i] for i in missing], [texts[i] for i in missing], vectors
                )
    return [found[memory_id] for memory_id in ids]
