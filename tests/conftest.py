"""Shared fixtures: personas (the owner, another user who must see nothing) and their actors,
and the deterministic fake LLM that every door's extraction tests run behind
(tests/memories/fake_llm.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, owner_actor
from accounts.client_tokens import IssuedToken, client_token_create
from accounts.models import ConnectedApp, User
from memories import search_index
from memories.extraction import llm as llm_module
from memories.grants import known_categories
from tests.memories import fake_llm

OWNER_PASSWORD = "correct horse battery"

# Every query our code runs on a tenant table must filter by owner (see tests/owner_queries.py).
pytest_plugins = ["tests.owner_queries"]

# The slow tests, by folder, module or test (node id prefixes): `uv run pytest -m "not slow"` is
# the fast loop; `uv run pytest` (and .ci/run) runs everything. Measured with --durations: each
# entry takes several seconds or more (a browser, a server in a subprocess, generated inputs, a
# store of realistic size).
SLOW = (
    # Chromium
    "tests/e2e/",
    "tests/accounts/test_consent_browser.py",
    "tests/accounts/test_passkey.py",
    # servers and clients in subprocesses (gunicorn, `serve`, stdio MCP, the conformance suite)
    "tests/conformance/",
    "tests/deploy/",
    "tests/contextlayer/test_serve.py",
    "tests/contextlayer/test_commandline.py::test_a_command_on_a_data_folder_never_set_up",
    "tests/contextlayer/test_commandline.py::test_importing_the_settings_writes_no_secret",
    "tests/contextlayer/test_commandline.py::test_the_stdio_server_on_a_wrong_data_folder",
    "tests/mcpbridge/test_stdio.py",
    "tests/reliability/test_database_down.py",
    "tests/memories/test_ingest_kill.py",
    # generated inputs (hypothesis, schemathesis) and hostile files
    "tests/api/test_schema_fuzz.py",
    "tests/reliability/test_fuzz_ingest.py",
    "tests/reliability/test_fuzz_mcp.py",
    "tests/reliability/test_ingest_memory.py",
    "tests/reliability/test_isolation_doors.py",
    "tests/reliability/test_isolation_properties.py",
    "tests/reliability/test_oracles_within_user.py",
    "tests/memories/test_search_bm25.py::test_lexical_arm_equals_the_full_pass_for_every_caller",
    "tests/memories/test_search_stats.py::test_statistics_and_the_in_memory_index_stay_true",
    "tests/memories/test_search_coherence.py",
    "tests/memories/test_consent_oracles.py::test_an_app_cannot_learn_a_hidden_memory_by_writing",
    "tests/accounts/test_oauth_attacks.py::test_a_client_cannot_pass_for_one_of_the_owners_own",
    "tests/accounts/test_oauth_attacks.py::test_the_cimd_address_guard_sees_through_ipv6",
    "tests/accounts/test_oauth_attacks.py::test_registration_refuses_callbacks_outside",
    "tests/accounts/test_connector_requirements.py::test_every_advertised_scope_auth_method",
    "tests/accounts/test_mcp_oauth_flow.py::test_only_tokens_bound_to_the_mcp_resource",
    "tests/accounts/test_mcp_oauth_flow.py::test_sdk_oauth_client_connects",
    "tests/admin/test_admin_oracles.py::test_the_same_script_reads_the_text",
    "tests/admin/test_admin_credentials.py",
    "tests/accounts/test_oauth_attacks.py::test_concurrent_redemptions_of_one_refresh_token",
    "tests/accounts/test_oauth_attacks.py::test_a_cimd_client_cannot_hand_the_browser_to_an_os",
    "tests/accounts/test_sign_in_limits.py",
    "tests/reliability/test_hostile_text.py::test_a_nul_at_any_door_is_refused_clearly_never",
    "tests/memories/test_write_budget.py",
    "tests/memories/test_visibility.py::test_visible_q_and_visible_sql_are_one_rule",
    # stores of realistic size, whole data files, the local extractor's dev set
    "tests/memories/test_search.py::test_search_is_exact_for_every_tenant_size",
    "tests/memories/test_views_access.py::test_memories_page_for_ten_thousand_memories",
    "tests/memories/test_erase_physical.py",
    "tests/memories/test_local_extractor.py::test_the_dev_set_meets_the_aim",
    "tests/memories/test_word_diff.py::test_the_history_page_of_a_memory_edited_at_the_size",
)


def _stale_slow_entries() -> list[str]:
    """Entries of SLOW that name no file, or no test function in their file: a renamed slow test
    would otherwise move silently into the fast loop."""
    root = Path(__file__).resolve().parent.parent
    stale = []
    for entry in SLOW:
        path, _, name = entry.partition("::")
        file = root / path
        if not file.exists() or (name and f"def {name}" not in file.read_text(encoding="utf-8")):
            stale.append(entry)
    return stale


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if stale := _stale_slow_entries():
        raise pytest.UsageError(f"tests/conftest.py SLOW names no test: {', '.join(stale)}")
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


def issue_token(user: User, **options: Any) -> IssuedToken:
    """A client token of `user`, made the way the owner makes one (the `client_token` command,
    the dashboard): by the owner, over their own category vocabulary. `options` are
    `client_token_create`'s (name, scopes, categories, expires_at)."""
    return client_token_create(actor=owner_actor(user), known=known_categories(user), **options)


