"""What happens to a write that holds a credential or instructs an assistant (issue 37), the one
function the write services call on every incoming text (`screen_write`), and the owner's
decisions about memories the store's check holds (`harm_check`, `harm_decide`).

- An app's write: credentials are never stored; the clauses without one are kept when they
  still say something, and the app is told what was not kept and why. Text that instructs an
  assistant waits on the owner's Review page (memories/services/app_review.py) and no other app
  reads it before the owner accepts it; an accepted one is not held again.
- The owner's own write (the owner's apps and imports of the owner's own archive): kept as
  written, made private, with a notice; every app reads it with its credentials withheld
  (`Memory.app_text`), and its embedding and lexemes come from that text.
- A store from before: `harm_check` (migration 0022 once, `manage.py harm_check`) holds what it
  finds (`Memory.harm_hold`: no app sees it) until the owner redacts it, makes it private or
  confirms it (`harm_decide`).

Recognition itself is pure and lives in memories/harm/.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import ConnectedApp
from activity import services as activity
from activity.models import AccessEvent
from kernel.errors import InvalidInput, NotFound
from kernel.gates import SCOPE_WRITE, require_owner
from memories.harm.screen import Screening, hold_kind, screen
from memories.models import Memory, MemoryState, MemoryVersion
from memories.selectors.memories import parse_memory_id

HOLD_CREDENTIAL, HOLD_INSTRUCTION = "credential", "instruction"


@dataclass(frozen=True)
class Screened:
    """What a write of one text does, decided once, before anything is embedded or stored."""

    text: str  # what is stored ("" for an app's text that held nothing but credentials)
    app_text: str | None = None  # what apps read instead (the owner's text, credentials withheld)
    private: bool = False  # the owner's text with a credential: made private
    instruction: str = ""  # why an app's text waits for the owner (a sentence), or ""
    note: str = ""  # what the writer is told

    @property
    def stored(self) -> bool:
        return bool(self.text)


def _owner_side(actor: Actor) -> bool:
    """The owner's own apps and imports of the owner's own archive write as the owner."""
    return actor.app.is_owner_app or actor.app.kind == ConnectedApp.Kind.IMPORT


def app_note(s: Screening, *, kept: bool) -> str:
    """The sentence an app is told about credentials it sent."""
    why = (
        "every app the owner connects reads this memory, so credentials and identifiers are "
        "never stored"
    )
    if kept:
        return f"Not kept: {s.what()} ({why}); the rest was stored."
    return f"Nothing was stored: the text held {s.what()} and nothing else to keep ({why})."


def owner_note(s: Screening) -> str:
    return (
        f"This holds {s.what()}, so it was kept private: no app reads it, and if you share it, "
        "apps read it with that part withheld."
    )


def instruction_note(s: Screening) -> str:
    return (
        f"This waits on the owner's Review page and no other app reads it until they accept it: "
        f"{s.why}. Memory holds information about the person, not instructions for assistants."
    )


def screen_write(actor: Actor, text: str) -> Screened:
    """What a write of `text` (already cleaned) by `actor` stores, and what the writer is told."""
    s = screen(text)
    if _owner_side(actor):
        if not s.found:
            return Screened(text=text)
        return Screened(text=text, app_text=s.redacted, private=True, note=owner_note(s))
    kept = s.remainder if s.found else text
    note = app_note(s, kept=bool(kept)) if s.found else ""
    if kept and s.instruction and not actor.reviewed:
        return Screened(
            text=kept, instruction=s.why, note=" ".join(filter(None, [note, instruction_note(s)]))
        )
    return Screened(text=kept, note=note)


def refuse_empty(screened: Screened, field: str = "text") -> None:
    """An app's change whose text held nothing but credentials changes nothing: say so."""
    if not screened.stored:
        raise InvalidInput(screened.note, field=field)


# --- A store from before ------------------------------------------------------------------


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
                activity.record(actor, AccessEvent.Action.STATE, list(ids), detail={"held": kind})
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
    from memories.search.embeddings import get_embedder
    from memories.services.memories import apply_screened_text, mark_private

    mid = parse_memory_id(memory_id)
    memory = Memory.objects.filter(owner=actor.user, pk=mid).exclude(harm_hold="").first()
    if memory is None:
        raise NotFound()
    s = screen(memory.text)
    redacted = s.redacted
    vector = None
    if decision == REDACT and s.found:
        vector = get_embedder().embed([redacted])[0]
    elif decision == PRIVATE and s.found:
        vector = get_embedder().embed([s.redacted])[0]
    with transaction.atomic():
        memory = (
            Memory.objects.select_for_update()
            .filter(owner=actor.user, pk=mid)
            .exclude(harm_hold="")
            .first()
        )
        if memory is None:
            raise NotFound()
        now = timezone.now()
        if decision == REDACT and s.found:
            apply_screened_text(
                actor, memory, redacted, None, vector, reason="credentials redacted"
            )
            # Earlier texts that held them go too: redacting means the credential is gone.
            for version in MemoryVersion.objects.filter(owner=actor.user, memory=memory):
                if screen(version.text).found:
                    version.text = screen(version.text).redacted
                    version.save(update_fields=["text"])
        elif decision == PRIVATE:
            if s.found:
                apply_screened_text(actor, memory, memory.text, s.redacted, vector, reason="")
            mark_private(actor, memory)
        # Whatever the decision, the owner has looked at it: it is not held again.
        Memory.objects.filter(owner=actor.user, pk=memory.pk).update(
            harm_hold="", updated_at=now, owner_confirmed_at=now
        )
        activity.record(actor, AccessEvent.Action.STATE, [memory.pk], detail={"harm": decision})
        memory.refresh_from_db()
    return memory
