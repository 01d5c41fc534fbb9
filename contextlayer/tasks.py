"""Background clean-up on the django-tasks worker: the authorization server's leftovers, import
uploads no run will read, and memories whose time in the trash (TRASH_DAYS) is up; it also queues
the move of the store's vectors to EMBEDDING_MODEL when some are of another model
(`memories.tasks.move_embeddings`)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django_tasks import task

from accounts.oauth_tokens import oauth_cleanup
from kernel.task_queue import enqueue_once
from memories.services.trash import trash_purge_expired
from memories.services.uploads import uploads_cleanup
from memories.tasks import schedule_move_if_needed

CLEANUP_EVERY = timedelta(hours=1)


def run_cleanup() -> dict[str, int]:
    return {
        **oauth_cleanup(orphan_after=timedelta(hours=settings.OAUTH_ORPHAN_CLIENT_HOURS)),
        **uploads_cleanup(),
        "purged_memories": trash_purge_expired().memories,
    }


@task()
def cleanup_oauth() -> dict[str, int]:
    """Expired tokens, never-granted DCR/CIMD clients, forgotten uploads, the trash past
    TRASH_DAYS; then schedule the next run, so one enqueue (at `serve` start) keeps it periodic
    without a separate scheduler."""
    result = run_cleanup()
    schedule_cleanup(CLEANUP_EVERY)
    schedule_move_if_needed()  # a move whose worker died, or a setting changed without a restart
    return result


def schedule_cleanup(delay: timedelta = timedelta(0)) -> None:
    """Enqueue the next clean-up unless one is already waiting (restarts must not pile up)."""
    enqueue_once(cleanup_oauth, delay)
