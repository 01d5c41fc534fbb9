"""Search over REST (`GET /api/v1/memories/search`): by meaning and by a word inside a memory in
any script, another user's memories never, the relevance cut-off said, and the dashboard's
filters, which narrow what an app may see and never widen it."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import User
from memories.search.model_profiles import current as current_profile
from memories.services.marks import memory_set_pinned, memory_set_private_many
from tests.api.memory_calls import API, add_memory, error_of
from tests.api.tokens import TokenFactory


def test_search_finds_by_meaning_and_never_returns_another_users_memory(
    owner_api: Client, owner_dash: Actor, stranger_dash: Actor
) -> None:
    add_memory(owner_dash, "My daughter is allergic to peanuts")
    add_memory(stranger_dash, "My son is allergic to peanuts")
    response = owner_api.get(f"{API}/search", {"q": "food allergies in my family"})
    assert response.status_code == 200
    texts = [hit["memory"]["text"] for hit in response.json()["results"]]
    assert texts == ["My daughter is allergic to peanuts"]


def test_search_finds_a_chinese_or_german_word_inside_its_memory(
    owner_api: Client, owner_dash: Actor
) -> None:
    add_memory(owner_dash, "我对花生过敏，吃了会起疹子。")  # noqa: RUF001 - a Chinese comma
    add_memory(owner_dash, "Die Kinder spielen jeden Nachmittag im Garten.")
    add_memory(owner_dash, "I drink oat milk flat whites every morning.")
    for query, expected in (
        ("过敏", "我对花生过敏，吃了会起疹子。"),  # noqa: RUF001 - a Chinese comma
        ("Kind", "Die Kinder spielen jeden Nachmittag im Garten."),
    ):
        response = owner_api.get(f"{API}/search", {"q": query})
        assert response.status_code == 200
        assert response.json()["results"][0]["memory"]["text"] == expected, query


def test_search_says_when_nothing_relevant_and_min_score_zero_returns_the_best_anyway(
    owner_api: Client, owner_dash: Actor
) -> None:
    add_memory(owner_dash, "My daughter is allergic to peanuts")
    add_memory(owner_dash, "I work as a data engineer")
    body = owner_api.get(f"{API}/search", {"q": "submarine periscope maintenance"}).json()
    assert body["results"] == [] and body["nothing_relevant"] is True
    assert body["min_score"] == current_profile().search.min_score
    anyway = owner_api.get(f"{API}/search", {"q": "submarine periscope", "min_score": "0"}).json()
    assert len(anyway["results"]) == 2 and anyway["nothing_relevant"] is False
    assert all(hit["score"] < current_profile().search.min_score for hit in anyway["results"])
    refused = owner_api.get(f"{API}/search", {"q": "tea", "min_score": "2"})
    assert refused.status_code == 400


def test_search_takes_the_dashboards_filters_and_a_filtered_page_is_full(
    owner_api: Client, owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    claude = Client(headers={"Authorization": f"Bearer {make_token(owner, name='claude')}"})
    for where in ("Alps", "Dolomites", "Pyrenees", "Tatras"):
        add_memory(owner_dash, f"I go hiking in the {where} every summer")
    for where in ("Andes", "Atlas", "Urals"):
        made = claude.post(
            API, {"text": f"Planned a hiking trip to the {where}"}, content_type="application/json"
        )
        assert made.status_code == 201
    boots = add_memory(owner_dash, "Hiking boots for the summer need new laces", ("shopping",))
    assert memory_set_pinned(actor=owner_dash, memory_ids=[boots.id], pinned=True) == 1

    def texts(**filters: str) -> list[str]:
        response = owner_api.get(f"{API}/search", {"q": "hiking every summer", **filters})
        assert response.status_code == 200, response.json()
        return [hit["memory"]["text"] for hit in response.json()["results"]]

    assert not any("Planned" in text for text in texts(limit="3"))
    # Claude's memories rank below the owner's: the filter narrows the search, the page is full.
    assert sorted(texts(limit="3", app="claude")) == [
        "Planned a hiking trip to the Andes",
        "Planned a hiking trip to the Atlas",
        "Planned a hiking trip to the Urals",
    ]
    assert texts(pinned="true") == ["Hiking boots for the summer need new laces"]
    assert texts(category="shopping") == ["Hiking boots for the summer need new laces"]
    assert "Hiking boots for the summer need new laces" not in texts(uncategorised="true")
    later = (timezone.now() + timedelta(days=1)).isoformat()
    assert texts(created_after=later) == [] and len(texts(created_before=later)) == 8
    for bad in ({"pinned": "maybe"}, {"created_after": "soon"}, {"app": "x" * 201}):
        response = owner_api.get(f"{API}/search", {"q": "hiking", **bad})
        assert response.status_code == 400, bad
        assert error_of(response)["field"] == next(iter(bad)), bad


def test_an_apps_filtered_search_learns_nothing_of_what_it_may_not_see(
    owner: User,
    owner_dash: Actor,
    stranger_dash: Actor,
    make_token: TokenFactory,
) -> None:
    """The filters narrow what the app may see, never widen it: a private memory, one in a
    sensitive category (hidden from a new app) and another user's, all pinned and all from the
    dashboard, stay out whichever filter asks for them."""
    seen = add_memory(owner_dash, "I go hiking in the Alps every summer")
    private = add_memory(owner_dash, "I go hiking alone every summer to cope with grief")
    health = add_memory(owner_dash, "Hiking every summer helps my knee therapy", ("health",))
    theirs = add_memory(stranger_dash, "I go hiking in the Alps every summer too")
    assert memory_set_private_many(actor=owner_dash, memory_ids=[private.id], private=True) == 1
    for memory in (seen, private, health):
        assert memory_set_pinned(actor=owner_dash, memory_ids=[memory.id], pinned=True) == 1
    assert memory_set_pinned(actor=stranger_dash, memory_ids=[theirs.id], pinned=True) == 1
    claude = Client(headers={"Authorization": f"Bearer {make_token(owner, name='claude')}"})
    later = (timezone.now() + timedelta(days=1)).isoformat()
    shown = {str(seen.id)}
    for filters, want in (
        ({}, shown),
        ({"pinned": "true"}, shown),
        ({"app": "dashboard"}, shown),
        ({"created_before": later}, shown),
        ({"category": "health"}, set()),
        ({"uncategorised": "true", "pinned": "true"}, None),  # the classifier may file `seen`
    ):
        query = {"q": "hiking every summer", "min_score": "0", **filters}
        response = claude.get(f"{API}/search", query)
        assert response.status_code == 200, (filters, response.json())
        found = {hit["memory"]["id"] for hit in response.json()["results"]}
        assert found == want if want is not None else found <= shown, (filters, found)
        assert "grief" not in response.content.decode(), filters
        assert "therapy" not in response.content.decode(), filters
