"""Extraction fixtures: the fake LLM through mem0's provider factory, or mem0's real openai
provider against a loopback stub. Both are driven by the same deterministic brain."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from memories.extraction import llm as llm_module
from tests.memories import fake_llm


@pytest.fixture
def brain() -> Iterator[fake_llm.Brain]:
    fake_llm.BRAIN = fake_llm.Brain()
    llm_module._cache.clear()
    yield fake_llm.BRAIN
    llm_module._cache.clear()


@pytest.fixture
def fake_provider(settings: SettingsWrapper, brain: fake_llm.Brain) -> fake_llm.Brain:
    from mem0.utils.factory import LlmFactory

    LlmFactory.register_provider("fake", "tests.memories.fake_llm.FakeLLM")
    settings.EXTRACTION_MODE = "fake"
    return brain


@pytest.fixture
def stub_server(settings: SettingsWrapper, brain: fake_llm.Brain) -> Iterator[fake_llm.StubServer]:
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
