"""Create a single-use sign-up link (for SIGNUP_POLICY=invite)."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.urls import reverse

from accounts.invitations import invitation_create


class Command(BaseCommand):
    help = "Create an invitation link; only its holder can sign up (SIGNUP_POLICY=invite)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--email", default="", help="Only this address may use the link.")
        parser.add_argument("--days", type=int, default=7, help="Days until the link expires.")
        parser.add_argument(
            "--base-url",
            default="",
            help="Origin for the printed link (default PUBLIC_URL, else http://HOST:PORT as "
            "`serve` would listen: 127.0.0.1:8000 unless HOST/PORT are set).",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        issued = invitation_create(created_by=None, email=opts["email"], days=opts["days"])
        base = (opts["base_url"] or settings.PUBLIC_URL).rstrip("/")
        if not base:
            host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")
            base = f"http://{host}:{port}"
            self.stderr.write(
                f"The link assumes the server answers at {base}; if it does not, pass "
                "--base-url https://your.host (or set PUBLIC_URL)."
            )
        link = f"{base}{reverse('account_signup')}?{urlencode({'invite': issued.token})}"
        if settings.SIGNUP_POLICY != "invite":
            self.stderr.write(
                f"Note: SIGNUP_POLICY is {settings.SIGNUP_POLICY!r}; links work only with 'invite'."
            )
        self.stdout.write(link)
