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

from django.conf import settings
from pgvector.django import CosineDistance

from accounts.actors import Actor
from accounts.models import ConnectedApp
from memories.models import Memory, MemoryState
from memories.reconciliation.judge import DISTINCT, RESTATE, UNSURE, UPDATE, Verdict, judge
from memories.reconciliation.thresholds import for_model
from memories.visibility import dedup_q, dedup_reader

NEIGHBOURS = 3  # stored memories each new text is judged against, nearest first
RESTATED_KEPT = 50  # wordings a memory keeps in metadata["restated_as"]


@dataclass(frozen=True)
class Match:
    verdict: Verdict
    memory: Memory  # the stored memory it restates, updates or may update (locked)


def applies(actor: Actor) -> bool:
    """When `RECONCILE_LOCAL` is on: apps' writes; not the owner's own apps, nor an app that may
    only write, nor (yet) an import: its synthetic look-alike histories
    (tests/memories/test_ingest_kill.py) are merged and superseded among themselves, which the
    import's "no losses" promise does not allow."""
    return (
        settings.RECONCILE_LOCAL
        and not actor.app.is_owner_app
        and actor.app.kind != ConnectedApp.Kind.IMPORT
        and dedup_reader(actor) is not None
    )


def matches(
    actor: Actor, texts: Sequence[str], vectors: Sequence[Any], model: str
) -> list[Match | None]:
    """For each text (with its vector of the owner's live `model`): what it does to the nearest
    stored memory it is not distinct from, or None. Runs in the write's transaction; the
    memories it answers with are row-locked."""
    cut = for_model(model)
    out: list[Match | None] = []
    for text, vector in zip(texts, vectors, strict=True):
        near = (
            Memory.objects.filter(
                dedup_q(actor),
                owner=actor.user,
                state=MemoryState.ACTIVE,
                superseded_by__isnull=True,
                echo_of__isnull=True,
                embedding_model=model,
            )
            .annotate(distance=CosineDistance("embedding", vector))
            .order_by("distance", "id")[:NEIGHBOURS]
        )
        found = None
        for memory in near:
            verdict = judge(text, memory.text, 1.0 - float(memory.distance), cut)
            if verdict.kind == UPDATE and memory.user_edited_at is not None:
                verdict = Verdict(UNSURE, "edited by hand: " + verdict.why)  # the owner's wording
            if verdict.kind != DISTINCT:
                found = _locked(actor, memory, verdict)
                break
        out.append(found)
    return out


def _locked(actor: Actor, memory: Memory, verdict: Verdict) -> Match | None:
    """The match with its memory row-locked, if the memory is still current once locked."""
    current = (
        Memory.objects.select_for_update()
        .filter(
            owner=actor.user,
            pk=memory.pk,
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
        )
        .first()
    )
    return None if current is None else Match(verdict, current)


def note_restated(memory: Memory, text: str, now: datetime) -> None:
    """Keep the new wording with the memory it restates (one memory is served)."""
    metadata = dict(memory.metadata or {})
    said = [*metadata.get("restated_as", []), {"text": text, "at": now.isoformat()}]
    metadata["restated_as"] = said[-RESTATED_KEPT:]
    provenance = dict(memory.provenance or {})
    provenance["mentions"] = int(provenance.get("mentions") or 1) + 1
    Memory.objects.filter(owner_id=memory.owner_id, pk=memory.pk).update(
        metadata=metadata, provenance=provenance
    )
    memory.metadata, memory.provenance = metadata, provenance


__all__ = ["RESTATE", "UNSURE", "UPDATE", "Match", "applies", "matches", "note_restated"]
