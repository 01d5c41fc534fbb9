"""Extraction that was deferred because the model failed: texts stored as given with
`metadata["needs_extraction"]`, processed again once the model is back.

Each raw memory is turned into facts and reconciled like a fresh write; the raw memory is then
superseded by the first resulting fact (its text stays in that fact's history). If the model finds
no fact, the raw memory stays as it is, unmarked: a write is never lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from accounts.actors import Actor
from kernel.gates import SCOPE_WRITE, require
from memories.extraction.facts import extract_facts
from memories.extraction.llm import LLMUnavailable
from memories.models import Memory, MemoryState
from memories.services.reconcile import decide, gather
from memories.services.remember import apply_decisions
from memories.services.superseding import memory_supersede_into
from memories.visibility import visible_q


@dataclass(frozen=True)
class PendingReport:
    processed: int
    failed: int
    remaining: int
    error: str = ""  # why the model failed, when it did


def _pending(actor: Actor) -> list[Memory]:
    return list(
        Memory.objects.filter(
            visible_q(actor),
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
            metadata__needs_extraction=True,
        ).order_by("created_at", "id")
    )


def memory_extract_pending(
    *, actor: Actor, limit: int = 100, progress: Callable[[int, int], None] | None = None
) -> PendingReport:
    """Run deferred extraction for up to `limit` memories; stops at the first model failure."""
    require(actor, SCOPE_WRITE)
    todo = _pending(actor)[:limit]
    processed = 0
    for index, raw in enumerate(todo, start=1):
        try:
            facts = extract_facts(raw.text)
            decisions = decide(gather(actor, facts, exclude={raw.id})) if facts else []
        except LLMUnavailable as exc:
            remaining = len(_pending(actor))
            return PendingReport(processed, 1, remaining, error=str(exc))
        with transaction.atomic():
            locked = Memory.objects.select_for_update().filter(owner=actor.user, pk=raw.pk).first()
            if locked is None or not locked.metadata.get("needs_extraction"):
                continue  # deleted or handled meanwhile
            cats = list(locked.categories) if locked.categories_set_by_user else []
            result = apply_decisions(
                actor, decisions, cats, dict(locked.provenance), source=locked.text
            )
            _retire(actor, locked, [r.memory for r in result.results])
        processed += 1
        if progress:
            progress(index, len(todo))
    return PendingReport(processed, 0, len(_pending(actor)))


def _retire(actor: Actor, raw: Memory, produced: list[Memory]) -> None:
    """The raw memory is done: superseded by the first fact made of it (through the one
    supersede path, with its access event), or, when the model found none, left as it is,
    unmarked."""
    metadata = {k: v for k, v in raw.metadata.items() if k != "extraction_error"}
    metadata["needs_extraction"] = False
    successor = next((m for m in produced if m.id != raw.id), None)
    if successor is None:
        Memory.objects.filter(owner_id=raw.owner_id, pk=raw.pk).update(
            metadata=metadata, updated_at=timezone.now()
        )
        return
    memory_supersede_into(
        actor=actor,
        old=raw,
        new=successor,
        reason="Extracted into facts after the model was unavailable.",
        metadata=metadata,
    )
