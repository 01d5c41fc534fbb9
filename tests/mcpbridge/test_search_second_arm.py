"""The search's second arm (USE multilingual v3 under multilingual-e5, issue 36) as an AI client
sees it: the real MCP SDK client over Streamable HTTP against the app under uvicorn, a store on
e5 written through the client, the real models. The arm only re-orders the answer to a query not
in English; "off" below is the same search with the profile's arm taken away."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory, MemoryAltVector
from memories.search.embeddings import E5_MODEL
from memories.services.marks import memory_set_private_many
from tests.api.tokens import bearer
from tests.mcpbridge.mcp_clients import McpHttp, text_of
from tests.personas import issue_token
from tests.search_profiles import without_second_arm

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

# One person's store in Spanish, Portuguese and English.
MEMORIES = [
    "Mi hermano vive en Valencia y trabaja de enfermero.",
    "Tengo un gato naranja que se llama Tofu.",
    "No puedo comer gluten porque soy celíaca.",
    "Trabajo desde casa tres días a la semana.",
    "Corro cinco kilómetros cada mañana por el parque.",
    "Mi pareja es profesora de historia en un instituto.",
    "Eu tenho medo de altura desde criança.",
    "Trabalho como engenheiro civil numa construtora.",
    "Faço aulas de natação às terças e quintas.",
    "Meu filho começou a faculdade de direito este ano.",
    "Gosto de cozinhar feijoada aos sábados.",
    "I drink oat milk flat whites every morning.",
    "My sister is a nurse in Leeds.",
    "I play five-a-side football on Thursdays.",
]
CELIAC = MEMORIES[2]
# Spanish for "food allergies": no word of it in any memory.
ALLERGIES = "alergias alimentarias"


@pytest.fixture
def e5(settings: SettingsWrapper) -> Iterator[None]:
    settings.EMBEDDING_MODEL = E5_MODEL
    yield


def _with_store(client: McpHttp) -> McpHttp:
    """`client`, having written MEMORIES as an app writes them."""
    added = client.call("add_memories", {"texts": MEMORIES})
    assert not added.is_error, text_of(added)
    return client


def _results(client: McpHttp, query: str) -> list[dict[str, Any]]:
    found = client.call("search_memory", {"query": query, "limit": 5})
    assert not found.is_error, text_of(found)
    return list(found.structured_content["results"])


def _texts(results: list[dict[str, Any]]) -> list[str]:
    return [r["text"] for r in results]


def test_under_e5_a_query_not_in_english_is_answered_first_by_the_memory_the_second_arm_finds(
    owner: User, mcp_for: Callable[..., McpHttp], e5: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _with_store(mcp_for(owner))
    assert MemoryAltVector.objects.filter(owner=owner).count() == 11  # all but the English three
    with_arm = _results(client, ALLERGIES)
    without_second_arm(monkeypatch)
    without = _results(client, ALLERGIES)
    assert with_arm[0]["text"] == CELIAC, with_arm
    assert without and without[0]["text"] != CELIAC, without
    # The arm re-orders: the shipped search still decided how much to answer.
    assert len(with_arm) == len(without)


def test_the_rest_api_answers_a_query_not_in_english_with_the_same_memories_as_mcp(
    owner: User, server_url: str, e5: None
) -> None:
    secret = issue_token(owner, name="Claude Desktop").secret
    client, program = _with_store(McpHttp(server_url, secret)), bearer(secret)
    response = program.get("/api/v1/memories/search", {"q": ALLERGIES, "limit": "5"})
    assert response.status_code == 200, response.content
    by_rest = [hit["memory"]["text"] for hit in response.json()["results"]]
    assert by_rest == _texts(_results(client, ALLERGIES))
    assert by_rest[0] == CELIAC


def test_under_e5_an_english_query_gets_exactly_what_it_got_without_the_arm(
    owner: User, mcp_for: Callable[..., McpHttp], e5: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _with_store(mcp_for(owner))
    queries = ["What does my brother do for a living?", "food I cannot eat", "sports I play"]
    with_arm = [_results(client, q) for q in queries]
    without_second_arm(monkeypatch)
    assert [_results(client, q) for q in queries] == with_arm
    assert all(with_arm), with_arm


def test_a_memory_the_app_may_not_see_is_never_returned_nor_moves_its_answer(
    owner: User, mcp_for: Callable[..., McpHttp], e5: None
) -> None:
    """The owner makes the celiac memory private: the app's search for food allergies, which the
    arm answers with it for the owner, never shows it, and its USE vector changes nothing the
    app reads (the same answer with and without that vector)."""
    client = _with_store(mcp_for(owner))
    celiac = Memory.objects.get(owner=owner, text=CELIAC)
    assert memory_set_private_many(actor=owner_actor(owner), memory_ids=[celiac.id], private=True)
    seen = _results(client, ALLERGIES)
    assert CELIAC not in _texts(seen)
    assert MemoryAltVector.objects.filter(memory_id=celiac.id).delete()[0] == 1
    assert _results(client, ALLERGIES) == seen
