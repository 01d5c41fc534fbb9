"""Marking the few code paths that legitimately read or write across tenants.

Every query on a tenant table (one with an `owner` column, see `tests/owner_queries.py`) must
carry its owner predicate. A handful of paths cannot by nature: system maintenance over all
users, the operator's admin, erasing one's own account by id. They run inside
`with cross_tenant("why")`, so the exemption is a reviewed line of code next to the query, not
a list of SQL strings somewhere else. In production the context manager only sets a
ContextVar; the test suite's query checker honours it and counts each use by its reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import models

_reason: ContextVar[str | None] = ContextVar("cross_tenant_reason", default=None)


@contextmanager
def cross_tenant(reason: str) -> Iterator[None]:
    """Run the block as deliberately owner-free (the reason is reported by the checker)."""
    if not reason.strip():
        raise ValueError("cross_tenant needs a reason")
    token = _reason.set(reason)
    try:
        yield
    finally:
        _reason.reset(token)


def cross_tenant_reason() -> str | None:
    """The reason of the innermost active cross_tenant block, or None outside one."""
    return _reason.get()


class OwnedRow(models.Model):
    """Base of every tenant model (one with an `owner`): the ORM's own by-primary-key queries for
    a loaded row, `save()` and `refresh_from_db()`, also filter by its owner (defence in depth;
    the row was fetched owner-checked, and now its write-back is too)."""

    owner_id: Any

    class Meta:
        abstract = True

    def _do_update(self, base_qs: Any, *args: Any, **kwargs: Any) -> Any:
        return super()._do_update(base_qs.filter(**self._owned()), *args, **kwargs)

    def _owned(self) -> dict[str, Any]:
        return {"owner_id": self.owner_id}

    def refresh_from_db(
        self, using: str | None = None, fields: Any = None, from_queryset: Any = None
    ) -> None:
        if from_queryset is None:
            manager = type(self)._base_manager.db_manager(using, hints={"instance": self})
            from_queryset = manager.filter(**self._owned())
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)
