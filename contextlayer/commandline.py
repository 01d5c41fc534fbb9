"""What `manage.py` adds around Django's command runner.

- Servers (`serve`, its task worker, `runserver`, the stdio `mcp` server) log one JSON object per
  line, for log shippers and MCP clients' log files. Every other command is run by a person in a
  terminal: it logs plain text, warnings and errors only (LOG_LEVEL still overrides), so its
  output and progress bar are not buried under "embedded postgres ready" and audit lines.
- A command run against a database that was never set up (a fresh CONTEXT_LAYER_HOME, say a
  client starting `manage.py mcp` without the server's environment) says what to do instead of
  printing a traceback.
"""

from __future__ import annotations

import os
import sys

# Long-running processes whose logs are read by machines rather than a person at a terminal.
SERVERS = frozenset({"serve", "runserver", "db_worker", "mcp"})
# The commands that set a data folder up: only they may create its embedded database. Any other
# command (the stdio `mcp` a client starts with the wrong CONTEXT_LAYER_HOME, say) says so instead.
SETS_UP = frozenset({"serve", "runserver", "migrate"})


def log_format_for(argv: list[str]) -> str:
    return "json" if len(argv) > 1 and argv[1] in SERVERS else "text"


def missing_tables_message(exc: BaseException) -> str | None:
    """What to do when a query met a database without our tables; None for any other error."""
    import psycopg

    cause = exc.__cause__
    if not isinstance(cause, psycopg.errors.UndefinedTable):
        return None
    return not_set_up_message(
        getattr(cause.diag, "message_primary", "") or str(cause).splitlines()[0]
    )


def not_set_up_message(problem: str) -> str:
    """What to do when the database this command was pointed at was never set up."""
    from django.conf import settings

    if settings.DATABASE_URL:
        where = "the database named by DATABASE_URL"
        elsewhere = "If your server uses another database, run this with its DATABASE_URL."
    else:
        where = f"the embedded database in {settings.EMBEDDED_PGDATA}"
        elsewhere = (
            "If your server keeps its data in another folder, run this with CONTEXT_LAYER_HOME "
            "set to that folder (the dashboard's Connect a client page shows it)."
        )
    return (
        f"Context Layer is not set up in {where} ({problem}).\n"
        f"{elsewhere}\n"
        "Otherwise set it up first: uv run manage.py migrate (serve does this when it starts)."
    )


def main(argv: list[str]) -> None:
    os.environ.setdefault("CONTEXT_LAYER_LOG_FORMAT", log_format_for(argv))
    from django.core.management import execute_from_command_line
    from django.db import DatabaseError

    from kernel.embedded_db import DataFolderNotSetUp, refuse_new_cluster

    if len(argv) < 2 or argv[1] not in SETS_UP:
        refuse_new_cluster()
    try:
        execute_from_command_line(argv)
    except DataFolderNotSetUp as exc:
        sys.stderr.write(not_set_up_message(str(exc)) + "\n")
        sys.exit(1)
    except DatabaseError as exc:
        message = missing_tables_message(exc)
        if message is None:
            raise
        sys.stderr.write(message + "\n")
        sys.exit(1)
