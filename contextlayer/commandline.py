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


def log_format_for(argv: list[str]) -> str:
    return "json" if len(argv) > 1 and argv[1] in SERVERS else "text"


def missing_tables_message(exc: BaseException) -> str | None:
    """What to do when a query met a database without our tables; None for any other error."""
    import psycopg
    from django.conf import settings

    cause = exc.__cause__
    if not isinstance(cause, psycopg.errors.UndefinedTable):
        return None
    table = getattr(cause.diag, "message_primary", "") or str(cause).splitlines()[0]
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
        f"Context Layer is not set up in {where} ({table}).\n"
        f"{elsewhere}\n"
        "Otherwise set it up first: uv run manage.py migrate (serve does this when it starts)."
    )


def main(argv: list[str]) -> None:
    os.environ.setdefault("CONTEXT_LAYER_LOG_FORMAT", log_format_for(argv))
    from django.core.management import execute_from_command_line
    from django.db import DatabaseError

    try:
        execute_from_command_line(argv)
    except DatabaseError as exc:
        message = missing_tables_message(exc)
        if message is None:
            raise
        sys.stderr.write(message + "\n")
        sys.exit(1)
