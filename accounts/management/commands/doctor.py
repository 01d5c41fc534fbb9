"""Check a running deployment from outside, the way a hosted MCP client will see it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.doctor import FAIL, OK, run_checks


class Command(BaseCommand):
    help = (
        "Check a deployment from outside with no credentials: health, protected-resource "
        "metadata, both discovery documents, PKCE, registration and the 401 challenge on /mcp."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("url", help="The public URL, e.g. https://memory.example.com(/mcp)")

    def handle(self, *args: Any, **opts: Any) -> None:
        report = run_checks(opts["url"])
        for level, text in report.lines:
            line = f"{level:>4}  {text}"
            if level == OK:
                self.stdout.write(self.style.SUCCESS(line))
            elif level == FAIL:
                self.stdout.write(self.style.ERROR(line))
            else:
                self.stdout.write(self.style.WARNING(line))
        if report.failed:
            failures = sum(1 for level, _ in report.lines if level == FAIL)
            raise CommandError(f"{failures} problem(s) would stop a connector.")
        self.stdout.write("A connector should get through.")
