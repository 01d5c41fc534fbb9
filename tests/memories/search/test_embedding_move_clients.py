"""What an AI client (the MCP SDK over HTTP) and a program (the REST API) find while the store
moves from MiniLM to multilingual-e5 (issue 36 item 6): before, half way (one user moved, the
other's memories half embedded) and after, and what they wrote in the middle of it. The move runs
in this thread on its own connection while the server answers from its own, as the worker and the
web process do."""

from __future__ import annotations

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import StagedVector
from memories.services import adding, maintenance
from tests.api.tokens import bearer
from tests.mcpbridge.mcp_clients import McpHttp, text_of
from tests.memories.model_moves import (
    CROSS_LANGUAGE,
    DACHSHUND,
    E5_MODEL,
    MINILM_MODEL,
    PEANUTS,
    STORE,
    live_model,
)
from tests.personas import issue_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900), pytest.mark.slow]

CAT = "Our cat Mochi sleeps on the piano."


class Reader:
    """One user's token, used by both an MCP client and a REST client."""

    def __init__(self, user: User, server_url: str) -> None:
        # Every category: the peanut allergy is a health fact, hidden from a default grant.
        secret = issue_token(user, name="Claude Desktop", categories="all").secret
        self.mcp = McpHttp(server_url, secret)
        self.rest = bearer(secret)

    def mcp_search(self, query: str) -> list[str]:
        result = self.mcp.call("search_memory", {"query": query, "limit": 3})
        assert not result.is_error, text_of(result)
        return [hit["text"] for hit in result.structured_content["results"]]

    def rest_search(self, query: str) -> list[str]:
        response = self.rest.get("/api/v1/memories/search", {"q": query, "limit": "3"})
        assert response.status_code == 200, response.content
        return [hit["memory"]["text"] for hit in response.json()["results"]]

    def first(self, query: str) -> str | None:
        """The best hit, the same through both doors."""
        by_mcp, by_rest = self.mcp_search(query), self.rest_search(query)
        assert by_mcp == by_rest, (query, by_mcp, by_rest)
        return by_mcp[0] if by_mcp else None


def _store(user: User, texts: tuple[str, ...]) -> None:
    items = [adding.NewMemory(text=t) for t in texts]
    adding.memory_create_many(actor=owner_actor(user), items=items)


def test_both_doors_find_each_users_memories_before_half_way_and_after_the_move(
    owner: User, stranger: User, server_url: str, settings: SettingsWrapper
) -> None:
    _store(owner, STORE)
    _store(stranger, STORE[:4])
    mine, theirs = Reader(owner, server_url), Reader(stranger, server_url)
    query, _ = CROSS_LANGUAGE
    assert mine.first("dog") == DACHSHUND
    assert mine.first(query) != PEANUTS  # MiniLM reads every Chinese text alike

    settings.EMBEDDING_MODEL = E5_MODEL
    report = maintenance.move(batch=2, memories=8)  # the stranger's 4, then 4 of the owner's 10
    assert (live_model(stranger), live_model(owner)) == (E5_MODEL, MINILM_MODEL)
    assert StagedVector.objects.filter(owner=owner).count() == 4 and not report.done
    assert theirs.first(query) == PEANUTS and theirs.first("dog") == DACHSHUND
    assert mine.first("dog") == DACHSHUND and mine.first(query) != PEANUTS

    added = mine.mcp.call("add_memory", {"text": CAT})
    assert not added.is_error, text_of(added)
    assert mine.first("kitten") == CAT  # by meaning, with MiniLM's vector

    maintenance.move()
    assert live_model(owner) == E5_MODEL
    assert mine.first(query) == PEANUTS and mine.first("dog") == DACHSHUND
    assert CAT in mine.mcp_search("kitten")  # with the e5 vector staged when it was written


def test_a_store_moved_back_answers_both_doors_with_minilm_again(
    owner: User, server_url: str, settings: SettingsWrapper
) -> None:
    _store(owner, STORE)
    mine = Reader(owner, server_url)
    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.move()
    query, _ = CROSS_LANGUAGE
    assert mine.first(query) == PEANUTS

    settings.EMBEDDING_MODEL = MINILM_MODEL
    maintenance.move(batch=4, memories=4)
    assert live_model(owner) == E5_MODEL  # not all back yet: still e5 for this user
    assert mine.first(query) == PEANUTS
    report = maintenance.move()
    assert report.done and live_model(owner) == MINILM_MODEL
    assert mine.first("dog") == DACHSHUND and mine.first(query) != PEANUTS
