"""Local reconciliation at an app's write (no LLM): each new text against its
nearest stored memories the writer may see, judged by `memories.reconciliation.judge`.

Only memories the writing app may see are compared (`dedup_reader`, `dedup_q`): a memory it may
not see is as if absent, so no answer (merged, replaced, held) can tell it one exists. An app that
may only write compares against nothing. The owner's own apps (the dashboard) keep the plain
write: the owner edits and supersedes by hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection
from django.db.models.expressions import RawSQL
from pgvector.django import CosineDistance

from accounts.actors import Actor
from accounts.models import ConnectedApp
from memories.models import Memory, MemoryState
from memories.reconciliation.judge import DISTINCT, RESTATE, UNSURE, UPDATE, Verdict, judge
from memories.reconciliation.thresholds import for_model
from memories.search.embeddings import vector_literal
from memories.visibility import dedup_q, dedup_reader

RESTATED_KEPT = 50  # wordings a memory keeps in metadata["restated_as"]


@dataclass(frozen=True)
class Match:
    verdict: Verdict
    memory: Memory  # the stored memory it restates, updates or may update (locked)


@dataclass(frozen=True)
class BatchMatch:
    verdict: Verdict  # RESTATE or UPDATE
    batch: int  # the earlier text of the same batch it restates or updates (its index)


def applies(actor: Actor) -> bool:
    """When `RECONCILE_LOCAL` is on: apps' writes and imports (against everything the owner has,
    `dedup_reader`, and within the import: importing a history twice leaves one memory per
    fact); not the owner's own apps (the owner edits and supersedes by hand), nor an app that
    may only write."""
    return (
        settings.RECONCILE_LOCAL and not actor.app.is_owner_app and dedup_reader(actor) is not None
    )


def for_review(actor: Actor) -> bool:
    """Whether an unsure change waits in the owner's Review: an app's does; an import's is stored
    beside the memory it may change (a history of thousands of messages would fill Review with
    guesses; both stay, nothing is lost, and the owner's own search shows both)."""
    return actor.app.kind != ConnectedApp.Kind.IMPORT


def matches(
    actor: Actor, texts: Sequence[str], vectors: Sequence[Any], model: str
) -> list[Match | BatchMatch | None]:
    """For each text (with its vector of the owner's live `model`): what it does to the nearest
    memory it is not distinct from — a stored one or an earlier text of the same batch — or None.
    Runs in the write's transaction; the stored memories it answers with are row-locked.

    The whole batch's stored neighbours come from one statement (`_neighbours`), the batch's
    own from one matrix product: a batch costs one query, not one per text (`bench add`)."""
    if not texts:
        return []
    cut = for_model(model)
    stored = _neighbours(actor, vectors, model)
    within = _batch_cosines(vectors)
    lowest = min(cut.floor, cut.slot_update)  # a change in the same slot is judged from here
    verdicts: list[tuple[Verdict, Memory | int] | None] = []
    for n, text in enumerate(texts):
        candidates: list[tuple[float, Memory | int]] = [(c, m) for m, c in stored[n]]
        candidates += [(float(within[n, j]), j) for j in range(n) if within[n, j] >= lowest]
        candidates.sort(key=lambda pair: -pair[0])
        found: tuple[Verdict, Memory | int] | None = None
        for cosine, other in candidates[: settings.RECONCILE_NEIGHBOURS]:
            old = other.text if isinstance(other, Memory) else texts[other]
            verdict = judge(text, old, cosine, cut)
            if isinstance(other, int) and verdict.kind not in (RESTATE, UPDATE):
                continue  # only an earlier text of the batch merges or is replaced
            if verdict.kind == UPDATE and isinstance(other, Memory) and other.user_edited_at:
                verdict = Verdict(UNSURE, "edited by hand: " + verdict.why)  # the owner's wording
            if verdict.kind != DISTINCT:
                found = (verdict, other)
                break
        verdicts.append(found)
    locked = _locked(actor, {o.pk for v in verdicts if v for o in [v[1]] if isinstance(o, Memory)})
    out: list[Match | BatchMatch | None] = []
    for found in verdicts:
        if found is None:
            out.append(None)
        elif isinstance(found[1], int):
            out.append(BatchMatch(found[0], found[1]))
        else:
            current = locked.get(found[1].pk)
            out.append(None if current is None else Match(found[0], current))
    return out


# One statement for a batch: each vector's nearest memories the writer may see (the filter is
# the ORM's, `q.vec` the batch's vector in the LATERAL join). No ANN index exists on the column,
# so each is an exact scan of the owner's rows, as search's own dense arm.
_NEIGHBOURS_SQL = """
SELECT q.ord, n.id, n.distance
FROM unnest(%s::vector[]) WITH ORDINALITY AS q(vec, ord)
CROSS JOIN LATERAL ({inner}) AS n
ORDER BY q.ord, n.distance, n.id
"""


def _neighbours(
    actor: Actor, vectors: Sequence[Any], model: str
) -> list[list[tuple[Memory, float]]]:
    """For each vector, its `RECONCILE_NEIGHBOURS` nearest current memories the writer may see (the
    setting the LLM's reconciliation reads too: a restatement helps only when its memory is among
    them; a cross-language one in MiniLM's space often ranks below a look-alike), with their
    cosines, nearest first: one SQL statement for the batch, one more for their texts."""
    inner = (
        Memory.objects.filter(
            dedup_q(actor),
            owner=actor.user,
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
            echo_of__isnull=True,
            embedding_model=model,
        )
        .annotate(distance=CosineDistance("embedding", RawSQL("q.vec", ())))
        .order_by("distance", "id")
        .values_list("id", "distance")[: settings.RECONCILE_NEIGHBOURS]
    )
    sql, params = inner.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            _NEIGHBOURS_SQL.format(inner=sql),
            [[vector_literal(np.asarray(v)) for v in vectors], *params],
        )
        rows = cursor.fetchall()
    texts = Memory.objects.filter(owner=actor.user, pk__in={r[1] for r in rows}).only(
        "id", "text", "user_edited_at"
    )
    by_id = {m.pk: m for m in texts}
    out: list[list[tuple[Memory, float]]] = [[] for _ in vectors]
    for ord_, memory_id, distance in rows:
        out[ord_ - 1].append((by_id[memory_id], 1.0 - float(distance)))
    return out


