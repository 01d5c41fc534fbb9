"""Local reconciliation of an add batch in its transaction: a text that restates a stored memory
(or an earlier text of the batch) is answered with it, one that updates it supersedes it once
inserted, an unsure one waits for the owner's Review."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from accounts.actors import Actor
from memories.models import Memory, MemoryState
from memories.selectors.pending import PendingWrite
from memories.services import app_review, reconcile_local
from memories.services.superseding import memory_supersede_into


@dataclass(frozen=True)
class HeldChange:
    """A text of the batch held for the owner's Review as a change of a stored memory."""

    memory: Memory  # the memory it would change
    pending: PendingWrite


@dataclass
class Reconciled:
    """What local reconciliation decided for a batch (`reconcile_batch`), by row or text key."""

    plans: dict[int, reconcile_local.Match] = field(default_factory=dict)  # row → stored memory
    held_as: dict[str, HeldChange] = field(default_factory=dict)  # key → held for Review
    same_as: dict[str, int] = field(default_factory=dict)  # key → earlier row it restates
    updates_in_batch: dict[int, int] = field(default_factory=dict)  # row → earlier row it updates


def reconcile_batch(
    actor: Actor, params: dict[str, Any], known: dict[str, Memory], model: str, now: datetime
) -> Reconciled:
    """Local reconciliation of the batch's new texts (`reconcile_local`), in the write's
    transaction: a restatement is answered with the memory it restates (added to `known`, its
    wording kept with it); an update is returned to supersede its memory once inserted; an
    unsure change is held for the owner's Review as an update of that memory. A text restating
    or updating an earlier text of the same batch is answered with, or supersedes, that one's
    memory once inserted (`Reconciled.same_as`, `Reconciled.plans`)."""
    done = Reconciled()
    if not reconcile_local.applies(actor):
        return done
    todo = [
        n
        for n in range(len(params["ids"]))
        if params["states"][n] == MemoryState.ACTIVE and params["keys"][n] not in known
    ]
    todo = list({params["keys"][n]: n for n in reversed(todo)}.values())[::-1]  # once per text
    found = reconcile_local.matches(
        actor, [params["texts"][n] for n in todo], [params["embs"][n] for n in todo], model
    )
    held: dict[str, tuple[Memory, str, str]] = {}  # key → (memory, text, reason) for Review
    for n, match in zip(todo, found, strict=True):
        if match is None:
            continue
        text, key, kind = params["texts"][n], params["keys"][n], match.verdict.kind
        if isinstance(match, reconcile_local.BatchMatch):
            earlier = todo[match.batch]
            if params["keys"][earlier] in held:
                continue  # the earlier text waits for the owner: this one is stored
            if kind == reconcile_local.RESTATE:
                # Answered with what the earlier text became (itself merged, or inserted).
                done.same_as[key] = done.same_as.get(params["keys"][earlier], earlier)
            elif (
                params["keys"][earlier] not in done.same_as
                and earlier not in done.updates_in_batch.values()
            ):
                done.updates_in_batch[n] = earlier
        elif kind == reconcile_local.RESTATE:
            reconcile_local.note_restated(match.memory, text, now, actor.app.name)
            known[key] = match.memory
        elif kind == reconcile_local.UPDATE:
            done.plans[n] = match
        elif key not in held and reconcile_local.for_review(actor):
            reason = f"Looks like an update of this memory ({match.verdict.why})."
            held[key] = (match.memory, text, reason)
    pending = app_review.propose_text_changes(actor, list(held.values()))
    for (key, (memory, _, _)), waiting in zip(held.items(), pending, strict=True):
        done.held_as[key] = HeldChange(memory=memory, pending=waiting)
    return done


def apply_batch_matches(
    actor: Actor,
    params: dict[str, Any],
    done: Reconciled,
    ids: Sequence[uuid.UUID],
    built: dict[uuid.UUID, Memory],
    known: dict[str, Memory],
    now: datetime,
) -> None:
    """After the insert: a text restating an earlier one of its batch is answered with that
    one's memory (its wording kept there); a text updating one supersedes it."""
    for key, earlier in done.same_as.items():
        memory = built.get(ids[earlier]) or known.get(params["keys"][earlier])
        if memory is None:
            continue
        text = next(params["texts"][n] for n in range(len(ids)) if params["keys"][n] == key)
        reconcile_local.note_restated(memory, text, now, actor.app.name)
        known[key] = memory
    for n, earlier in done.updates_in_batch.items():
        old, new = built.get(ids[earlier]), built.get(ids[n])
        if old is not None and new is not None:
            memory_supersede_into(
                actor=actor,
                old=old,
                new=new,
                reason="Replaced by a newer statement of the same write.",
            )


def supersede_planned(
    actor: Actor,
    plans: dict[int, reconcile_local.Match],
    ids: Sequence[uuid.UUID],
    built: dict[uuid.UUID, Memory],
) -> None:
    """Each inserted update supersedes the memory it changes (the first one of the batch, when
    two change the same memory: the other stays beside it)."""
    done: set[uuid.UUID] = set()
    for n, match in plans.items():
        new = built.get(ids[n])
        if new is None or match.memory.id in done:
            continue
        done.add(match.memory.id)
        memory_supersede_into(
            actor=actor,
            old=match.memory,
            new=new,
            reason=f"Replaced by a newer statement ({match.verdict.why}).",
        )
