"""Queuing a periodic or self-continuing background task (django-tasks' database backend) once:
a restart, or every slice of a long job, asks again, and the queue must not pile up."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone


def enqueue_once(task: Any, delay: timedelta = timedelta(0)) -> None:
    """Queue `task` to run after `delay`, unless a run of it is already waiting."""
    from django_tasks_db.models import DBTaskResult

    waiting = DBTaskResult.objects.filter(task_path=task.module_path, status="READY").exists()
    if not waiting:
        task.using(run_after=timezone.now() + delay).enqueue()