def _batch_cosines(vectors: Sequence[Any]) -> np.ndarray:
    """The cosines between the batch's own vectors (row n against every row)."""
    matrix = np.asarray([np.asarray(v, dtype=np.float32) for v in vectors])
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = matrix / np.where(norms == 0, 1.0, norms)
    return unit @ unit.T


def _locked(actor: Actor, ids: set[Any]) -> dict[Any, Memory]:
    """The matched memories row-locked, those still current once locked (one statement)."""
    if not ids:
        return {}
    current = Memory.objects.select_for_update().filter(
        owner=actor.user,
        pk__in=sorted(ids),
        state=MemoryState.ACTIVE,
        superseded_by__isnull=True,
    )
    return {m.pk: m for m in current.order_by("id")}


def note_restated(memory: Memory, text: str, now: datetime, by: str) -> None:
    """Keep the new wording with the memory it restates (one memory is served): who said it
    and when, shown in the memory's history on its page (`presentation.restatements`)."""
    metadata = dict(memory.metadata or {})
    said = [*metadata.get("restated_as", []), {"text": text, "at": now.isoformat(), "by": by}]
    metadata["restated_as"] = said[-RESTATED_KEPT:]
    provenance = dict(memory.provenance or {})
    provenance["mentions"] = int(provenance.get("mentions") or 1) + 1
    Memory.objects.filter(owner_id=memory.owner_id, pk=memory.pk).update(
        metadata=metadata, provenance=provenance
    )
    memory.metadata, memory.provenance = metadata, provenance


__all__ = [
    "RESTATE",
    "UNSURE",
    "UPDATE",
    "BatchMatch",
    "Match",
    "applies",
    "for_review",
    "matches",
    "note_restated",
]
