"""The store's check (issue 37): memories stored before credentials and instructions were
recognised are held from every app (`Memory.harm_hold`) until the owner decides
(`harm_decide`: redact, keep private, or confirm). Migration 0026 ran it once for every user;
`manage.py harm_check` and the Review page's Check section call it again. What a new write does
is memories/services/harm.py."""

from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import InvalidInput, NotFound
from kernel.gates import SCOPE_WRITE, require_owner
from memories.harm.screen import hold_kind, screen
from memories.models import Memory, MemoryState, MemoryVersion
from memories.search import moves
from memories.selectors.memories import parse_memory_id
from memories.services.marks import mark_private
from memories.services.text_changes import apply_screened_text
from memories.services.write_vectors import embedded_for

HOLD_CREDENTIAL, HOLD_INSTRUCTION = "credential", "instruction"


def harm_check(*, actor: Actor) -> int:
    """Hold every memory of the owner that holds a credential or an instruction and that the
    owner has not confirmed: no app sees it until the owner decides. Returns how many are held
    now. Owner-only."""
    require_owner(actor, SCOPE_WRITE)
    rows = (
        Memory.objects.filter(
            owner=actor.user, echo_of__isnull=True, owner_confirmed_at__isnull=True
        )
        .exclude(state=MemoryState.TRASHED)
        .filter(harm_hold="")
        .values_list("pk", "text")
    )
    found: dict[str, list[uuid.UUID]] = {HOLD_CREDENTIAL: [], HOLD_INSTRUCTION: []}
    for pk, text in rows.iterator(chunk_size=2000):
        kind = hold_kind(text)
        if kind:
            found[kind].append(pk)
    with transaction.atomic():
        for kind, ids in found.items():
            if ids:
                Memory.objects.filter(owner=actor.user, pk__in=ids).update(harm_hold=kind)
                access_event_create(
                    actor, AccessEvent.Action.STATE, list(ids), detail={"held": kind}
                )
    return Memory.objects.filter(owner=actor.user).exclude(harm_hold="").count()


REDACT, PRIVATE, CONFIRM = "redact", "private", "confirm"
DECISIONS = (REDACT, PRIVATE, CONFIRM)


def harm_decide(*, actor: Actor, memory_id: object, decision: str) -> Memory:
    """The owner's decision about a memory the check holds: `redact` (its credentials leave its
    text and its history), `private` (kept as it is, no app reads it; apps would read it
    redacted if it is shared later) or `confirm` (it is fine as it is: apps read it again).
    Either way the owner has looked at it, so the check does not hold it again. Owner-only."""
    require_owner(actor, SCOPE_WRITE)
    if decision not in DECISIONS:
        raise InvalidInput(f"Decision must be one of {', '.join(DECISIONS)}.", field="decision")
    mid = parse_memory_id(memory_id)
    memory = Memory.objects.filter(owner=actor.user, pk=mid).exclude(harm_hold="").first()
    if memory is None:
        raise NotFound()
    s = screen(memory.text)
    redacted = s.redacted
    # What apps will read is embedded before any transaction (the model is the slow part).
    embedded = embedded_for(actor, [redacted]) if s.found and decision != CONFIRM else None
    with transaction.atomic():
        # The owner's models before the memory's row (the switch locks in that order).
        models = moves.held(actor.user.pk) if embedded is not None else None
        memory = (
            Memory.objects.select_for_update()
            .filter(owner=actor.user, pk=mid)
            .exclude(harm_hold="")
            .first()
        )
        if memory is None:
            raise NotFound()
        now = timezone.now()
        if decision == REDACT and embedded is not None and models is not None:
            apply_screened_text(
                actor, memory, redacted, None, embedded, models, reason="credentials redacted"
            )
            # Earlier texts that held them go too: redacting means the credential is gone.
            for version in MemoryVersion.objects.filter(owner=actor.user, memory=memory):
                if screen(version.text).found:
                    version.text = screen(version.text).redacted
                    version.save(update_fields=["text"])
        elif decision == PRIVATE:
            if embedded is not None and models is not None:
                apply_screened_text(
                    actor, memory, memory.text, s.redacted, embedded, models, reason=""
                )
            mark_private(actor, memory)
        # Whatever the decision, the owner has looked at it: it is not held again.
        Memory.objects.filter(owner=actor.user, pk=memory.pk).update(
            harm_hold="", updated_at=now, owner_confirmed_at=now
        )
        access_event_create(actor, AccessEvent.Action.STATE, [memory.pk], detail={"harm": decision})
        memory.refresh_from_db()
    return memory
