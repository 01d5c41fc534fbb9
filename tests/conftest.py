"""Shared fixtures: personas (the owner, another user who must see nothing) and their actors,
and the deterministic fake LLM that every door's extraction tests run behind
(tests/memories/fake_llm.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, owner_actor
from accounts.models import User
from memories.extraction import llm as llm_module
from tests.memories import fake_llm

OWNER_PASSWORD = "correct horse battery"

# Every query our code runs on a tenant table must filter by owner (see tests/owner_queries.py).
pytest_plugins = ["tests.owner_queries"]


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
