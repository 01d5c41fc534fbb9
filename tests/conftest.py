"""Shared fixtures: personas (the owner, another user who must see nothing) and their actors,
the deterministic fake LLM that every door's extraction tests run behind
(tests/memories/fake_llm.py), and the servers in this process that tests of several folders talk
to over HTTP (the MCP app, the whole app). Helpers live in helper modules (tests/personas.py, ...).

The servers read the test database through connections of their own, so tests that use them
need `@pytest.mark.django_db(transaction=True)`: rows must be committed to be seen.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from memories.extraction import llm as llm_module
from memories.models import Memory
from memories.search.background import writer as search_writer
from tests.accounts.oauth_client import PASSWORD
from tests.accounts.totp_clock import TotpClock
from tests.mcpbridge.mcp_clients import McpHttp
from tests.memories import fake_llm
from tests.personas import OWNER_PASSWORD, issue_token, signed_in
from tests.servers import LiveServer, start_server, start_whole_app, stop_server

# Every query our code runs on a tenant table must filter by owner (see tests/owner_queries.py).
pytest_plugins = ["tests.owner_queries"]


@pytest.fixture(autouse=True)
def snapshots_written_inline() -> Iterator[None]:
    """Search snapshots written on the test's own connection, in its transaction: the server
    writes them on a thread of their own, whose connection would not see a test's rows."""
    search_writer.background = False
    yield
    search_writer.background = True


@pytest.fixture
def owner(db: None) -> User:
    return User.objects.create_user("owner@example.com", OWNER_PASSWORD)


@pytest.fixture
def stranger(db: None) -> User:
    return User.objects.create_user("stranger@example.com", "another horse battery")


@pytest.fixture
def owner_dash(owner: User) -> Actor:
    return owner_actor(owner)


@pytest.fixture
def stranger_dash(stranger: User) -> Actor:
    return owner_actor(stranger)


@pytest.fixture
def owner_client(owner: User) -> Client:
    """The owner signed in in a browser (CSRF not enforced: see `signed_in`)."""
    return signed_in(owner)


@pytest.fixture
def totp_clock(monkeypatch: pytest.MonkeyPatch) -> TotpClock:
    """Pins the clock allauth's TOTP check reads (in this process: the test client and the
    live servers both), and forgets codes earlier tests marked as used."""
    from allauth.mfa import app_settings
    from allauth.mfa.totp.internal import auth
    from django.core.cache import cache

    period = app_settings.TOTP_PERIOD
    clock = TotpClock(now=(time.time() // period) * period + period / 2)
    monkeypatch.setattr(auth, "time", SimpleNamespace(time=lambda: clock.now))
    cache.clear()
    return clock


@pytest.fixture
def brain() -> Iterator[fake_llm.Brain]:
    """The fake model's brain for this test: which facts it extracts, what it supersedes."""
    fake_llm.BRAIN = fake_llm.Brain()
    llm_module._cache.clear()
    yield fake_llm.BRAIN
    llm_module._cache.clear()


@pytest.fixture
def fake_provider(settings: SettingsWrapper, brain: fake_llm.Brain) -> fake_llm.Brain:
    """An LLM extraction mode whose model is the brain, through mem0's provider factory."""
    from mem0.utils.factory import LlmFactory

    LlmFactory.register_provider("fake", "tests.memories.fake_llm.FakeLLM")
    settings.EXTRACTION_MODE = "fake"
    return brain


@pytest.fixture
def stub_server(settings: SettingsWrapper, brain: fake_llm.Brain) -> Iterator[fake_llm.StubServer]:
    """mem0's real openai provider against an OpenAI-compatible stub on loopback."""
    with fake_llm.StubServer() as server:
        settings.EXTRACTION_MODE = "openai"
        settings.LLM_BASE_URL = server.base_url
        settings.LLM_API_KEY = "sk-test"
        settings.LLM_MODEL = "stub-model"
        yield server


@pytest.fixture(params=["fake-provider", "openai-stub"])
def llm(request: pytest.FixtureRequest, brain: fake_llm.Brain) -> fake_llm.Brain:
    """Each scenario runs through the fake provider and through mem0's real openai provider."""
    if request.param == "fake-provider":
        request.getfixturevalue("fake_provider")
    else:
        request.getfixturevalue("stub_server")
    return brain


@pytest.fixture(scope="session")
def server_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """The real ASGI app under uvicorn in a thread, for the MCP tests' SDK clients
    (tests/mcpbridge/mcp_clients.py)."""
    with django_db_blocker.unblock():
        live = start_server("contextlayer.asgi:application", lifespan="on", start_timeout=120)
        yield live.url
        live.server.should_exit = True
        live.thread.join(timeout=30)
        # The server's ORM work ran in asgiref's sync thread; close its connection so the test
        # database can be dropped.
        anyio.run(sync_to_async(connections.close_all, thread_sensitive=True))


@pytest.fixture
def mcp_for(server_url: str) -> Callable[..., McpHttp]:
    """`mcp_for(user, scopes=...)`: a new client token for the user and a client holding it."""

    def make(
        user: User, scopes: str = "read,write,delete", name: str = "Cursor on laptop"
    ) -> McpHttp:
        issued = issue_token(
            user,
            name=name,
            scopes=scopes.split(","),
        )
        return McpHttp(server_url, issued.secret)

    return make


@pytest.fixture(scope="session")
def _live_server(django_db_setup: None, django_db_blocker: Any) -> Iterator[LiveServer]:
    """One server for the session: the MCP session manager can run only once per process app."""
    live = start_whole_app()
    try:
        yield live
    finally:
        with django_db_blocker.unblock():
            stop_server(live)


@pytest.fixture
def live_url(_live_server: LiveServer, transactional_db: None) -> str:
    """The whole app (OAuth server, dashboard, MCP) on a free port, for the OAuth tests."""
    return _live_server.url


@pytest.fixture
def fresh_rate_limits() -> Iterator[None]:
    """allauth rate limits live in the cache; one test's sign-ups must not throttle the next."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def alice(transactional_db: None) -> User:
    return User.objects.create_user("alice@example.com", PASSWORD)


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
