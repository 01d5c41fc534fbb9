"""The owner's marks on a memory: private, hidden from an app, seen only by some apps, pinned.
The owner's own apps only; apps' statements of a memory (echoes) follow its marks."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import NotFound
from kernel.gates import SCOPE_WRITE, require_owner
from memories.models import Memory
from memories.ownership import changed_by, mark_changed_by
from memories.services.locks import locked, locked_many


def memory_set_visibility(
    *,
    actor: Actor,
    memory_id: object,
    private: bool | None = None,
    hide_from_app: int | None = None,
    show_to_app: int | None = None,
    unrestrict: bool = False,
) -> Memory:
    """Mark a memory private (no app sees it) or hidden from one app, or (`unrestrict`) let every
    app whose grant covers it see it again after a sensitive category was deleted from it
    (`Memory.seen_only_by`). The owner's own apps only."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        memory = locked(actor, memory_id)
        apply_visibility(
            actor,
            memory,
            timezone.now(),
            private=private,
            hide_from_app=hide_from_app,
            show_to_app=show_to_app,
            unrestrict=unrestrict,
        )
    return memory


def apply_visibility(
    actor: Actor,
    memory: Memory,
    now: datetime,
    *,
    private: bool | None = None,
    hide_from_app: int | None = None,
    show_to_app: int | None = None,
    unrestrict: bool = False,
) -> None:
    """Private and hidden-from marks on one locked memory and its echoes (the owner's own apps only:
    the callers asked `require_owner` before looking at any id)."""
    before = _visibility_marks(memory)
    if private is not None:
        memory.is_private = private
    if unrestrict:
        memory.seen_only_by = None
    hidden = set(memory.hidden_from)
    for app_id, add in ((hide_from_app, True), (show_to_app, False)):
        if app_id is None:
            continue
        if not ConnectedApp.objects.filter(owner=actor.user, pk=app_id).exists():
            raise NotFound("app")
        (hidden.add if add else hidden.discard)(app_id)
    memory.hidden_from = sorted(hidden)
    memory.updated_at = now
    fields = ["is_private", "hidden_from", "seen_only_by", "updated_at"]
    memory.save(update_fields=[*fields, *mark_changed_by(actor, memory, now)])
    _restate_visibility(memory, private, hide_from_app, show_to_app)
    after = _visibility_marks(memory)
    access_event_create(
        actor, AccessEvent.Action.STATE, [memory.id], detail={"from": before, "to": after}
    )


def _visibility_marks(memory: Memory) -> dict[str, Any]:
    """What the access log records of a memory's visibility, before and after a change (the
    list of apps a deleted sensitive category kept it for only when there is one)."""
    marks: dict[str, Any] = {"private": memory.is_private, "hidden_from": list(memory.hidden_from)}
    if memory.seen_only_by is not None:
        marks["seen_only_by"] = list(memory.seen_only_by)
    return marks


def memory_set_private_many(*, actor: Actor, memory_ids: Sequence[object], private: bool) -> int:
    """Mark several memories private (no app sees them) or no longer private, all or none (the
    dashboard's bulk action): one access event for the batch, naming the memories that changed.
    The owner's own apps only; apps' statements of them (echoes) follow, as in
    `memory_set_visibility`."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        memories = locked_many(actor, memory_ids)
        changed = [m.id for m in memories if m.is_private != private]
        if changed:
            now = timezone.now()
            owned = Memory.objects.filter(owner=actor.user)
            owned.filter(pk__in=changed).update(
                is_private=private,
                updated_at=now,
                **changed_by(actor, now),
            )
            owned.filter(echo_of_id__in=changed).update(is_private=private)
            access_event_create(
                actor,
                AccessEvent.Action.STATE,
                changed,
                detail={"from": {"private": not private}, "to": {"private": private}},
            )
    return len(changed)


def memory_set_pinned(*, actor: Actor, memory_ids: Sequence[object], pinned: bool) -> int:
    """Pin memories (the profile an assistant loads first starts with them:
    memories/selectors/profile.py) or unpin them, all or none; returns how many changed. The owner's
    own apps only: an app is refused with `OwnerOnly` before any id is looked at. One access event
    names the memories that changed. A pin is not a change of the memory: its text, dates and
    "changed by" stay."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        memories = locked_many(actor, memory_ids)
        changed = [m.id for m in memories if (m.pinned_at is not None) != pinned]
        if changed:
            owned = Memory.objects.filter(owner=actor.user, pk__in=changed)
            owned.update(pinned_at=timezone.now() if pinned else None)
            access_event_create(
                actor,
                AccessEvent.Action.STATE,
                changed,
                detail={"from": {"pinned": not pinned}, "to": {"pinned": pinned}},
            )
    return len(changed)


def _restate_visibility(
    memory: Memory, private: bool | None, hide_from_app: int | None, show_to_app: int | None
) -> None:
    """The owner's choice about a memory reaches the apps' statements (echoes) of it too: a
    memory made private or hidden from an app takes its echoes out of that app's sight."""
    echoes = list(Memory.objects.filter(owner_id=memory.owner_id, echo_of=memory))
    for echo in echoes:
        if private is not None:
            echo.is_private = private
        hidden = set(echo.hidden_from)
        if hide_from_app is not None:
            hidden.add(hide_from_app)
        if show_to_app is not None:
            hidden.discard(show_to_app)
        echo.hidden_from = sorted(hidden)
    Memory.objects.filter(owner_id=memory.owner_id).bulk_update(
        echoes, ["is_private", "hidden_from"]
    )


def mark_private(actor: Actor, memory: Memory) -> None:
    """Make one locked memory private (the owner's own apps only)."""
    if not memory.is_private:
        apply_visibility(actor, memory, timezone.now(), private=True)