def memory_with_history(
    owner_dash: Actor, text: str, *, hide_from: ConnectedApp | None = None
) -> Any:
    """A memory holding everything a restore from the trash must bring back: an earlier text
    (a version), categories the owner chose, and, with `hide_from`, hidden from that app."""
    from memories import services

    memory = services.memory_create(actor=owner_dash, text=f"{text} (first draft)").memory
    services.memory_update(actor=owner_dash, memory_id=memory.id, text=text)
    services.memory_set_categories(actor=owner_dash, memory_id=memory.id, categories=["hobbies"])
    if hide_from is not None:
        services.memory_set_visibility(
            actor=owner_dash, memory_id=memory.id, hide_from_app=hide_from.pk
        )
    return memory


def forty_memories(owner: User) -> None:
    """Issue 23's measured store: 40 memories a stdio app with the default grant sees (every
    one it may delete), two of them with an earlier text and one hidden from another app."""
    from accounts.actors import stdio_app
    from memories import services

    owner_dash = owner_actor(owner)
    cursor = stdio_app(owner, "cursor")
    memory_with_history(owner_dash, "Plays the piano on weekends")
    memory_with_history(owner_dash, "Brews coffee with an AeroPress", hide_from=cursor)
    items = [
        services.NewMemory(text=f"Fact number {n} about the owner", categories=["hobbies"])
        for n in range(38)
    ]
    services.memory_create_many(actor=owner_dash, items=items)


def memory_snapshot(owner: User) -> dict[Any, tuple[Any, ...]]:
    """Every memory row of `owner` with what a trip through the trash must leave as it was:
    text, state, categories (and who set them), privacy, hiding, supersession, versions."""
    from memories.models import Memory, MemoryVersion

    return {
        m.id: (
            m.text,
            m.state,
            list(m.categories),
            m.categories_set_by_user,
            m.is_private,
            list(m.hidden_from),
            m.superseded_by_id,
            m.echo_of_id,
            m.updated_at,
            list(
                MemoryVersion.objects.filter(owner=owner, memory=m)
                .order_by("pk")
                .values_list("text", "kind", "changed_by")
            ),
        )
        for m in Memory.objects.filter(owner=owner)
    }


@pytest.fixture(autouse=True)
def snapshots_written_inline() -> Iterator[None]:
    """Search snapshots written on the test's own connection, in its transaction: the server
    writes them on a thread of their own, whose connection would not see a test's rows."""
    search_index.snapshot_writer.background = False
    yield
    search_index.snapshot_writer.background = True


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


def signed_in(user: User, *, enforce_csrf: bool = False) -> Client:
    """A browser signed in as `user`. Django's test client skips CSRF checks unless asked;
    tests about CSRF ask (`enforce_csrf=True`)."""
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner: User) -> Client:
    """The owner signed in in a browser (CSRF not enforced: see `signed_in`)."""
    return signed_in(owner)


@dataclass
class TotpClock:
    """allauth's TOTP clock, pinned to the middle of one 30-second step: whether a code is still
    valid never depends on how long a loaded machine takes between making and typing it."""

    now: float

    def code(self, secret: str, steps: int = 0) -> str:
        """The code an authenticator app shows `steps` steps from the pinned one (its clock
        drifted ahead for positive steps)."""
        from allauth.mfa import app_settings
        from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value

        counter = int(self.now) // app_settings.TOTP_PERIOD + steps
        return format_hotp_value(hotp_value(secret, counter))


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


def reauthenticate(browser: Client, password: str = OWNER_PASSWORD) -> None:
    """Confirm the password again, as erase and token creation ask (accounts/adapter.py)."""
    response = browser.post("/accounts/reauthenticate/", {"password": password})
    assert response.status_code == 302, "re-authentication failed"


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
