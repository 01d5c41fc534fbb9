"""`manage.py mcp --user EMAIL [--app NAME] [--scopes read,write,delete]`: the MCP server over
stdio for a local client.

A new app may read and write, not delete, like a client token; `--scopes` grants what it names,
to a new app and to an existing one each time the client starts it (otherwise an existing app
keeps the grant the owner gave it on the Connected apps page).

stdout carries the protocol and nothing else: logs go to stderr (settings.LOGGING), and while
the command sets itself up, file descriptor 1 points at stderr so that nothing a library or a
child process (the embedded PostgreSQL) prints can corrupt the stream.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

import anyio
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from accounts.actors import Actor, actor_for, owner_actor, stdio_app, touch_app
from accounts.client_tokens import parse_scopes
from accounts.management.base import UserCommand
from accounts.models import DEFAULT_APP_SCOPES, ConnectedApp
from accounts.services import app_set_scopes
from kernel.errors import DomainError
from mcpbridge.server import build_server, current_actor


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 1)
        os.close(saved)


def stdio_actor_source(user_id: int, app_id: int) -> Any:
    """Re-read the app on every call: the user may pause or revoke it while the client runs."""

    def source() -> Actor:
        app = ConnectedApp.objects.select_related("owner").get(pk=app_id, owner_id=user_id)
        if app.revoked_at is not None:
            raise DomainError(f"The app {app.name!r} was revoked; it cannot reach memories.")
        touch_app(app)
        return actor_for(app.owner, app)

    return source


class Command(UserCommand):
    help = "Serve MCP over stdio for one user (Claude Desktop, Claude Code, other local clients)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--user", required=True, help="Email of the user whose memory to serve."
        )
        parser.add_argument(
            "--app",
            default="local",
            help="Name of this client's connected app (default: local); pausable in the dashboard.",
        )
        parser.add_argument(
            "--scopes",
            help="What this app may do: read, write, delete, comma-separated. A new app gets "
            "read,write unless this says more; given, it applies each time the client starts.",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        with _stdout_to_stderr():
            user = self.user_by_email(opts["user"], active_only=True)
            name = opts["app"].strip()
            if not name or len(name) > 120:
                raise CommandError("--app must be 1 to 120 characters.")
            try:
                scopes = parse_scopes(opts["scopes"]) if opts["scopes"] is not None else None
            except DomainError as exc:
                raise CommandError(f"--scopes: {exc.message}") from None
            app = stdio_app(user, name, scopes or DEFAULT_APP_SCOPES)
            if scopes is not None and list(app.scopes) != scopes:
                cli = owner_actor(user, ConnectedApp.CLI)
                app = app_set_scopes(actor=cli, app_id=app.pk, scopes=scopes)
                self.stderr.write(f"{app.name!r} may now: {', '.join(app.scopes)} (--scopes).")
            source = stdio_actor_source(user.pk, app.pk)
            server = build_server()
            self.stderr.write(
                f"Context Layer MCP (stdio) for {user.email} as app {app.name!r}, which may: "
                f"{', '.join(app.scopes) or 'nothing'}"
            )
        connection.close()  # the tools use their own thread's connection

        async def serve() -> None:
            current_actor.set(source)
            await server.run_stdio_async()

        anyio.run(serve)
