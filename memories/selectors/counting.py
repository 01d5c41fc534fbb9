"""What a count of "memories" counts, once, for every page that shows one.

A memory, to the owner, is what the memories page lists: not an app's echo (it shows on the memory
it restates), not an older copy a newer memory replaced, not in the trash. The header's total, the
Connected apps page's "of N", the erase receipt's "Memories" and the week's additions all start
from `listed_q`; apps can only ever see the active ones (`shareable_q`).
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import F, Func, Q

from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory, MemoryState, Origin


def listed_q(user: User) -> Q:
    """The owner's memories as the memories page lists them (every live state)."""
    return Q(owner=user, echo_of__isnull=True, superseded_by__isnull=True) & ~Q(
        state=MemoryState.TRASHED
    )


def shareable_q(user: User) -> Q:
    """The owner's active memories: the only ones a grant can share ("of N active memories")."""
    return listed_q(user) & Q(state=MemoryState.ACTIVE)


def added_since_q(user: User, since: datetime) -> Q:
    """Memories that arrived in the store since `since`. An import writes its memories with the
    date of the conversation they came from, so an imported memory counts by the add event that
    brought it in, not by its `created_at`."""
    arrived = (
        AccessEvent.objects.filter(owner=user, action=AccessEvent.Action.ADD, created_at__gte=since)
        .annotate(memory_id=Func(F("memory_ids"), function="unnest"))
        .values("memory_id")
    )
    typed = ~Q(origin=Origin.IMPORT) & Q(created_at__gte=since)
    imported = Q(origin=Origin.IMPORT, pk__in=arrived)
    return listed_q(user) & (typed | imported)


def memory_count_keys(user: User) -> dict[str, int]:
    """The erase receipt's split of the memory rows: what the owner counted as memories, what was
    in the trash, and the rest (replaced copies and apps' restatements), so its "Memories" line
    matches the header's total."""
    rows = Memory.objects.filter(owner=user)
    listed = rows.filter(listed_q(user)).count()
    trash = rows.filter(state=MemoryState.TRASHED).count()
    return {
        "memories.memory": listed,
        "memories.memory.trash": trash,
        "memories.memory.other": rows.count() - listed - trash,
    }
