"""`manage.py mcp --user EMAIL [--app NAME] [--scopes read,write,delete]`: the MCP server over
stdio for a local client.

A new app may read and write, not delete, like a client token; `--scopes` grants what it names,
to a new app and to an existing one each time the client starts it (otherwise an existing app
keeps the grant the owner gave it on the Connected apps page).

An app the owner disconnected (its Disconnect on the Connected apps page, or an erase) stays
refused when a client launches this command again, with a sentence on stderr saying how to allow
it again; `--allow-again`, typed by the owner, does that and exits without serving (so it never
sits in a client's configuration).

stdout carries the protocol and nothing else: logs go to stderr (settings.LOGGING), and while
the command sets itself up, file descriptor 1 points at stderr so that nothing a library or a
child process (the embedded PostgreSQL) prints can corrupt the stream.

A client launches the command when it starts and asks its first question later: what the first
call needs (the embedding model and the classifier from the command's first line, the user's
search index and this app's view of it once the app is known) is loaded on a thread of its own
while the process sets up and the client opens its session (`_LoadAhead`; `python -m bench
stdio` measures launch to first answer).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import sys
import threading
from collections.abc import Iterator
from typing import Any

import anyio
from django.core.management.base import CommandError, CommandParser
from django.db import connection

from accounts.actors import (
    Actor,
    actor_for,
    owner_actor,
    stdio_app,
    stdio_disconnected,
    touch_app,
)
from accounts.client_tokens import parse_scopes
from accounts.management.base import UserCommand
from accounts.models import DEFAULT_APP_SCOPES, ConnectedApp, User
from accounts.services import app_allow_again, app_set_scopes
from kernel.errors import DomainError
from kernel.gates import SCOPE_READ
from mcpbridge.server import build_server, current_actor
from memories.search.index import start_sweeper
from memories.selectors.memories import memory_search
from memories.warm import warm_up

logger = logging.getLogger(__name__)


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


def stdio_actor_source(user: User, app: ConnectedApp) -> Any:
    """Re-read the app on every call: the user may pause, disconnect or erase it (the row goes)
    while the client runs."""
    user_id, app_id, name = user.pk, app.pk, app.name

    def source() -> Actor:
        current = (
            ConnectedApp.objects.select_related("owner")
            .filter(pk=app_id, owner_id=user_id, owner__is_active=True)
            .first()
        )
        if current is None or current.revoked_at is not None:
            raise stdio_disconnected(user, name)
        touch_app(current)
        return actor_for(current.owner, current)

    return source


class _LoadAhead:
    """Load what the first call needs on a thread of its own while the process sets up and the
    client initializes: first the model and the classifier (a search embeds its query, an add
    classifies), which need no database, from the command's first line; then, once the app is
    known, the user's index and this app's mask of it, through a search that records nothing. A
    call that comes sooner waits only for what it needs (the model loads once, behind its lock)."""

    def __init__(self) -> None:
        self._app: queue.SimpleQueue[tuple[User, ConnectedApp] | None] = queue.SimpleQueue()
        threading.Thread(target=self._load, name="stdio-load-ahead", daemon=True).start()

    def app_known(self, user: User, app: ConnectedApp) -> None:
        self._app.put((user, app))

    def cancel(self) -> None:
        self._app.put(None)

    def _load(self) -> None:
        try:
            warm_up()
            known = self._app.get()
            if known is None:
                return
            actor = actor_for(*known)
            if actor.has_scope(SCOPE_READ) and not actor.app.paused:
                memory_search(actor=actor, query="warm up", limit=1, record=False)
        except Exception:  # the calls load what they need themselves
            logger.warning("stdio: loading ahead failed", exc_info=True)
        finally:
            connection.close()


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
        parser.add_argument(
            "--allow-again",
            action="store_true",
            help="Let this app connect again after you disconnected it (or erased everything), "
            "then exit without serving: restart the client afterwards.",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        with _stdout_to_stderr():
            ahead = _LoadAhead() if not opts["allow_again"] else None
            try:
                source, server = self._setup(ahead, **opts)
            except BaseException:
                if ahead is not None:
                    ahead.cancel()
                raise
        if source is None:
            return
        connection.close()  # the tools use their own thread's connection
        start_sweeper()  # this machine's search files, swept whether this process searches or not

        async def serve() -> None:
            current_actor.set(source)
            await server.run_stdio_async()

        anyio.run(serve)

    def _setup(self, ahead: _LoadAhead | None, **opts: Any) -> tuple[Any, Any]:
        """The app this process serves (refused when disconnected), and the server; (None, None)
        for `--allow-again`, which serves nothing."""
        user = self.user_by_email(opts["user"], active_only=True)
        name = opts["app"].strip()
        if not name or len(name) > 120:
            raise CommandError("--app must be 1 to 120 characters.")
        try:
            scopes = parse_scopes(opts["scopes"]) if opts["scopes"] is not None else None
        except DomainError as exc:
            raise CommandError(f"--scopes: {exc.message}") from None
        if opts["allow_again"]:
            self._allow_again(user, name)
            return None, None
        app = stdio_app(user, name, scopes or DEFAULT_APP_SCOPES)
        if scopes is not None and list(app.scopes) != scopes:
            cli = owner_actor(user, ConnectedApp.CLI)
            app = app_set_scopes(actor=cli, app_id=app.pk, scopes=scopes)
            self.stderr.write(f"{app.name!r} may now: {', '.join(app.scopes)} (--scopes).")
        if ahead is not None:
            ahead.app_known(user, app)
        source = stdio_actor_source(user, app)
        server = build_server()
        self.stderr.write(
            f"Context Layer MCP (stdio) for {user.email} as app {app.name!r}, which may: "
            f"{', '.join(app.scopes) or 'nothing'}"
        )
        return source, server

    def _allow_again(self, user: User, name: str) -> None:
        cli = owner_actor(user, ConnectedApp.CLI)
        if app_allow_again(actor=cli, name=name):
            self.stderr.write(
                f"{name!r} may connect again: restart the client, and its next launch of this "
                "command (without --allow-again) makes a new app."
            )
        else:
            self.stderr.write(f"{name!r} was not disconnected: nothing to allow.")
