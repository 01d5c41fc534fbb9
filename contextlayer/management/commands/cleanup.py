"""Delete expired OAuth tokens, DCR clients that never got a grant, import uploads no run will
read and memories kept in the trash for TRASH_DAYS (also runs hourly)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from contextlayer.tasks import run_cleanup, schedule_cleanup
from memories.tasks import schedule_move_if_needed


class Command(BaseCommand):
    help = (
        "Delete expired OAuth tokens, orphaned dynamically registered clients, import uploads "
        "no run will read and memories in the trash for longer than TRASH_DAYS."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--schedule",
            action="store_true",
            help="Also enqueue the hourly background clean-up (the worker then keeps it going), "
            "and the move of memories to EMBEDDING_MODEL if some are of another model.",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        result = run_cleanup()
        self.stdout.write(
            f"Deleted {result['expired_tokens']} expired token rows and "
            f"{result['orphan_clients']} orphaned clients; ended {result['dead_grants']} grants "
            f"with no token left; removed {result['expired_uploads']} expired and "
            f"{result['orphan_uploads']} orphaned import uploads; purged "
            f"{result['purged_memories']} memories kept in the trash for "
            f"{settings.TRASH_DAYS} days."
        )
        if opts["schedule"]:
            schedule_cleanup()
            self.stdout.write("Hourly clean-up scheduled.")
            if schedule_move_if_needed():
                self.stdout.write(
                    f"Memories not yet embedded with {settings.EMBEDDING_MODEL}: the move is "
                    "scheduled (manage.py reembed --status shows how far it is)."
                )
