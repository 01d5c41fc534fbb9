"""Access events: one row per read or write (content-free) and one JSON log line.

`record` writes in the caller's transaction, so a change and its event commit or roll back
together. A read's event (`durable=False`, outside a transaction) commits without waiting for
the disk: the reader is not kept waiting for an fsync, and a crash of the machine or of
PostgreSQL may lose the last fraction of a second of read events, never a write or its event
(docs/reliability.md, "Access events"). The log line goes to the `contextlayer.audit` logger
(its name is what operators, the benchmarks and the tests filter on, so it did not move with
the module)."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction

from accounts.actors import Actor
from activity.models import AccessEvent

logger = logging.getLogger("contextlayer.audit")


def record(
    actor: Actor,
    action: str,
    memory_ids: Iterable[uuid.UUID] = (),
    *,
    count: int | None = None,
    detail: dict[str, Any] | None = None,
    durable: bool = True,
) -> AccessEvent:
    """`durable=False`: a read's event, committed asynchronously when it is its own transaction
    (inside the caller's transaction the caller's commit decides)."""
    ids = list(memory_ids)
    event = AccessEvent(
        owner=actor.user,
        app=actor.app,
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
    logger.info(
        "access",
        extra={
            "action": action,
            "user_id": actor.user.pk,
            "app": actor.app.name,
            "app_id": actor.app.pk,
            "actor": actor.label,
            "memory_ids": [str(i) for i in ids[:50]],
            "count": event.count,
            **({"detail": detail} if detail else {}),
        },
    )
    return event
