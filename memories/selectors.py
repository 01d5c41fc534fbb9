"""Reads. Every function takes an explicit actor; another tenant's memory is simply not there."""

from __future__ import annotations

import base64
import binascii
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

import numpy as np
from django.conf import settings
from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone

from accounts.actors import Actor, require, require_owner
from accounts.models import SCOPE_READ, ConnectedApp
from activity import audit
from activity.models import AccessEvent
from contextlayer.category_names import fold
from contextlayer.errors import InvalidInput, NotFound
from memories import search
from memories.counting import added_since_q, listed_q
from memories.embeddings import get_embedder
from memories.models import LIVE_STATES, UNSHOWN_COLUMNS, Memory, MemoryState, MemoryVersion
from memories.text import clean_text
from memories.visibility import (
    trashed_q,
    visible_q,
    visible_sql,
)

MAX_PAGE = 200
MAX_SEARCH = 100


def parse_memory_id(value: object) -> uuid.UUID:
    """A malformed id is a missing memory, exactly like another user's id."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (ValueError, TypeError, AttributeError):
        raise NotFound() from None


def get_visible(actor: Actor, memory_id: uuid.UUID, *, for_update: bool = False) -> Memory | None:
    qs = Memory.objects.filter(visible_q(actor), id=memory_id)
    if for_update:
        qs = qs.select_for_update()
    return qs.first()


def memory_get(*, actor: Actor, memory_id: object, record: bool = True) -> Memory:
    """One memory. `record=False` for the owner's own dashboard views (GET changes nothing)."""
    require(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    if record:
        audit.record(actor, AccessEvent.Action.READ, [memory.id])
    return memory


@dataclass(frozen=True)
class MemoryFilters:
    state: str | None = MemoryState.ACTIVE  # None: every state
    category: str | None = None
    app_name: str | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None
    text: str | None = None  # substring match (case-insensitive)
    uncategorised: bool = False  # only memories without any category
    pinned: bool = False  # only memories the owner pinned


@dataclass(frozen=True)
class Page:
    items: list[Memory]
    next_cursor: str | None


def _encode_cursor(memory: Memory) -> str:
    raw = f"{memory.created_at.isoformat()}|{memory.id}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, uuid.UUID]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        created, mid = base64.urlsafe_b64decode(padded.encode()).decode().split("|")
        return datetime.fromisoformat(created), uuid.UUID(mid)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidInput("The cursor is not one this server issued.", field="cursor") from None


def _filtered(actor: Actor, filters: MemoryFilters) -> QuerySet[Memory]:
    qs = Memory.objects.filter(visible_q(actor))
    if filters.state is not None:
        if filters.state not in LIVE_STATES:
            raise InvalidInput(f"Unknown state {filters.state!r}.", field="state")
        qs = qs.filter(state=filters.state)
        if filters.state == MemoryState.ACTIVE:
            qs = qs.filter(superseded_by__isnull=True)
    if filters.category:
        qs = qs.filter(categories__contains=[fold(filters.category)])
    if filters.uncategorised:
        qs = qs.filter(categories__len=0)
    if filters.pinned:
        qs = qs.filter(pinned_at__isnull=False)
    if filters.app_name:
        # What the app wrote, or changed last: an app's rewrite of the owner's memory is its own.
        qs = qs.filter(Q(origin_app_name=filters.app_name) | Q(changed_by_name=filters.app_name))
    if filters.created_after:
        qs = qs.filter(created_at__gte=filters.created_after)
    if filters.created_before:
        qs = qs.filter(created_at__lt=filters.created_before)
    if filters.text:
        qs = qs.filter(text__icontains=filters.text)
    return qs


def memory_list(
    *,
    actor: Actor,
    filters: MemoryFilters | None = None,
    cursor: str | None = None,
    limit: int = 50,
    record: bool = True,
) -> Page:
    """Newest first, keyset-paginated (stable under concurrent writes)."""
    require(actor, SCOPE_READ)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}.", field="limit")
    qs = _filtered(actor, filters or MemoryFilters())
    if cursor:
        created, mid = _decode_cursor(cursor)
        qs = qs.filter(Q(created_at__lt=created) | Q(created_at=created, id__lt=mid))
    rows = list(qs.defer(*UNSHOWN_COLUMNS).order_by("-created_at", "-id")[: limit + 1])
    items = rows[:limit]
    next_cursor = _encode_cursor(items[-1]) if len(rows) > limit else None
    if record:
        audit.record(actor, AccessEvent.Action.LIST, [m.id for m in items])
    return Page(items=items, next_cursor=next_cursor)


