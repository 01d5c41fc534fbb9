"""Background tasks (django-tasks; the database backend's worker runs them), by the path a queued
row names: an import queued before the task moved to `memories.services.import_runs` still runs."""

from __future__ import annotations

from memories.services.import_runs import run_import

__all__ = ["run_import"]
