"""Search in Chinese, Japanese and German through MCP, as an AI client sees it: the real MCP SDK
client over Streamable HTTP against the app under uvicorn (issue 36, "Words in every script")."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own commas

from __future__ import annotations

from collections.abc import Callable

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.models import User
from memories.search.embeddings import E5_MODEL
from memories.search.model_profiles import E5
from tests.mcpbridge.mcp_clients import McpHttp, text_of
from tests.search_profiles import without_second_arm

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

MEMORIES = [
    "我对花生过敏，吃了会起疹子。",
    "我在一家软件公司做产品经理，已经工作五年了。",
    "仕事が忙しくて、最近あまり眠れていません。",
    "Die Kinder spielen jeden Nachmittag im Garten.",
    "I drink oat milk flat whites every morning.",
]
# One person's German store, searched under multilingual-e5.
GERMAN = [
    "Wir haben einen Dackel namens Bruno.",
    "Ich fahre jeden Tag mit dem Fahrrad zur Arbeit.",
    "Meine Schwester studiert Medizin in Leipzig.",
    "Ich bin allergisch gegen Erdnüsse.",
    "Unsere Tochter kommt im Herbst in die Schule.",
    "Ich arbeite als Buchhalterin bei einer Versicherung.",
    "Am Wochenende backe ich gern Sauerteigbrot.",
    "Meine Eltern wohnen in einem Dorf bei Freiburg.",
]


def test_a_word_in_each_script_finds_its_memory_first(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    client = mcp_for(owner)
    added = client.call("add_memories", {"texts": MEMORIES})
    assert not added.is_error, text_of(added)
    for query, expected in (
        ("过敏", MEMORIES[0]),
        ("工作", MEMORIES[1]),
        ("仕事", MEMORIES[2]),
        ("Kind", MEMORIES[3]),
    ):
        found = client.call("search_memory", {"query": query})
        assert not found.is_error, text_of(found)
        results = found.structured_content["results"]
        assert results and results[0]["text"] == expected, (query, results)


def test_under_e5_a_word_about_nothing_here_finds_nothing_and_a_pets_word_finds_the_pet(
    owner: User, mcp_for: Callable[..., McpHttp], settings: SettingsWrapper
) -> None:
    """A German store on multilingual-e5: "Posaune" (trombone) is in no memory and, short and
    unknown, is held to e5's raised cut-off (its best memory scores just under it), while
    "Haustier" (pet) finds the dachshund, its related term "Dackel" held by it."""
    settings.EMBEDDING_MODEL = E5_MODEL
    client = mcp_for(owner)
    added = client.call("add_memories", {"texts": GERMAN})
    assert not added.is_error, text_of(added)
    nothing = client.call("search_memory", {"query": "Posaune"})
    assert not nothing.is_error, text_of(nothing)
    assert nothing.structured_content["results"] == []
    assert nothing.structured_content["min_score"] == E5.search.unknown_min_score
    found = client.call("search_memory", {"query": "Haustier"})
    results = found.structured_content["results"]
    assert results and results[0]["text"] == GERMAN[0], results


def test_under_e5_a_short_query_answered_by_meaning_keeps_its_nearer_memories(
    owner: User,
    mcp_for: Callable[..., McpHttp],
    settings: SettingsWrapper,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same German store: "Kleinkind" (toddler) is in no memory, but its best memory (the
    daughter starting school) reaches e5's raised cut-off, so the client gets its other results
    down to the lower `answered_floor`, some under the cut-off, and is told that floor.
    "Kuchen" (cake): its best memory (the sourdough) is above that floor and under the cut-off,
    so nothing is answered. The cut-offs alone: without the second arm, which re-orders an
    answer after them (tests/mcpbridge/test_search_second_arm.py)."""
    settings.EMBEDDING_MODEL = E5_MODEL
    without_second_arm(monkeypatch)
    assert E5.search.answered_floor is not None and E5.search.unknown_min_score is not None
    client = mcp_for(owner)
    added = client.call("add_memories", {"texts": GERMAN})
    assert not added.is_error, text_of(added)
    found = client.call("search_memory", {"query": "Kleinkind", "limit": 5})
    assert not found.is_error, text_of(found)
    out = found.structured_content
    assert out["results"][0]["text"] == GERMAN[4], out
    assert out["min_score"] == E5.search.answered_floor
    assert any(r["score"] < E5.search.unknown_min_score for r in out["results"]), out
    assert all(r["score"] >= E5.search.answered_floor for r in out["results"]), out
    nothing = client.call("search_memory", {"query": "Kuchen"})
    assert nothing.structured_content["results"] == []
    assert nothing.structured_content["min_score"] == E5.search.unknown_min_score


# One person's memories in six languages, none holding the everyday word that is asked for.
EVERYDAY = [
    "Unsere Tochter kommt im Herbst in die Schule.",
    "我女儿今年六岁，上小学一年级。",
    "娘は来年から小学校に通います。",
    "Tenemos un perro que se llama Toby.",
    "Je conduis une Peugeot 208 depuis trois ans.",
    "Я езжу на старой Ладе.",
    "I play the cello in a community orchestra every Thursday.",
    "Ich arbeite als Buchhalterin bei einer Versicherung.",
]
EVERYDAY_QUERIES = {
    "Kinder": EVERYDAY[0],
    "孩子": EVERYDAY[1],
    "子供": EVERYDAY[2],
    "mascota": EVERYDAY[3],
    "voiture": EVERYDAY[4],
    "машина": EVERYDAY[5],
}


def test_an_everyday_word_finds_the_memory_that_says_it_in_other_words_in_its_language(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    """Related terms in each claimed language (`related_terms_languages.py`): under the default
    English model, "Kinder" finds a daughter, "孩子" a 女儿, "mascota" a dog, "машина" a Lada."""
    client = mcp_for(owner)
    added = client.call("add_memories", {"texts": EVERYDAY})
    assert not added.is_error, text_of(added)
    for query, expected in EVERYDAY_QUERIES.items():
        found = client.call("search_memory", {"query": query})
        assert not found.is_error, text_of(found)
        results = found.structured_content["results"]
        assert results and results[0]["text"] == expected, (query, results)
