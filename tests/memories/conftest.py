"""Fixtures of the memories tests: no process index left from another test, migrations run from a
test, an app with the default consent (the sensitive-language tests' reader).

Fixtures the dashboard's tests (tests/web/) share with these (bulk rows, app actors, upload
folders, htmx headers) and the fake LLM's live in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.actors import Actor
from accounts.models import User
from memories.search import index as search_index


@pytest.fixture
def fresh_indexes() -> Iterator[None]:
    """No process index of a user left from another test (tests that move users between models
    change what an index holds)."""
    search_index.clear()
    yield
    search_index.clear()


@pytest.fixture
def migration_executor() -> Iterator[MigrationExecutor]:
    """Migrations run from the test (tests/memories/migrations_run.py); the database is left at
    the latest whatever happens."""
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield MigrationExecutor(connection)
    MigrationExecutor(connection).migrate(latest)


@pytest.fixture
def default_app(owner: User, app_actor: Callable[[User, str], Actor]) -> Actor:
    """An app with the default consent: no sensitive category in its grant."""
    return app_actor(owner, "Claude Desktop")
