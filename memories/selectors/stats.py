"""Counts and groupings over the owner's memories: the stats header, the map, the choices of the
filter menus, and what each app read lately."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from kernel.gates import SCOPE_READ, require_owner
from memories.models import LIVE_STATES, Memory
from memories.selectors.counting import added_since_q, listed_q
from memories.visibility import (
    trashed_q,
    visible_q,
    visible_sql,
)

MAX_PAGE = 200
MAX_SEARCH = 100


@dataclass(frozen=True)
class MemoryStats:
    total: int
    by_state: dict[str, int]
    by_app: list[tuple[str, int]]
    added_this_week: int
    in_trash: int = 0  # deleted memories the owner can still restore (not counted in `total`)


def memory_stats(*, actor: Actor) -> MemoryStats:
    """Totals for the stats header, in two aggregate queries whatever the store's size (the
    first counts the trash beside the memories). What counts is `memories.selectors.counting`'s."""
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
    """Names of the apps that last changed a memory, for the app filter beside the origins."""
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
