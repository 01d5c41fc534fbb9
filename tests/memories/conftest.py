"""Fixtures of the memories tests: another user's browser, bulk rows, app actors, upload folders,
migrations run from a test.

The fake LLM fixtures (`brain`, `fake_provider`, `stub_server`, `llm`) live in tests/conftest.py:
every door's tests use them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, actor_for
from accounts.models import ALL_SCOPES, ConnectedApp, User
from memories.models import Memory
from memories.search import index as search_index
from tests.personas import signed_in


@pytest.fixture
def stranger_client(stranger: User) -> Client:
    return signed_in(stranger)


@pytest.fixture
def htmx() -> dict[str, str]:
    """Headers htmx sends with a request."""
    return {"HX-Request": "true"}


@pytest.fixture
def bulk_memories() -> Callable[[User, int], None]:
    """Rows straight into the table, from three apps and with or without a category: the list
    page needs neither embeddings nor the model, and 10,000 rows take a second this way."""

    def create(owner: User, n: int) -> None:
        now = timezone.now()
        Memory.objects.bulk_create(
            [
                Memory(
                    owner=owner,
                    text=f"Memory number {i}",
                    text_key=f"{i:064d}",
                    categories=["work"] if i % 3 else [],
                    origin_app_name=("Claude", "Cursor", "dashboard")[i % 3],
                    provenance={"conversation_title": f"Chat {i}", "source": "chatgpt"},
                    created_at=now,
                    updated_at=now,
                )
                for i in range(n)
            ],
            batch_size=2_000,
        )

    return create


@pytest.fixture
def app_actor() -> Callable[[User, str], Actor]:
    """A connected client (token kind) of the user, with every scope: an app that reads."""

    def create(user: User, name: str) -> Actor:
        app = ConnectedApp.objects.create(
            owner=user, kind=ConnectedApp.Kind.TOKEN, name=name, scopes=list(ALL_SCOPES)
        )
        return actor_for(user, app)

    return create


@pytest.fixture
def upload_dir(settings: SettingsWrapper, tmp_path: Path) -> Path:
    """Dashboard uploads kept in this test's own folder."""
    settings.IMPORT_UPLOAD_DIR = tmp_path / "uploads"
    return Path(settings.IMPORT_UPLOAD_DIR)


@pytest.fixture
def immediate_tasks(settings: SettingsWrapper) -> None:
    """Background tasks (a dashboard import) run as soon as they are enqueued."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


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
