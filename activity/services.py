"""Access events: one row per read or write (content-free) and one JSON log line.

`access_event_create` writes the row (then its log line) in the caller's transaction, so a
change and its event commit or roll back together; `access_log_line` writes the line alone. A
read's event (`durable=False` outside a transaction, or `read_event_sql` inside the
read's own statement) commits without waiting for the disk: the reader is not kept waiting
for an fsync, and a crash of the machine or of PostgreSQL may lose the last fraction of a
second of read events, never a write or its event (docs/reliability.md, "Access events").
The log line goes to the `contextlayer.audit` logger (its name is what operators, the
benchmarks and the tests filter on, so it did not move with the module)."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from activity.models import AccessEvent
from kernel.gates import Acting

logger = logging.getLogger("contextlayer.audit")


def access_event_create(
    actor: Acting,
    action: str,
    memory_ids: Iterable[uuid.UUID] = (),
    *,
    count: int | None = None,
    detail: dict[str, Any] | None = None,
    durable: bool = True,
) -> AccessEvent:
    """Writes the event's row, then its log line. `durable=False`: a read's event, committed
    asynchronously when it is its own transaction (inside the caller's transaction the caller's
    commit decides)."""
    ids = list(memory_ids)
    event = AccessEvent(
        owner=actor.user,
        app_id=actor.app.pk,
        app_name=actor.app.name,
        actor=actor.label,
        action=action,
        memory_ids=ids,
        count=len(ids) if count is None else count,
        detail=detail or {},
    )
    if durable or connection.in_atomic_block:
        event.save(force_insert=True)
    else:
        with transaction.atomic():
            # LOCAL: this transaction only; every other commit on the connection stays durable.
            with connection.cursor() as cur:
                cur.execute("SET LOCAL synchronous_commit TO OFF")
            event.save(force_insert=True)
    access_log_line(actor, action, ids, count=event.count, detail=detail)
    return event


def read_event_sql(actor: Acting, action: str, rows: str, ids: str) -> tuple[str, dict[str, Any]]:
    """A read's event as a data-modifying CTE over `rows` (a CTE of the rows read, with an `id`
    column), in the order of the uuid[] parameter expression `ids`, for a read that is one
    statement in autocommit: the event commits with it, without waiting for the disk, and costs
    no round trip of its own (what `access_event_create(..., durable=False)` does in three). The
    caller writes the log line with `access_log_line` once it knows the ids. Not for a caller
    inside a transaction: `set_config(..., true)` would make that whole transaction's commit
    asynchronous."""
    if connection.in_atomic_block:
        raise RuntimeError(
            "read_event_sql is for a statement in autocommit; use access_event_create()"
        )
    sql = (
        f"INSERT INTO {AccessEvent._meta.db_table} "  # noqa: S608 - names, not input
        "(owner_id, app_id, app_name, actor, action, memory_ids, count, detail, created_at) "
        "SELECT %(ev_owner)s, %(ev_app)s, %(ev_app_name)s, %(ev_actor)s, %(ev_action)s, "
        f"coalesce(array_agg(r.id ORDER BY array_position({ids}, r.id)), '{{}}'), count(*), "
        f"'{{}}'::jsonb, %(ev_at)s FROM {rows} r "
        # Evaluated once (the one group of an aggregate), even when no row was read.
        "HAVING set_config('synchronous_commit', 'off', true) IS NOT NULL"
    )
    params = {
        "ev_owner": actor.user.pk,
        "ev_app": actor.app.pk,
        "ev_app_name": actor.app.name,
        "ev_actor": actor.label,
        "ev_action": action,
        "ev_at": timezone.now(),
    }
    return sql, params


def access_log_line(
    actor: Acting,
    action: str,
    ids: list[uuid.UUID],
    *,
    count: int,
    detail: dict[str, Any] | None = None,
) -> None:
    """The event's JSON log line (content-free, like its row); writes no row."""
    logger.info(
        "access",
        extra={
            "action": action,
            "user_id": actor.user.pk,
            "app": actor.app.name,
            "app_id": actor.app.pk,
            "actor": actor.label,
            "memory_ids": [str(i) for i in ids[:50]],
            "count": count,
            **({"detail": detail} if detail else {}),
        },
    )
