"""Background tasks (django-tasks; the database backend's worker runs them), by the path a queued
row names: an import queued before the task moved to `memories.services.import_runs` still runs.

`move_embeddings`: the store's vectors moved to EMBEDDING_MODEL (memories/services/maintenance.py),
a slice of MOVE_SLICE at a time so that imports and the clean-up queued meanwhile wait at most
that long. Each slice first queues the next one, due when it should end: a worker that dies
mid-slice (a crash, a redeploy) finds it waiting when it comes back, and the move goes on from the
vectors already staged. `serve`, `cleanup --schedule` and the hourly clean-up queue it whenever a
user's vectors are not of EMBEDDING_MODEL.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django_tasks import task

from kernel.task_queue import enqueue_once
from memories.services import maintenance
from memories.services.import_runs import run_import

__all__ = ["move_embeddings", "run_import", "schedule_move"]

MOVE_SLICE = timedelta(seconds=30)


@task()
def move_embeddings() -> dict[str, Any]:
    """One slice of the move; the next is queued unless nothing is left."""
    schedule_move(MOVE_SLICE)  # in case this worker does not finish the slice
    report = maintenance.move(seconds=MOVE_SLICE.total_seconds())
    if not report.done and not report.busy:
        schedule_move()
    return report.as_dict()


def schedule_move(delay: timedelta = timedelta(0)) -> None:
    """Queue a slice of the move unless one is already waiting (restarts must not pile up)."""
    enqueue_once(move_embeddings, delay)


def schedule_move_if_needed() -> bool:
    """Queue the move when some user's vectors are not of EMBEDDING_MODEL; whether it was."""
    if not maintenance.move_needed():
        return False
    schedule_move()
    return True
