"""Erase everything of a user in one transaction and print the erasure receipt."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser

from accounts.actors import owner_actor
from accounts.management.base import UserCommand
from accounts.models import ConnectedApp
from memories.services.erasure import receipt_as_dict, user_erase


class Command(UserCommand):
    help = (
        "Remove every memory, version, embedding, import manifest, access event, connected app, "
        "grant and token of a user; print the erasure receipt (no personal data)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="Email of the user to erase.")
        parser.add_argument("--yes", action="store_true", help="Confirm: this cannot be undone.")
        parser.add_argument(
            "--delete-account",
            action="store_true",
            help="Also delete the account itself and end its sessions.",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        user = self.user_by_email(opts["user"])
        if not opts["yes"]:
            raise CommandError("Erasing cannot be undone: add --yes to confirm.")
        actor = owner_actor(user, ConnectedApp.CLI, operator="manage.py erase")
        receipt = user_erase(actor=actor, delete_account=opts["delete_account"])
        self.stdout.write(json.dumps(receipt_as_dict(receipt), indent=2))