def memory_count(*, actor: Actor, filters: MemoryFilters | None = None) -> int:
    require(actor, SCOPE_READ)
    return _filtered(actor, filters or MemoryFilters()).count()


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float


class SearchHits(list[SearchHit]):
    """Search results, best first. Empty means nothing relevant: no visible memory scored at least
    `min_score` (see `memories.search`), which every door says in its own words."""

    def __init__(self, hits: Sequence[SearchHit], *, min_score: float) -> None:
        super().__init__(hits)
        self.min_score = min_score

    @property
    def nothing_relevant(self) -> bool:
        return not self


def memory_search(
    *,
    actor: Actor,
    query: str,
    limit: int = 10,
    category: str | None = None,
    record: bool = True,
    min_score: float | None = None,
    expand: bool = True,
) -> SearchHits:
    """Hybrid search over the actor's active memories, best first, down to the relevance cut-off
    (`min_score`, by default `search.MIN_SCORE`; 0 returns the `limit` best whatever they score).

    `record=False` is for the server's own look-ups (reconciliation), which no app reads;
    `expand=False` searches a short query's own words only (benchmarks compare the two).
    """
    require(actor, SCOPE_READ)
    query = clean_text(query, field="query")
    if not 1 <= limit <= MAX_SEARCH:
        raise InvalidInput(f"limit must be between 1 and {MAX_SEARCH}.", field="limit")
    cut_off = search.MIN_SCORE if min_score is None else min_score
    if not 0 <= cut_off <= 1:
        raise InvalidInput("min_score must be between 0 and 1.", field="min_score")
    qvec = get_embedder().embed_query(query)
    visible, params = visible_sql(actor)
    cat = fold(category) if category else None
    candidates = search.hybrid(
        query,
        qvec,
        owner_id=actor.user.pk,
        visible=visible,
        params=params,
        category=cat,
        limit=limit,
        whole_store=actor.app.is_owner_door,
        min_score=cut_off,
        expand=expand,
    )
    # The consent rule once more, in SQL: whatever ranked the candidates, a memory the caller
    # may not see is never loaded.
    ids = [c.id for c in candidates]
    # A read's event need not wait for the disk (docs/reliability.md, "Access events"); in
    # autocommit it is written by the rows' own statement.
    folded = record and not connection.in_atomic_block
    rows = _search_rows(ids, visible, params, actor if folded else None)
    hits = [SearchHit(memory=rows[c.id], score=c.score) for c in candidates if c.id in rows]
    found = [h.memory.id for h in hits]
    if folded:
        audit.log(actor, AccessEvent.Action.SEARCH, found, count=len(found))
    elif record:
        audit.record(actor, AccessEvent.Action.SEARCH, found, durable=False)
    return SearchHits(hits, min_score=cut_off)


# Every column a door shows of a search hit (not the vector or the lexemes), named once.
_HIT_COLUMNS = ", ".join(
    f"m.{f.column}" for f in Memory._meta.concrete_fields if f.name not in UNSHOWN_COLUMNS
)


def _search_rows(
    ids: Sequence[uuid.UUID],
    visible: str,
    params: dict[str, object],
    record_for: Actor | None = None,
) -> dict[uuid.UUID, Memory]:
    """The found memories the caller may still see, in one statement built from the fragment
    the search itself ran with (`visible_sql`: the grant was read once for both): the ORM's
    `visible_q` compiled its subqueries and read the grant again on every search.

    With `record_for`, the same statement writes the search's access event for exactly the rows
    it returns (`audit.read_event_sql`), even when there are none."""
    if not ids and record_for is None:
        return {}
    rows = (
        f"SELECT {_HIT_COLUMNS} FROM memories_memory m "  # noqa: S608 - fragments, not input
        f"WHERE m.id = ANY(%(hit_ids)s::uuid[]) AND {search.ELIGIBLE} AND {visible}"
    )
    args: dict[str, object] = {**params, "hit_ids": list(ids)}
    if record_for is not None:
        event, event_args = audit.read_event_sql(
            record_for, AccessEvent.Action.SEARCH, "hit", "%(hit_ids)s::uuid[]"
        )
        rows = f"WITH hit AS ({rows}), event AS ({event}) SELECT * FROM hit"  # noqa: S608
        args.update(event_args)
    return {m.id: m for m in Memory.objects.raw(rows, args)}


