"""Running migrations from a test: back to a migration of before, then forward to the latest, as
an upgrade does (the `migration_executor` fixture in tests/memories/conftest.py leaves the
database at the latest whatever happens)."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(executor: MigrationExecutor, targets: list[tuple[str, str]]) -> None:
    executor.loader.build_graph()  # what the last run applied
    executor.migrate(targets)


def migrate_to_latest(executor: MigrationExecutor) -> None:
    migrate(executor, MigrationExecutor(connection).loader.graph.leaf_nodes())
