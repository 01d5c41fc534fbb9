"""The life of a dashboard or API import run, apart from the import engine
(`memories.services.imports`): an upload is prepared (read, estimated, kept), started once (queued
for the background worker, `run_import` here, which runs the engine), looked at while it runs,
and listed. The engine never imports this module, so the two stay out of each other's way."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_noop
from django_tasks import task

from accounts.actors import Actor, owner_actor
from accounts.models import ConnectedApp
from kernel.errors import DomainError, InvalidInput
from kernel.gates import SCOPE_WRITE, require_owner
from kernel.tenancy import cross_tenant
from memories.ingest.detect import load_export
from memories.selectors.imports import import_run_get
from memories.services.import_check import import_estimate, resolve_extractor
from memories.services.import_plans import failure_message
from memories.services.import_redo import previous_import, refuse_second_redo
from memories.services.imports import import_execute, import_run_create
from memories.transfer_models import ImportRun

logger = logging.getLogger("contextlayer.imports")


def import_prepare(
    *,
    actor: Actor,
    path: Path,
    filename: str = "",
    source: str = "auto",
    extractor: str = "auto",
    limit: int | None = None,
) -> ImportRun:
    """Read and estimate an upload kept at a server-chosen `path`; the run waits, pending, for
    `import_run_start`. The file becomes the run's or is deleted: whatever refuses it (the
    caller's permission, the parser, a crash) deletes it before the error is raised. Errors name
    the user's `filename`, never the server's copy."""
    try:
        require_owner(actor, SCOPE_WRITE)  # only the owner's own apps import
        mode = resolve_extractor(extractor)
        export = load_export(path, source, name=Path(filename).name or None)
        estimate = import_estimate(export=export, extractor=mode, limit=limit)
        run = import_run_create(
            actor=actor,
            source=export.source,
            extractor=estimate.extractor,
            filename=Path(filename).name,
            limit=limit,
            estimate=estimate,
            upload_path=str(path),
        )
        # Imported before: the check page warns, and offers to redo it
        # (memories/services/import_redo.py).
        previous = previous_import(actor.user, export)
        if previous is not None:
            run.estimate["previous"] = previous.as_dict()
            run.save(update_fields=["estimate"])
        return run
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def import_run_start(*, actor: Actor, run_id: object, redo: bool = False) -> ImportRun:
    """Queue a pending run for the background worker, once, or resume an interrupted one.

    A run that is really progressing is left alone: the claim is one conditional UPDATE, so two
    clicks (or two workers) cannot queue it twice. Resuming is safe because conversations already
    imported are recognised and skipped (ImportedConversation), so nothing is doubled.

    `redo`: the owner's explicit "import again" of an archive imported before (its check found
    `previous`): the run replaces the earlier import (memories/services/import_redo.py). Only a run
    that has not started may become one; a resumed redo stays one.
    """
    run = import_run_get(actor=actor, run_id=run_id)
    if redo and not run.estimate.get("previous"):
        raise InvalidInput(
            gettext_noop("This archive was not imported before: start it as it is."), field="redo"
        )
    now = timezone.now()
    stale = now - timedelta(seconds=settings.IMPORT_STALE_SECONDS)
    # The same rule as ImportRun.interrupted, in SQL.
    claimable = Q(status=ImportRun.Status.PENDING) | Q(
        status=ImportRun.Status.RUNNING, last_sign__lt=stale
    )
    if redo:
        claimable = Q(status=ImportRun.Status.PENDING)
    with transaction.atomic():
        if redo:
            refuse_second_redo(actor.user)
        claimed = (
            ImportRun.objects.alias(last_sign=Coalesce("heartbeat_at", "started_at", "created_at"))
            .filter(claimable, pk=run.pk, owner=actor.user)
            .exclude(upload_path="")
            .update(
                status=ImportRun.Status.RUNNING,
                heartbeat_at=now,
                conversations_total=run.estimate.get("conversations")
                or run.estimate.get("memories", 0),
                **({"redo": True} if redo else {}),
            )
        )
        if claimed:
            transaction.on_commit(lambda: run_import.enqueue(str(run.pk)))
    run.refresh_from_db()
    return run


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