def memory_versions(*, actor: Actor, memory_id: object) -> list[MemoryVersion]:
    """Earlier texts: owner doors only. Each was current under other conditions (another
    category, private, hidden from an app) that a version does not record, so no app reads them."""
    require_owner(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    return list(
        MemoryVersion.objects.filter(memory=memory, owner=actor.user).order_by("-created_at")
    )


# --- Dashboard reads: stats, readers, access trail, related memories, map, activity ------------
# Owner-facing views of the store. They never record access events: looking at your own memory
# in the dashboard is not an app reading it, and GET changes nothing.


@dataclass(frozen=True)
class MemoryStats:
    total: int
    by_state: dict[str, int]
    by_app: list[tuple[str, int]]
    added_this_week: int
    in_trash: int = 0  # deleted memories the owner can still restore (not counted in `total`)


def memory_stats(*, actor: Actor) -> MemoryStats:
    """Totals for the stats header, in two aggregate queries whatever the store's size (the
    first counts the trash beside the memories). What counts is `memories.counting`'s."""
    require_owner(actor, SCOPE_READ)
    shown = listed_q(actor.user)
    qs = Memory.objects.filter(shown)
    week_ago = timezone.now() - timedelta(days=7)
    agg = (
        Memory.objects.filter(owner=actor.user)
        .filter(shown | trashed_q(actor))
        .aggregate(
            total=Count("id", filter=shown),
            week=Count("id", filter=added_since_q(actor.user, week_ago)),
            in_trash=Count("id", filter=trashed_q(actor)),
            **{s: Count("id", filter=shown & Q(state=s)) for s in LIVE_STATES},
        )
    )
    by_app = [
        (row["origin_app_name"], row["n"])
        for row in qs.values("origin_app_name")
        .annotate(n=Count("id"))
        .order_by("-n", "origin_app_name")
    ]
    return MemoryStats(
        total=agg["total"],
        by_state={s: agg[s] for s in LIVE_STATES},
        by_app=by_app,
        added_this_week=agg["week"],
        in_trash=agg["in_trash"],
    )


def memory_changers(*, actor: Actor) -> list[str]:
    """Names of the doors that last changed a memory, for the app filter beside the origins."""
    require_owner(actor, SCOPE_READ)
    names = (
        Memory.objects.filter(visible_q(actor), superseded_by__isnull=True)
        .exclude(changed_by_name="")
        .values_list("changed_by_name", flat=True)
        .distinct()
    )
    return sorted(names)


def memory_categories(*, actor: Actor) -> list[str]:
    """Every category in use, for filter menus."""
    require_owner(actor, SCOPE_READ)
    visible, params = visible_sql(actor)
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT DISTINCT unnest(m.categories) AS c FROM memories_memory m WHERE {visible} "  # noqa: S608
            "ORDER BY c",
            params,
        )
        return [row[0] for row in cur.fetchall()]


def _with_echoes(owner_id: int, memory_ids: Sequence[uuid.UUID]) -> list[uuid.UUID]:
    """These memories and the apps' echoes of them (which go wherever the memory goes)."""
    echoes = Memory.objects.filter(owner_id=owner_id, echo_of_id__in=list(memory_ids))
    return [*memory_ids, *echoes.values_list("id", flat=True)]


def readers_of(owner_id: int, memory_ids: Sequence[uuid.UUID]) -> list[str]:
    """Apps (not the owner's own doors) that have read any of these memories (or an app's echo
    of one), per the access log."""
    rows = (
        AccessEvent.objects.filter(
            owner_id=owner_id,
            memory_ids__overlap=_with_echoes(owner_id, memory_ids),
            action__in=AccessEvent.READS,
        )
        .exclude(app__kind=ConnectedApp.Kind.BUILTIN)
        .values_list("app_name", flat=True)
        .distinct()
    )
    return sorted(set(rows))


