"""Reads for the connected apps page: each app with what it did (from the access log)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import F

from accounts.actors import Actor
from accounts.models import ConnectedApp
from accounts.services import MANAGED_KINDS, _require_owner, require_owner
from memories.models import AccessEvent

_READS = ("search", "list", "read", "export")
_WRITES = ("add", "update")


@dataclass(frozen=True)
class AppRow:
    app: ConnectedApp
    memories_read: int
    memories_written: int
    redirect_host: str = ""


def _distinct_counts(owner_id: int) -> dict[tuple[int, str], int]:
    """Distinct memories each app read and wrote, in one query over the access log."""
    sql = f"""
        SELECT e.app_id,
               CASE WHEN e.action = ANY(%(reads)s) THEN 'r' ELSE 'w' END AS kind,
               count(DISTINCT m.id)
        FROM {AccessEvent._meta.db_table} e, unnest(e.memory_ids) AS m(id)
        WHERE e.owner_id = %(owner)s AND e.app_id IS NOT NULL
          AND e.action = ANY(%(actions)s)
        GROUP BY 1, 2
    """  # noqa: S608 - the only interpolation is our own table name
    params: dict[str, Any] = {
        "owner": owner_id,
        "reads": list(_READS),
        "actions": [*_READS, *_WRITES],
    }
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return {(app_id, kind): n for app_id, kind, n in cur.fetchall()}


def connected_app_list(*, actor: Actor) -> list[AppRow]:
    """Every live app that holds a grant, a client token or a stdio door, newest first."""
    _require_owner(actor)
    apps = list(
        ConnectedApp.objects.filter(
            owner=actor.user, kind__in=MANAGED_KINDS, revoked_at=None
        ).order_by("-created_at")
    )
    counts = _distinct_counts(actor.user.pk)
    return [
        AppRow(
            app=app,
            memories_read=counts.get((app.pk, "r"), 0),
            memories_written=counts.get((app.pk, "w"), 0),
        )
        for app in apps
    ]


def app_list(*, actor: Actor, include_revoked: bool = False) -> list[ConnectedApp]:
    """The owner's apps, most recently seen first (never-seen ones last, newest first)."""
    require_owner(actor)
    qs = ConnectedApp.objects.filter(owner=actor.user)
    if not include_revoked:
        qs = qs.filter(revoked_at__isnull=True)
    return list(qs.order_by(F("last_seen_at").desc(nulls_last=True), "-created_at", "-pk"))
