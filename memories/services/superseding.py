"""The one supersede path: a memory leaves search for the one that replaces it, whose history
keeps the old text. Below adding (a batch's updates supersede) and changing (`memory_supersede`)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.gates import SCOPE_WRITE, require
from memories.models import Memory, MemoryVersion
from memories.ownership import changed_by, mark_changed_by, protected_categories


def memory_supersede_into(
    *,
    actor: Actor,
    old: Memory,
    new: Memory,
    reason: str,
    metadata: dict[str, Any] | None = None,
) -> None:
    """The one supersede path (`memory_supersede`, deferred extraction): `old` (locked by the
    caller, in its transaction) leaves search, linked to `new`, whose history keeps the old text
    as a SUPERSEDE version; the access event is recorded with it. What the actor may not remove
    from `old` (the owner's labels, a sensitive category) goes with the fact to `new`."""
    require(actor, SCOPE_WRITE)
    now = timezone.now()
    keep = protected_categories(actor, old)
    carried = [c for c in old.categories if c in keep and c not in new.categories]
    owners = old.categories_set_by_user and not new.categories_set_by_user
    if carried or owners:
        new.categories = [*new.categories, *carried]
        new.categories_set_by_user = True if owners else new.categories_set_by_user
        new.updated_at = now
        fields = ["categories", "categories_set_by_user", "updated_at"]
        new.save(update_fields=[*fields, *mark_changed_by(actor, new, now)])
    changes: dict[str, Any] = {"superseded_by": new, "updated_at": now}
    if metadata is not None:
        changes["metadata"] = metadata
    changes.update(changed_by(actor, now))
    Memory.objects.filter(owner_id=old.owner_id, pk=old.pk).update(**changes)
    old.refresh_from_db()
    MemoryVersion.objects.create(
        memory=new,
        owner=old.owner,
        text=old.text,
        kind=MemoryVersion.Kind.SUPERSEDE,
        changed_by=actor.label,
        reason=reason[:500],
    )
    access_event_create(
        actor,
        AccessEvent.Action.UPDATE,
        [old.id, new.id],
        detail={"superseded": str(old.id), "by": str(new.id)},
    )