def memory_readers(*, actor: Actor, memory_ids: Sequence[object]) -> list[str]:
    """Who has read these memories: shown to the owner before a delete, since apps cannot be
    made to forget. Owner doors only: an app is not told which other apps the owner connected."""
    require_owner(actor, SCOPE_READ)
    mids = [parse_memory_id(m) for m in memory_ids]
    if Memory.objects.filter(visible_q(actor), id__in=mids).count() != len(set(mids)):
        raise NotFound()
    return readers_of(actor.user.pk, mids)


def memory_access_trail(*, actor: Actor, memory_id: object, limit: int = 50) -> list[AccessEvent]:
    """Which app read or changed this memory, newest first."""
    require_owner(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    return list(
        AccessEvent.objects.filter(
            owner=actor.user, memory_ids__overlap=_with_echoes(actor.user.pk, [memory.id])
        )
        .select_related("app")
        .order_by("-created_at", "-id")[:limit]
    )


def memory_echoes(*, actor: Actor, memory_id: object) -> list[Memory]:
    """Apps' own statements of this memory (echoes), oldest first: each app that may not see
    the memory reads back its statement instead. Owner doors only."""
    require_owner(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    return list(
        Memory.objects.filter(owner=actor.user, echo_of=memory)
        .select_related("echo_app")
        .defer(*UNSHOWN_COLUMNS)
        .order_by("created_at", "id")
    )


def memory_related(*, actor: Actor, memory_id: object, limit: int = 5) -> list[SearchHit]:
    """Nearest neighbours by embedding among the actor's active memories (exact scan), only
    those related enough to pass search's cut-off (`search.meaning_relevance`): a store with
    nothing close shows nothing rather than its least unrelated memories."""
    require(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    if memory.embedding is None or memory.embedding_model != settings.EMBEDDING_MODEL:
        return []
    visible, params = visible_sql(actor)
    near = search.dense_arm(
        np.asarray(memory.embedding),
        owner_id=actor.user.pk,
        visible=visible,
        params=params,
        depth=limit + 1,
    )
    ids = [mid for mid, _ in near if mid != memory.id][:limit]
    rows = Memory.objects.filter(owner=actor.user).defer(*UNSHOWN_COLUMNS).in_bulk(ids)
    return [
        SearchHit(memory=rows[mid], score=sim)
        for mid, sim in near
        if mid in rows and search.meaning_relevance(sim) >= search.MIN_SCORE
    ]


@dataclass(frozen=True)
class MemoryMap:
    """Active memories per (category, app); uncategorised memories under the category ''.

    `apps` and `total` count memories; `categories` count the memories in each category, so a
    memory in two categories is in two of them and their sum can exceed `total`.
    """

    categories: list[tuple[str, int]]  # largest first
    apps: list[tuple[str, int]]
    cells: dict[tuple[str, str], int]
    total: int = 0


def memory_map(*, actor: Actor) -> MemoryMap:
    """The whole store at a glance: active memories by category and origin app, one query."""
    require_owner(actor, SCOPE_READ)
    visible, params = visible_sql(actor)
    # Cells count memberships (a memory in two categories is in two cells); the per-app rows
    # (`per_app`) count each memory once, so column totals agree with the number of memories.
    sql = f"""
        WITH v AS (
            SELECT m.origin_app_name, m.categories
            FROM memories_memory m
            WHERE m.state = 'active' AND m.superseded_by_id IS NULL AND {visible}
        )
        SELECT coalesce(c.cat, '') AS cat, v.origin_app_name, count(*), false AS per_app
        FROM v LEFT JOIN LATERAL unnest(v.categories) AS c(cat) ON true
        GROUP BY 1, 2
        UNION ALL
        SELECT NULL, v.origin_app_name, count(*), true FROM v GROUP BY 2
    """  # noqa: S608
    with connection.cursor() as cur:
        cur.execute(sql, params)
        rows = cur.fetchall()
    cells = {(cat, app): n for cat, app, n, per_app in rows if not per_app}
    app_totals = {app: n for _, app, n, per_app in rows if per_app}
    cat_totals: dict[str, int] = {}
    for (cat, _app), n in cells.items():
        cat_totals[cat] = cat_totals.get(cat, 0) + n
    order = lambda totals: sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))  # noqa: E731
    return MemoryMap(
        categories=order(cat_totals),
        apps=order(app_totals),
        cells=cells,
        total=sum(app_totals.values()),
    )


@dataclass(frozen=True)
class ActivityFilters:
    app_name: str | None = None
    app_id: int | None = None
    action: str | None = None
    memory_id: uuid.UUID | None = None
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class EventPage:
    items: list[AccessEvent]
    next_before: int | None  # pass as `before` for the next page


def _events(actor: Actor, filters: ActivityFilters) -> QuerySet[AccessEvent]:
    qs = AccessEvent.objects.filter(owner=actor.user)
    if filters.app_name:
        qs = qs.filter(app_name=filters.app_name)
    if filters.app_id is not None:
        qs = qs.filter(app_id=filters.app_id)
    if filters.memory_id is not None:
        qs = qs.filter(memory_ids__contains=[filters.memory_id])
    if filters.action:
        if filters.action not in AccessEvent.Action.values:
            raise InvalidInput(f"Unknown action {filters.action!r}.", field="action")
        qs = qs.filter(action=filters.action)
    if filters.since:
        qs = qs.filter(created_at__gte=filters.since)
    if filters.until:
        qs = qs.filter(created_at__lt=filters.until)
    return qs


def access_events(
    *,
    actor: Actor,
    filters: ActivityFilters | None = None,
    before: int | None = None,
    limit: int = 50,
) -> EventPage:
    """The access log, newest first, keyset-paginated by id."""
    require_owner(actor, SCOPE_READ)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}.", field="limit")
    qs = _events(actor, filters or ActivityFilters())
    if before is not None:
        qs = qs.filter(id__lt=before)
    rows = list(qs.select_related("app").order_by("-id")[: limit + 1])
    items = rows[:limit]
    return EventPage(items=items, next_before=items[-1].id if len(rows) > limit else None)


