"""Check a running deployment from outside, the way a hosted MCP client will see it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from doctor.checks import run_checks
from doctor.report import FAIL, OK


class Command(BaseCommand):
    help = (
        "Check a deployment as connectors see it: health, protected-resource metadata, both "
        "discovery documents (every advertised endpoint answers, iss), 401 invalid_client for an "
        "unknown client, JSON error bodies, the 401 challenge on /mcp; with --token both MCP "
        "protocol versions and the tool annotations; and, in this installation, the consent "
        "page's CSP against https, loopback and app-scheme callbacks."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("url", help="The public URL, e.g. https://memory.example.com(/mcp)")
        parser.add_argument(
            "--token",
            default=None,
            help="A client token (clt_…) to connect over MCP with both protocol versions.",
        )
        parser.add_argument(
            "--no-local",
            action="store_true",
            help="Only check from outside (skip this installation's consent page and tools).",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        report = run_checks(opts["url"], token=opts["token"], in_process=not opts["no_local"])
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
