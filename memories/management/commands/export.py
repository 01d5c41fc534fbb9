"""Export a user's whole memory as JSON (docs/export.schema.json) or Markdown."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser

from accounts.actors import owner_actor
from accounts.management.base import UserCommand
from accounts.models import ConnectedApp
from memories.services.export import export_build, export_markdown


class Command(UserCommand):
    help = "Export memories, versions, connected apps and the access log of a user."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="Email of the user to export.")
        parser.add_argument(
            "--format", choices=("json", "markdown"), default="json", help="Output format."
        )
        parser.add_argument("--output", help="File to write; standard output when omitted.")

    def handle(self, *args: Any, **opts: Any) -> None:
        actor = owner_actor(
            self.user_by_email(opts["user"]), ConnectedApp.CLI, operator="manage.py export"
        )
        if opts["format"] == "json":
            text = json.dumps(export_build(actor=actor), ensure_ascii=False, indent=2) + "\n"
        else:
            text = export_markdown(actor=actor)
        if opts["output"]:
            Path(opts["output"]).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {opts['output']}.")
        else:
            sys.stdout.write(text)
