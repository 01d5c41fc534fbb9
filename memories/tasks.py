"""Background tasks (django-tasks; the database backend's worker runs them)."""

from __future__ import annotations

import logging
from pathlib import Path

from django.utils import timezone
from django_tasks import task

from accounts.actors import owner_actor
from accounts.models import ConnectedApp
from contextlayer.errors import DomainError
from contextlayer.tenancy import cross_tenant
from memories.imports import failure_message, import_execute
from memories.ingest.detect import load_export
from memories.models import ImportRun

logger = logging.getLogger("contextlayer.imports")


@task()
def run_import(run_id: str) -> str:
    """Import a dashboard upload; progress is written to its ImportRun as it goes."""
    with cross_tenant("the import worker finds its queued run by id; the run names its owner"):
        run = ImportRun.objects.select_related("owner").filter(pk=run_id).first()
    if run is None:  # erased meanwhile
        return "gone"
    if run.status != ImportRun.Status.RUNNING:  # queued twice (a resume raced a slow worker)
        return "skipped"
    actor = owner_actor(run.owner, ConnectedApp.DASHBOARD)
    try:
        export = load_export(Path(run.upload_path), run.source, name=run.filename or None)
        import_execute(
            actor=actor, export=export, extractor=run.extractor, limit=run.limit, run=run
        )
    except Exception as exc:
        # A domain error is the run's to show; anything else is logged by kind and place (the
        # log formatter keeps no exception text) and not re-raised, so no traceback quoting the
        # user's data lands in the task's stored result either.
        if not isinstance(exc, DomainError):
            logger.error("import run failed", exc_info=True, extra={"run": str(run.pk)})
        ImportRun.objects.filter(owner_id=run.owner_id, pk=run.pk).update(
            status=ImportRun.Status.FAILED,
            errors=[*run.errors, {"id": "", "error": failure_message(exc)}],
            finished_at=timezone.now(),
            upload_path="",
        )
        Path(run.upload_path).unlink(missing_ok=True)
        return "failed"
    return "done"
