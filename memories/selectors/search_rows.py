"""A search's hits loaded as `Memory` objects in one statement: the consent rule applied once more
in SQL (whatever ranked the candidates, a memory the caller may not see is never loaded), and the
search's access event written by the same statement. Apart from the search selector because it
builds model objects from raw rows with the ORM's internals (its converters, `Memory.from_db`),
cheaper in CPU than `Memory.objects.raw` on every search. Not in `memories/search/`: that package
sits below the models (`memories.models` imports it), so it cannot load them."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import DEFERRED

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import read_event_sql
from memories.models import UNSHOWN_COLUMNS, Memory
from memories.search.sql import ELIGIBLE

# Every column an entry point shows of a search hit (not the vector or the lexemes), named once.
_HIT_FIELDS = [f for f in Memory._meta.concrete_fields if f.name not in UNSHOWN_COLUMNS]
_HIT_COLUMNS = ", ".join(f"m.{f.column}" for f in _HIT_FIELDS)
# Where each of the model's fields is in a hit row (None: not loaded, deferred), so a row becomes
# the full argument list of Memory.from_db without its per-row search of the loaded names.
_HIT_SLOTS = [
    _HIT_FIELDS.index(f) if f in _HIT_FIELDS else None for f in Memory._meta.concrete_fields
]
_MEMORY_NAMES = [f.attname for f in Memory._meta.concrete_fields]


@cache
def _converters() -> list[tuple[int, list[Any], Any]]:
    """The ORM's converters of the hit columns (as `Memory.objects.raw` applies them), found once
    per process: finding them on every search cost more CPU than loading its ten rows."""
    compiler = Memory.objects.none().query.get_compiler(connection=connection)
    found = compiler.get_converters([f.get_col(Memory._meta.db_table) for f in _HIT_FIELDS])
    return [(i, converters, expression) for i, (converters, expression) in found.items()]


def _memories(sql: str, args: dict[str, Any]) -> dict[uuid.UUID, Memory]:
    """The rows of `sql` (the hit columns, in order) as Memory objects, as the ORM builds them."""
    with connection.cursor() as cur:
        cur.execute(sql, args)
        rows = cur.fetchall()
    found = {}
    for row in rows:
        loaded = list(row)
        for i, converters, expression in _converters():
            for convert in converters:
                loaded[i] = convert(loaded[i], expression, connection)
        values = [DEFERRED if i is None else loaded[i] for i in _HIT_SLOTS]
        memory = Memory.from_db(connection.alias, _MEMORY_NAMES, values)
        found[memory.id] = memory
    return found


def load_hits(
    ids: Sequence[uuid.UUID],
    visible: str,
    params: dict[str, object],
    record_for: Actor | None = None,
) -> dict[uuid.UUID, Memory]:
    """The found memories the caller may still see, in one statement built from the fragment
    the search itself ran with (`visible_sql`: the grant was read once for both): the ORM's
    `visible_q` compiled its subqueries and read the grant again on every search.

    With `record_for`, the same statement writes the search's access event for exactly the rows
    it returns (`activity.services.read_event_sql`), even when there are none."""
    if not ids and record_for is None:
        return {}
    rows = (
        f"SELECT {_HIT_COLUMNS} FROM memories_memory m "  # noqa: S608 - fragments, not input
        f"WHERE m.id = ANY(%(hit_ids)s::uuid[]) AND {ELIGIBLE} AND {visible}"
    )
    args: dict[str, object] = {**params, "hit_ids": list(ids)}
    if record_for is not None:
        event, event_args = read_event_sql(
            record_for, AccessEvent.Action.SEARCH, "hit", "%(hit_ids)s::uuid[]"
        )
        rows = f"WITH hit AS ({rows}), event AS ({event}) SELECT * FROM hit"  # noqa: S608
        args.update(event_args)
    return _memories(rows, args)
