"""Re-run local classification for one user's memories whose categories they did not choose."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from accounts.actors import owner_actor
from accounts.management.base import UserCommand
from accounts.models import ConnectedApp
from memories.management.progress import progress_bar
from memories.services.categories import memory_recategorize


class Command(UserCommand):
    help = (
        "Classify a user's uncategorised memories (or, with --all, every memory whose categories "
        "the user did not set) with the local model; shows progress."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="Email of the user whose memories.")
        parser.add_argument(
            "--all",
            action="store_true",
            help="Also re-label memories that already have automatic categories.",
        )
        parser.add_argument("--batch", type=int, default=256, help="Memories per batch.")

    def handle(self, *args: Any, **opts: Any) -> None:
        user = self.user_by_email(opts["user"])
        # The cli app: the change is audited like any other write.
        actor = owner_actor(user, ConnectedApp.CLI)
        changed = memory_recategorize(
            actor=actor,
            all_memories=opts["all"],
            batch=opts["batch"],
            progress=progress_bar(self.stderr),
        )
        self.stderr.write("")
        self.stdout.write(f"Updated the categories of {changed} memories.")
