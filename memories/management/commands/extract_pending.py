"""Run the extraction that was deferred because the LLM was unavailable when the text arrived."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from accounts.actors import owner_actor
from accounts.management.base import UserCommand
from accounts.models import ConnectedApp
from memories.management.progress import progress_bar
from memories.services.deferred import memory_extract_pending


class Command(UserCommand):
    help = "Extract facts from a user's memories stored raw while the LLM was unavailable."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="Email of the user whose memories.")
        parser.add_argument("--limit", type=int, default=100, help="Most memories to process.")

    def handle(self, *args: Any, **opts: Any) -> None:
        if settings.EXTRACTION_MODE == "none":
            raise CommandError("EXTRACTION_MODE is none: there is no model to extract with.")
        user = self.user_by_email(opts["user"])
        report = memory_extract_pending(
            actor=owner_actor(user, ConnectedApp.CLI),
            limit=opts["limit"],
            progress=progress_bar(self.stderr),
        )
        self.stderr.write("")
        self.stdout.write(f"Processed {report.processed}; {report.remaining} still pending.")
        if report.error:
            raise CommandError(f"Stopped: {report.error}")
