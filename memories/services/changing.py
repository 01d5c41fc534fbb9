"""Changing a stored memory: text, categories, state and privacy in one all-or-nothing call
(`memory_change`, every entry point's edit), a changed fact replacing its memory
(`memory_supersede`), repeated mentions, and the sentence an app is told when its write left
a memory out of its sight (`readback_note`)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import Conflict, InvalidInput, UserEdited
from kernel.gates import SCOPE_READ, SCOPE_WRITE, require, require_owner
from memories.models import LIVE_STATES, Memory, MemoryState, MemoryVersion
from memories.ownership import check_relabel, mark_changed_by
from memories.search import moves
from memories.selectors.memories import parse_memory_id
from memories.selectors.pending import PendingWrite
from memories.services import app_review, harm
from memories.services import categories as user_categories
from memories.services.adding import (
    WriteResult,
    clean_categories,
    memory_create,
    new_category_names,
)
from memories.services.locks import hold_categories, locked, locked_many
from memories.services.marks import apply_visibility
from memories.services.superseding import memory_supersede_into
from memories.services.text_changes import apply_text
from memories.services.write_vectors import embedded_for
from memories.text import clean_text, text_key
from memories.visibility import dedup_q, hidden_categories
from memories.wording import category_names


@dataclass(frozen=True)
class ChangeResult:
    """What a change answers: the memory as it now is (as it was, when held)."""

    memory: Memory
    # For an app: where its change left the memory, when that is out of its grant or its sight
    # (`readback_note`); the same sentence through every entry point.
    note: str = ""
    pending: PendingWrite | None = None  # held for the owner's review: unchanged


def memory_change(
    *,
    actor: Actor,
    memory_id: object,
    text: str | None = None,
    reason: str = "",
    categories: Iterable[str] | None = None,
    state: str | None = None,
    private: bool | None = None,
) -> ChangeResult:
    """Change any of a memory's text (re-embedded; the prior text becomes a version), categories,
    state and privacy, all or nothing: every check comes first (scopes; the owner-only privacy
    mark, before any id is looked at; the input; the owner's labels, `memories/ownership.py`),
    then the whole change commits in one transaction with its access events. Every entry point that
    changes a memory comes here (the API's PATCH, MCP's update_memory, the dashboard)."""
    change = _checked(actor, text, categories, state, private)
    screened = change.screened
    # The model is the slow part: the text is embedded before any row is locked (not for a
    # change held for the owner's review: it is embedded if and when they accept it).
    held = app_review.held(actor) or bool(screened and screened.instruction)
    # What is embedded and indexed is what apps read (credentials withheld).
    shown = (screened.app_text if screened else None) or change.text
    embedded = embedded_for(actor, [shown]) if shown is not None and not held else None
    with transaction.atomic():
        # The owner's models first, before the memory's row (the switch locks in that order).
        models = moves.held(actor.user.pk) if embedded is not None else None
        memory = locked(actor, memory_id)
        if change.categories is not None:
            means = {n.slug for n in change.new_names if n.means}
            check_relabel(actor, memory, change.categories, means)
        if held:  # nothing is written: the change waits for the owner (if it changes anything)
            return _held_change(actor, memory, change)
        _apply_change(actor, memory, change, reason, embedded, models)
    told = [screened.note if screened else "", readback_note(actor, [memory], changed=True)]
    return ChangeResult(memory=memory, note=" ".join(filter(None, told)))


@dataclass(frozen=True)
class _Checked:
    """A change once checked, before any row is locked: the new text as stored (after the
    store's check, `screened`), the categories in their one form and those new to the user."""

    text: str | None
    screened: harm.Screened | None
    categories: list[str] | None
    new_names: list[user_categories.NewCategory]
    state: str | None
    private: bool | None


def _checked(
    actor: Actor,
    text: str | None,
    categories: Iterable[str] | None,
    state: str | None,
    private: bool | None,
) -> _Checked:
    """`memory_change`'s checks, in order: scopes (the privacy mark is the owner's, asked before
    any id is looked at), the text and its credentials or instructions, categories, state."""
    require(actor, SCOPE_WRITE)
    if private is not None:
        require_owner(actor, SCOPE_WRITE)
    new_text = clean_text(text) if text is not None else None
    # Credentials and instructions in the new text (memories/services/harm.py).
    screened = harm.screen_write(actor, new_text) if new_text is not None else None
    if screened is not None:
        harm.refuse_empty(screened)
        new_text = screened.text
        if screened.private:
            private = True
    cats = clean_categories(categories) if categories is not None else None
    new_names = new_category_names(actor, [cats]) if cats else []
    if state is not None and state not in LIVE_STATES:
        raise InvalidInput(f"State must be one of {', '.join(LIVE_STATES)}.", field="state")
    return _Checked(new_text, screened, cats, new_names, state, private)


def _held_change(actor: Actor, memory: Memory, change: _Checked) -> ChangeResult:
    """Hold the change for the owner's review (nothing is written), unless it changes nothing."""
    cats = change.categories
    unchanged = (
        (change.text is None or change.text == memory.text)
        and (cats is None or cats == list(memory.categories))
        and (change.state is None or change.state == memory.state)
    )
    if unchanged:
        return ChangeResult(memory=memory)
    screened = change.screened
    why = screened.instruction if screened else ""
    pending = app_review.propose_change(
        actor, memory, text=change.text, categories=cats, state=change.state, reason=why
    )
    note = screened.note if screened and why else app_review.PENDING_NOTE
    return ChangeResult(memory=memory, note=note, pending=pending)


def _apply_change(
    actor: Actor,
    memory: Memory,
    change: _Checked,
    reason: str,
    embedded: moves.Vectors | None,
    models: moves.Models | None,
) -> None:
    """Write a checked change to the locked memory, each part with its access event."""
    cats = change.categories
    if cats is not None:
        hold_categories(actor, set(cats) - {n.slug for n in change.new_names})
        user_categories.categories_create(actor, change.new_names, cats)
    now = timezone.now()
    if change.text is not None and change.text != memory.text:
        assert embedded is not None and models is not None  # not held: embedded above
        apply_text(
            actor,
            memory,
            change.text,
            embedded,
            models,
            kind=MemoryVersion.Kind.EDIT,
            reason=reason,
            app_text=change.screened.app_text if change.screened else None,
        )
        access_event_create(
            actor, AccessEvent.Action.UPDATE, [memory.id], detail={"text": "edited"}
        )
    if cats is not None:
        _apply_categories(actor, memory, cats, now)
    if change.state is not None:
        _apply_state(actor, memory, change.state, now)
    if change.private is not None:
        apply_visibility(actor, memory, now, private=change.private)


def memory_update(*, actor: Actor, memory_id: object, text: str, reason: str = "") -> Memory:
    """Change the text (re-embedded); the prior text becomes a version (see `memory_change`)."""
    return memory_change(actor=actor, memory_id=memory_id, text=text, reason=reason).memory


def _apply_categories(actor: Actor, memory: Memory, cats: list[str], now: datetime) -> None:
    """Set the categories (checked by the caller: `ownership.check_relabel`). The owner's choice
    wins over every later automatic pass; an app's change leaves the owner's mark as it was."""
    by_owner = actor.app.is_owner_app
    previous = list(memory.categories)
    if previous == cats and (memory.categories_set_by_user or not by_owner):
        return
    memory.categories = cats
    memory.categories_set_by_user = memory.categories_set_by_user or by_owner
    memory.updated_at = now
    fields = ["categories", "categories_set_by_user", "updated_at"]
    memory.save(update_fields=[*fields, *mark_changed_by(actor, memory, now)])
    access_event_create(
        actor,
        AccessEvent.Action.UPDATE,
        [memory.id],
        detail={"categories": {"from": previous, "to": cats}},
    )


def _apply_state(actor: Actor, memory: Memory, state: str, now: datetime) -> bool:
    """Activate, pause or archive one locked memory, recorded with from and to."""
    if memory.state == state:
        return False
    previous = memory.state
    memory.state = state
    memory.updated_at = now
    fields = ["state", "updated_at", *mark_changed_by(actor, memory, now)]
    try:
        with transaction.atomic():
            memory.save(update_fields=fields)
    except IntegrityError:
        raise Conflict(
            gettext_noop("An identical active memory already exists; delete one of them first.")
        ) from None
    access_event_create(
        actor, AccessEvent.Action.STATE, [memory.id], detail={"from": previous, "to": state}
    )
    return True


def memory_supersede(
    *,
    actor: Actor,
    memory_id: object,
    text: str,
    reason: str,
    categories: Iterable[str] | None = None,
    provenance: dict[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
    respect_user_edits: bool = True,
) -> WriteResult:
    """A changed fact: a new memory replaces the old one in search; the old text stays reachable
    as a SUPERSEDE version of the new memory, with the reason. Refused with `UserEdited` when the
    old memory was edited by hand (unless the owner asked for it: `respect_user_edits=False`)."""
    require(actor, SCOPE_WRITE)
    screened = harm.screen_write(actor, clean_text(text))
    new_text = screened.text
    if not screened.stored:
        return WriteResult(
            memory=Memory(owner=actor.user, text="", origin_app=actor.app),
            created=False,
            note=screened.note,
            dropped=True,
        )
    with transaction.atomic():
        moves.held(actor.user.pk)  # before the old memory's row, as every write of a vector
        old = locked(actor, memory_id)
        if old.superseded_by_id is not None or old.state != MemoryState.ACTIVE:
            raise Conflict("This memory is no longer active; it cannot be superseded.")
        if respect_user_edits and old.user_edited_at is not None:
            raise UserEdited("This memory was edited by hand; propose the change instead.")
        if text_key(new_text) == old.text_key:
            return WriteResult(memory=old, created=False)
        if app_review.held(actor) or screened.instruction:  # waits as an update of the old one
            pending = app_review.propose_change(
                actor, old, text=new_text, categories=None, state=None, reason=screened.instruction
            )
            return WriteResult(memory=old, created=False, pending=pending, note=screened.note)
        cats = list(categories or ())
        if not cats and old.categories_set_by_user:
            cats = list(old.categories)
        new = memory_create(
            actor=actor,
            text=new_text,
            categories=cats,
            provenance=provenance,
            metadata=metadata,
            reconcile=False,
        )
        memory_supersede_into(actor=actor, old=old, new=new.memory, reason=reason)
    return new


def memory_set_state(*, actor: Actor, memory_ids: Sequence[object], state: str) -> int:
    """Activate, pause or archive; each change is recorded with from and to."""
    require(actor, SCOPE_WRITE)
    if state not in LIVE_STATES:
        raise InvalidInput(f"State must be one of {', '.join(LIVE_STATES)}.", field="state")
    changed = 0
    with transaction.atomic():
        memories = locked_many(actor, memory_ids)
        if app_review.held(actor):
            for memory in memories:
                if memory.state != state:
                    app_review.propose_change(
                        actor, memory, text=None, categories=None, state=state
                    )
            return 0
        now = timezone.now()
        for memory in memories:
            changed += _apply_state(actor, memory, state, now)
    return changed


def memory_set_categories(*, actor: Actor, memory_id: object, categories: Iterable[str]) -> Memory:
    """The categories of one memory (see `memory_change`; an app's change follows
    `memories/ownership.py`). The owner's choice wins over every later automatic pass."""
    return memory_change(actor=actor, memory_id=memory_id, categories=categories).memory


def memory_set_categories_many(
    *, actor: Actor, memory_ids: Sequence[object], categories: Iterable[str]
) -> int:
    """The same categories for several memories, all or none (the dashboard's bulk action)."""
    mids = [parse_memory_id(m) for m in memory_ids]
    if not mids:
        raise InvalidInput(gettext_noop("No memories given."), field="memory_ids")
    cats = clean_categories(categories)
    with transaction.atomic():
        for mid in dict.fromkeys(mids):
            memory_change(actor=actor, memory_id=mid, categories=cats)
    return len(set(mids))


def readback_note(actor: Actor, memories: Sequence[Memory], *, changed: bool = False) -> str:
    """A sentence for an app whose write (`changed`: whose change of a memory) left memories
    outside what it may read by its grant, or out of its sight, or that may not read at all;
    empty otherwise. Every entry point says it as it is, so the API and MCP answer in the same
    words. It depends only on what the app sent and its grant, never on memories it may not see."""
    app = actor.app
    if app.is_owner_app or not memories:
        return ""
    if not actor.has_scope(SCOPE_READ):
        return "This app may not read memories, so it cannot read back what it stored."
    resting = sorted(
        {m.get_state_display().lower() for m in memories if m.state != MemoryState.ACTIVE}
    )
    if changed and resting:
        return (
            f"This memory is now {resting[0]}: no app sees it until the owner makes it "
            "active again."
        )
    hidden = set(hidden_categories(app))
    beyond = [
        m
        for m in memories
        if hidden & set(m.categories) or (not m.categories and not app.sees_uncategorised)
    ]
    if not beyond:
        return ""
    outside = sorted({c for m in beyond for c in m.categories if c in hidden})
    where = (
        f"in {category_names(outside)}, which this app is not granted"
        if outside
        else "without a category, which this app's grant does not cover"
    )
    others = (
        f"other apps without {category_names(outside, 'or')}"
        if outside
        else "apps not granted uncategorised memories"
    )
    if any(m.origin_app_id != app.pk for m in beyond):
        return f"Now {where}, so this app can no longer read it."
    lead = "Now" if changed else "Stored"
    return f"{lead} {where}: this app can read it back because it wrote it; {others} cannot."


MENTIONS_KEPT = 50  # places a repeated memory lists in metadata["also_said_in"]


def memory_note_mentions(*, actor: Actor, mentions: dict[uuid.UUID, list[dict[str, Any]]]) -> int:
    """Record that memories were said again elsewhere (an import's near-duplicates).

    `provenance["mentions"]` becomes how many times the memory was said in all (the first time
    included), and `metadata["also_said_in"]` lists up to MENTIONS_KEPT of the other places.
    Text, embedding, categories and `updated_at` are untouched. Only memories a write of the actor
    may name (`dedup_q`: an import names any of the owner's) are counted; returns how many were.
    """
    require(actor, SCOPE_WRITE)
    if not mentions:
        return 0
    with transaction.atomic():
        memories = list(
            Memory.objects.select_for_update()
            .filter(dedup_q(actor), pk__in=list(mentions))
            .only("id", "owner_id", "provenance", "metadata")
        )
        for memory in memories:
            said = mentions[memory.id]
            provenance = dict(memory.provenance or {})
            provenance["mentions"] = int(provenance.get("mentions") or 1) + len(said)
            metadata = dict(memory.metadata or {})
            places = [*metadata.get("also_said_in", []), *said][:MENTIONS_KEPT]
            metadata["also_said_in"] = places
            Memory.objects.filter(owner=actor.user, pk=memory.id).update(
                provenance=provenance, metadata=metadata
            )
        if memories:
            access_event_create(
                actor,
                AccessEvent.Action.UPDATE,
                [m.id for m in memories],
                detail={"mentions": sum(len(mentions[m.id]) for m in memories)},
            )
    return len(memories)