def access_apps(*, actor: Actor) -> list[str]:
    """Names of every door that appears in the access log, for filter menus."""
    require_owner(actor, SCOPE_READ)
    return sorted(
        set(AccessEvent.objects.filter(owner=actor.user).values_list("app_name", flat=True))
    )


@dataclass(frozen=True)
class DailyActivity:
    app_name: str
    day: date
    reads: int
    writes: int


def access_daily(
    *, actor: Actor, days: int = 14, filters: ActivityFilters | None = None
) -> list[DailyActivity]:
    """Reads and writes per app per day over the last `days` days, one grouped query. Days are
    those of the active time zone (the owner's, on the dashboard: contextlayer/owner_zone.py)."""
    require_owner(actor, SCOPE_READ)
    since = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(
        days=days - 1
    )
    f = filters or ActivityFilters()
    qs = _events(actor, ActivityFilters(app_name=f.app_name, action=f.action, since=since))
    rows = (
        qs.annotate(day=TruncDate("created_at"))
        .values("app_name", "day")
        .annotate(
            reads=Count("id", filter=Q(action__in=AccessEvent.READS)),
            writes=Count("id", filter=Q(action__in=AccessEvent.WRITES)),
        )
        .order_by("app_name", "day")
    )
    return [DailyActivity(r["app_name"], r["day"], r["reads"], r["writes"]) for r in rows]


@dataclass(frozen=True)
class AppReads:
    app_name: str
    last_read_at: datetime
    memories: list[Memory]
    third_party: bool = False


def app_recent_reads(*, actor: Actor, per_app: int = 5, scan: int = 300) -> list[AppReads]:
    """What each connected app read most recently (from the last `scan` read events)."""
    require_owner(actor, SCOPE_READ)
    events = list(
        AccessEvent.objects.filter(owner=actor.user, action__in=AccessEvent.READS)
        .exclude(app__kind=ConnectedApp.Kind.BUILTIN)
        .select_related("app")
        .order_by("-id")[:scan]
    )
    wanted: dict[str, list[uuid.UUID]] = {}
    last: dict[str, datetime] = {}
    third_party = {e.app_name for e in events if e.app is not None and e.app.is_third_party}
    for event in events:
        ids = wanted.setdefault(event.app_name, [])
        last.setdefault(event.app_name, event.created_at)
        for mid in event.memory_ids:
            if len(ids) < per_app and mid not in ids:
                ids.append(mid)
    rows = Memory.objects.filter(visible_q(actor)).in_bulk(
        [mid for ids in wanted.values() for mid in ids]
    )
    return [
        AppReads(app, last[app], [rows[mid] for mid in ids if mid in rows], app in third_party)
        for app, ids in wanted.items()
    ]
