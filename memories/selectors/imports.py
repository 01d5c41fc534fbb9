"""The owner's import runs, as the dashboard and the API show them (the runs' life is
`memories.services.import_runs`)."""

from __future__ import annotations

from accounts.actors import Actor
from kernel.errors import NotFound
from kernel.gates import require_owner
from memories.transfer_models import ImportRun


def import_run_get(*, actor: Actor, run_id: object) -> ImportRun:
    """One of the actor's own runs; another user's run is NotFound, like a missing one."""
    require_owner(actor)
    try:
        run = ImportRun.objects.filter(owner=actor.user, pk=str(run_id)).first()
    except Exception:  # malformed uuid
        run = None
    if run is None:
        raise NotFound("import")
    return run


def import_run_list(*, actor: Actor, limit: int = 20) -> list[ImportRun]:
    require_owner(actor)
    return list(ImportRun.objects.filter(owner=actor.user).order_by("-created_at")[:limit])
