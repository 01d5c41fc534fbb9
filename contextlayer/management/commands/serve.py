"""Start the whole app: embedded database (unless DATABASE_URL), migrations, task worker, ASGI."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import OperationalError, connection


class Command(BaseCommand):
    help = "Run Context Layer (dashboard, API, MCP) with its background worker."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--host", default=os.environ.get("HOST", "127.0.0.1"), help="Interface to bind."
        )
        parser.add_argument(
            "--port", type=int, default=int(os.environ.get("PORT", "8000")), help="Port to bind."
        )
        parser.add_argument(
            "--no-worker", action="store_true", help="Do not start the background task worker."
        )
        parser.add_argument(
            "--no-migrate", action="store_true", help="Skip applying database migrations."
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        # Load the model, the category classifier and the application now, so the first request
        # does not pay; in a thread, while the database starts (a subprocess) and the migrations
        # are checked.
        warm = threading.Thread(target=_prepare, name="warm-up", daemon=True)
        warm.start()
        self._prepare_database(migrate=not opts["no_migrate"], worker=not opts["no_worker"])
        warm.join()
        self._serve(opts["host"], opts["port"], worker=not opts["no_worker"])

    def _prepare_database(self, *, migrate: bool, worker: bool) -> None:
        """Start (or reach) the database, apply what migrations are pending, and queue the
        background tasks the worker runs; the connection is closed before serving."""
        try:
            connection.ensure_connection()  # starts the embedded server when DATABASE_URL is unset
        except OperationalError as exc:
            raise CommandError(f"Cannot reach the database: {exc}") from exc
        if not settings.DATABASE_URL:
            self.stderr.write(f"Embedded PostgreSQL in {settings.EMBEDDED_PGDATA}")
        if migrate:
            if pending_migrations():
                call_command("migrate", interactive=False, verbosity=0)
            call_command("createcachetable", verbosity=0)  # shared rate-limit counters
        if worker:
            from contextlayer.tasks import schedule_cleanup
            from memories.tasks import schedule_move_if_needed

            schedule_cleanup()  # OAuth, uploads, the trash; it re-enqueues itself hourly
            if schedule_move_if_needed():  # some memories are of another EMBEDDING_MODEL
                self.stderr.write(
                    f"Memories are being embedded again with {settings.EMBEDDING_MODEL} in the "
                    "background; search answers meanwhile (manage.py reembed --status)."
                )
        connection.close()

    def _serve(self, host: str, port: int, *, worker: bool) -> None:
        """Run uvicorn until it stops, with the task worker beside it, stopped after it."""
        import uvicorn

        # uvicorn re-raises the signal it stopped on; make SIGTERM (systemd, `kill`) end the
        # process like Ctrl-C does, through `finally` and the exit handlers that stop the worker
        # and the embedded database, instead of killing it on the spot.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        server = uvicorn.Server(
            uvicorn.Config(
                "contextlayer.asgi:application",
                host=host,
                port=port,
                lifespan="on",
                log_level="warning",
                proxy_headers=settings.PRODUCTION,
                forwarded_allow_ips=",".join(settings.TRUSTED_PROXIES),
            )
        )
        started: list[subprocess.Popen[bytes]] = []
        if worker:
            # Started once the server answers, so its start-up does not compete with ours.
            threading.Thread(
                target=self._start_worker, args=(server, started), name="worker", daemon=True
            ).start()
        self.stderr.write(f"Context Layer on http://{host}:{port}  (Ctrl-C stops it)")
        try:
            server.run()
        finally:
            for process in started:
                _stop(process)

    @staticmethod
    def _start_worker(server: Any, started: list[subprocess.Popen[bytes]]) -> None:
        while not server.started:
            if server.should_exit:
                return
            time.sleep(0.05)
        started.append(
            subprocess.Popen(  # noqa: S603 - our own manage.py, fixed arguments
                [sys.executable, sys.argv[0], "db_worker", "--no-reload"],
                env={**os.environ},
            )
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End the worker as SIGTERM asks it to; kill it if it has not ended within ten seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def _prepare() -> None:
    """What the first request would otherwise wait for: the model and the classifier, the ASGI
    application (the MCP SDK's models) and every URL's module (the API's schemas): about a
    second of CPU that overlaps the database's start instead of following it."""
    from django.urls import get_resolver

    from memories.warm import warm_up

    warm_up()
    import contextlayer.asgi  # noqa: F401 - imported for its side effect: the app, built

    get_resolver().url_patterns  # noqa: B018 - imports contextlayer.urls and every view


def pending_migrations() -> bool:
    """Whether `migrate` has anything to apply. A warm start usually has not, and `migrate` with
    nothing to do still renders the project's state and sends post_migrate (tens of queries for
    content types and permissions created long ago)."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))
