"""PostgreSQL backend that starts the embedded server on first connection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        from kernel.embedded_db import ensure_running

        server = ensure_running(
            Path(settings.EMBEDDED_PGDATA),
            database=settings.EMBEDDED_DB_NAME,
            cleanup=settings.EMBEDDED_DB_CLEANUP,
        )
        self.settings_dict["HOST"] = server.socket_dir
        self.settings_dict["USER"] = server.user
        return super().get_connection_params()
