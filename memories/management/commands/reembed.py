"""Move every memory's vector to EMBEDDING_MODEL now, in this process, or say how far the worker's
move is (memories/services/maintenance.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from memories.management.progress import progress_bar
from memories.services import maintenance
from memories.tasks import move_embeddings


class Command(BaseCommand):
    help = (
        "Embed every memory again with EMBEDDING_MODEL, user by user; each user's searches switch "
        "to it once all their memories have moved (the background worker does the same on its "
        "own). --status: how far it is. --second-arm: the second search arm's missing vectors."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--status",
            action="store_true",
            help="Only show which models the users' vectors are in and how far the move is.",
        )
        parser.add_argument(
            "--all",
            action="store_true",
            help="Also embed again the memories already on EMBEDDING_MODEL.",
        )
        parser.add_argument(
            "--second-arm",
            action="store_true",
            help=(
                "Only write the second search arm's vectors (USE, for memories not in English of "
                "users on multilingual-e5) that are missing: once, for a store that was on e5 "
                "before the arm existed or moved to it. Safe to run again."
            ),
        )
        parser.add_argument(
            "--batch", type=int, default=maintenance.BATCH, help="Memories per transaction."
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["status"]:
            self._status()
            return
        if opts["batch"] < 1:
            raise CommandError("--batch must be at least 1.")
        if opts["second_arm"]:
            written = maintenance.second_arm_fill(batch=opts["batch"])
            self.stdout.write(f"Wrote the second search arm's vectors of {written} memories.")
            return
        report = maintenance.move(
            again=opts["all"], batch=opts["batch"], progress=progress_bar(self.stderr)
        )
        self.stderr.write("")
        if report.busy:
            raise CommandError(
                "The background worker is moving the memories right now; "
                "`manage.py reembed --status` shows how far it is."
            )
        self.stdout.write(
            f"Embedded {report.embedded} memories with {report.target} in "
            f"{report.seconds:.0f} s; {report.users_switched} users now search with it."
        )
        if report.postponed:
            self.stdout.write(
                f"{len(report.postponed)} users were writing throughout and switch later "
                "(run this again, or let the worker do it)."
            )

    def _status(self) -> None:
        target = settings.EMBEDDING_MODEL
        shares = maintenance.progress()
        self.stdout.write(f"EMBEDDING_MODEL: {target}")
        if not shares:
            self.stdout.write("No memories yet.")
            return
        left = 0
        for share in shares:
            if share.next_model:
                left += share.memories - share.staged
                done = 100 * share.staged // max(share.memories, 1)
                self.stdout.write(
                    f"  {share.users} users moving from {share.model} to {share.next_model}: "
                    f"{share.staged} of {share.memories} memories embedded ({done}%); their "
                    f"searches use {share.model} until all of a user's memories are embedded."
                )
            else:
                on = (
                    " (their own choice)"
                    if share.chosen
                    else ("" if share.model == target else " (not yet queued for the move)")
                )
                self.stdout.write(
                    f"  {share.users} users on {share.model}{on}: {share.memories} memories."
                )
        rate = _recent_rate()
        if left and rate:
            eta = timedelta(seconds=round(left / rate))
            self.stdout.write(
                f"The worker embeds about {rate:.0f} memories a second: {left} to go, "
                f"about {eta} left."
            )
        elif left:
            self.stdout.write(
                f"{left} memories to go; the worker has not reported a slice in the last hour "
                "(is it running? `manage.py reembed` moves them in the foreground)."
            )


def _recent_rate() -> float | None:
    """Memories a second the worker's move embedded over its slices of the last hour."""
    from django_tasks_db.models import DBTaskResult

    since = timezone.now() - timedelta(hours=1)
    slices = DBTaskResult.objects.filter(
        task_path=move_embeddings.module_path, status="SUCCESSFUL", finished_at__gte=since
    ).values_list("return_value", flat=True)
    embedded = seconds = 0.0
    for value in slices:
        if isinstance(value, dict):
            embedded += float(value.get("embedded", 0))
            seconds += float(value.get("seconds", 0))
    return embedded / seconds if embedded and seconds else None
