"""The profile an assistant loads at the start of a conversation: who the user is, in a few
thousand characters, without knowing what to search for yet.

What it holds, for the calling actor, under the consent rule (`visibility.visible_q` /
`visible_sql`: never a private, hidden, sensitive-hidden, paused, archived, superseded or
trashed memory, and nothing that tells an app such a memory exists):

1. The memories the owner pinned (`Memory.pinned_at`, set only through the owner's own apps by
   `memories.services.marks.memory_set_pinned`), most recently pinned first.
2. Then the most-read memories: those named by the most access events of kind `search` (a
   search hit) or `read` (fetched by id), by any entry point, among the newest `READ_EVENTS` such
   events of the last `PROFILE_READ_DAYS` days, counting each event once per memory; ties go to
   the most recently read, then the id. Listings and
   exports do not count (they name whole pages, not what anybody looked for), and neither do
   profile reads themselves (recorded as `list`), so the profile does not feed on itself.

Both parts are deduplicated (a pinned memory is not repeated) and bounded together by
`PROFILE_MAX_CHARS` characters of memory text: in that order, a memory whose text does not fit
in what is left is left out (a shorter one after it may still fit), and `omitted` says how many
were. At most `MAX_PINNED` pinned and `MAX_MOST_READ` most-read memories are considered.

Reading the profile records one `list` access event (detail `{"profile": true}`) naming what it
returned, so the owner's "who read what" stays true.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.gates import SCOPE_READ, require
from memories.models import UNSHOWN_COLUMNS, Memory, MemoryState
from memories.visibility import visible_q, visible_sql

MAX_PINNED = 500
MAX_MOST_READ = 50
# The most-read ranking reads at most this many of the newest counted events: its cost stays
# bounded however busy the owner's apps are (bench/profile.py).
READ_EVENTS = 2_000


@dataclass(frozen=True)
class Profile:
    pinned: list[Memory]  # most recently pinned first
    most_read: list[Memory]  # most read first
    omitted: int  # memories of either part left out to keep within `max_chars`
    max_chars: int

    @property
    def truncated(self) -> bool:
        return self.omitted > 0

    @property
    def memories(self) -> list[Memory]:
        return [*self.pinned, *self.most_read]

    @property
    def chars(self) -> int:
        return sum(len(m.text) for m in self.memories)


def _pinned(actor: Actor) -> list[Memory]:
    return list(
        Memory.objects.filter(
            visible_q(actor),
            pinned_at__isnull=False,
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
        )
        .defer(*UNSHOWN_COLUMNS)
        .order_by("-pinned_at", "id")[:MAX_PINNED]
    )


def _most_read(actor: Actor, leave_out: list[uuid.UUID]) -> list[Memory]:
    """The most-read active memories the actor may see, not pinned, best first (see above)."""
    visible, params = visible_sql(actor)
    params.update(
        since=timezone.now() - timedelta(days=settings.PROFILE_READ_DAYS),
        actions=[AccessEvent.Action.SEARCH, AccessEvent.Action.READ],
        leave_out=leave_out,
        n=MAX_MOST_READ,
        events=READ_EVENTS,
    )
    # The newest READ_EVENTS events (newest first by the owner's recent-events index), counted
    # per id (a few thousand groups at most), ranked, then looked up in that order under the
    # consent rule until MAX_MOST_READ are found: not once per event, nor once per memory read.
    sql = f"""
        WITH recent AS (
            SELECT e.memory_ids, e.created_at
            FROM memories_accessevent e
            WHERE e.owner_id = %(vis_owner)s AND e.created_at >= %(since)s
              AND e.action = ANY(%(actions)s)
            ORDER BY e.created_at DESC
            LIMIT %(events)s
        ), reads AS (
            SELECT r.id, count(*) AS n, max(recent.created_at) AS last
            FROM recent CROSS JOIN LATERAL unnest(recent.memory_ids) AS r(id)
            GROUP BY r.id
        )
        SELECT m.id
        FROM (SELECT * FROM reads ORDER BY n DESC, last DESC, id) ranked
        CROSS JOIN LATERAL (
            SELECT m.id FROM memories_memory m
            WHERE m.id = ranked.id AND m.state = 'active' AND m.superseded_by_id IS NULL
              AND NOT (m.id = ANY(%(leave_out)s::uuid[]))
              AND {visible}
        ) m
        ORDER BY ranked.n DESC, ranked.last DESC, ranked.id
        LIMIT %(n)s
    """  # noqa: S608 (the fragment is visibility.py's, every value a parameter)
    with connection.cursor() as cur:
        cur.execute(sql, params)
        ids = [row[0] for row in cur.fetchall()]
    # The consent rule once more, in the ORM: whatever ranked them, only what the actor may see.
    rows = Memory.objects.filter(visible_q(actor)).defer(*UNSHOWN_COLUMNS).in_bulk(ids)
    return [rows[mid] for mid in ids if mid in rows]


def memory_profile(*, actor: Actor, record: bool = True) -> Profile:
    """The actor's profile (see the module's docstring); records a `list` access event unless
    `record=False` (the owner's own dashboard views, which are not an app reading)."""
    require(actor, SCOPE_READ)
    budget = int(settings.PROFILE_MAX_CHARS)
    pinned = _pinned(actor)
    most_read = _most_read(actor, [m.id for m in pinned])
    kept: tuple[list[Memory], list[Memory]] = ([], [])
    omitted = 0
    for part, memories in enumerate((pinned, most_read)):
        for memory in memories:
            if len(memory.text) <= budget:
                kept[part].append(memory)
                budget -= len(memory.text)
            else:
                omitted += 1
    profile = Profile(
        pinned=kept[0],
        most_read=kept[1],
        omitted=omitted,
        max_chars=int(settings.PROFILE_MAX_CHARS),
    )
    if record:
        ids = [m.id for m in profile.memories]
        access_event_create(actor, AccessEvent.Action.LIST, ids, detail={"profile": True})
    return profile
