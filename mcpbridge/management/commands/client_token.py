"""`client_token create|list|revoke`: per-client bearer tokens for MCP over HTTP."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from accounts.actors import owner_actor
from accounts.client_tokens import (
    client_token_create,
    client_token_list,
    client_token_revoke,
)
from accounts.management.base import UserCommand
from accounts.models import ConnectedApp, User
from memories.selectors.grants import grant_preview, known_categories

DEFAULT_EXPIRY_DAYS = 90


class Command(UserCommand):
    help = "Create, list or revoke a user's client tokens (Authorization: Bearer for /mcp)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="Create a token; the secret is printed once.")
        create.add_argument("--user", required=True, help="Email of the token's owner.")
        create.add_argument("--name", required=True, help='Which client, e.g. "Cursor on laptop".')
        create.add_argument(
            "--scopes",
            default="read,write",
            help="Comma-separated: read, write, delete (or memories:read, …). Default read,write.",
        )
        create.add_argument(
            "--categories",
            default=None,
            help="Comma-separated category names the token may see (sensitive ones included "
            "by name; only memories in them), or `all`. Default: every category that is not "
            "sensitive.",
        )
        expiry = create.add_mutually_exclusive_group()
        expiry.add_argument(
            "--expires-days",
            type=int,
            default=None,
            help=f"Expire after this many days (at least 1; default {DEFAULT_EXPIRY_DAYS}).",
        )
        expiry.add_argument(
            "--no-expiry", action="store_true", help="A token that never expires (explicitly)."
        )
        listing = sub.add_parser("list", help="List live tokens (never the secrets).")
        listing.add_argument("--user", required=True, help="Email of the tokens' owner.")
        listing.add_argument("--all", action="store_true", help="Include revoked tokens.")
        revoke = sub.add_parser("revoke", help="Revoke one token by id or shown prefix.")
        revoke.add_argument("--user", required=True, help="Email of the token's owner.")
        revoke.add_argument("token", help="The token's id or its prefix (clt_xxxxxxxx).")

    def handle(self, *args: Any, **opts: Any) -> None:
        user = self.user_by_email(opts["user"])
        getattr(self, f"_{opts['action']}")(user, opts)

    def _create(self, user: User, opts: dict[str, Any]) -> None:
        days = opts["expires_days"]
        if days is not None and days < 1:
            raise CommandError(
                f"--expires-days {days}: a token expires after at least 1 day. "
                "For a token that never expires, say --no-expiry."
            )
        if opts["no_expiry"]:
            expires = None
        else:
            expires = timezone.now() + timedelta(days=days or DEFAULT_EXPIRY_DAYS)
        issued = client_token_create(
            actor=owner_actor(user, ConnectedApp.CLI, operator="manage.py client_token"),
            name=opts["name"],
            known=known_categories(user),
            scopes=opts["scopes"],
            expires_at=expires,
            categories=opts["categories"],
        )
        app = issued.token.app
        preview = grant_preview(user, app)
        until = f"expires {expires:%Y-%m-%d}" if expires else "never expires"
        # The secret alone on stdout, so `$(manage.py client_token create …)` captures it.
        self.stdout.write(issued.secret)
        self.stderr.write(
            f"Created token {issued.token.pk} ({issued.token.prefix}…) for "
            f"{issued.token.name!r} with {' '.join(issued.token.scopes)}; {until}. "
            f"{preview.sentence} It is shown only now; store it in the client's config."
        )

    def _list(self, user: User, opts: dict[str, Any]) -> None:
        tokens = client_token_list(user=user, include_revoked=opts["all"])
        if not tokens:
            self.stderr.write("No tokens.")
        for t in tokens:
            used = t.last_used_at.isoformat(timespec="seconds") if t.last_used_at else "never"
            state = "revoked" if t.revoked_at else ("paused" if t.app.paused else "live")
            if t.expires_at is None:
                until = "never expires"
            elif t.expires_at <= timezone.now():
                until = f"expired {t.expires_at.isoformat(timespec='seconds')}"
            else:
                until = f"expires {t.expires_at.isoformat(timespec='seconds')}"
            self.stdout.write(
                f"{t.pk}\t{t.prefix}…\t{t.name}\t{','.join(t.scopes)}\t{state}\t{until}"
                f"\tlast used {used}"
            )

    def _revoke(self, user: User, opts: dict[str, Any]) -> None:
        actor = owner_actor(user, ConnectedApp.CLI, operator="manage.py client_token")
        token = client_token_revoke(actor=actor, token=opts["token"])
        self.stdout.write(f"Revoked token {token.pk} ({token.prefix}…) {token.name!r}.")
