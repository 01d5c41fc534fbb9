"""Find credentials and instructions to assistants among a user's memories, hold them from every
app until the user decides, list them, and apply the user's decision (issue 37). The upgrade
that brought this check ran it once for every user (migration 0024)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from accounts.actors import owner_actor
from accounts.management.base import UserCommand
from accounts.models import ConnectedApp
from memories.selectors.harm import held_memories
from memories.services.harm_check import DECISIONS, harm_check, harm_decide


class Command(UserCommand):
    help = (
        "Hold a user's memories that hold a credential or instruct AI assistants (no app reads "
        "them until the user decides) and list them; --decide ID --as redact|private|confirm "
        "applies a decision."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="Email of the user whose memories.")
        parser.add_argument("--decide", metavar="ID", help="The memory to decide about.")
        parser.add_argument(
            "--as", dest="decision", choices=DECISIONS, help="The decision for --decide."
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        user = self.user_by_email(opts["user"])
        actor = owner_actor(user, ConnectedApp.CLI)  # audited like any of the owner's writes
        if opts["decide"]:
            if not opts["decision"]:
                self.stderr.write("--decide needs --as redact, private or confirm.")
                return
            harm_decide(actor=actor, memory_id=opts["decide"], decision=opts["decision"])
            self.stdout.write(f"Done: {opts['decision']} for {opts['decide']}.")
            return
        held = harm_check(actor=actor)
        self.stdout.write(f"{held} memories are held from every app until you decide.")
        for h in held_memories(actor=actor):
            preview = h.redacted.replace("\n", " ")[:100]
            self.stdout.write(f"{h.memory.id}  {h.kind:11}  {preview}  ({h.why})")
