"""Short queries find what a person means: one or two words ("kids", "boss") find the memory that
says it in its own words, through the search service with the real model and PostgreSQL, in a
store of a person's facts (the short-query benchmark's memories, bench/data/short_queries.json)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.actors import Actor
from accounts.models import User
from bench.shortqueries import load
from memories.search import related_terms, relevance, scoring
from memories.search.embeddings import get_embedder
from memories.selectors.memories import memory_search
from memories.services import adding, marks
from memories.visibility import visible_sql
from tests.mcpbridge.test_search_languages import EVERYDAY, EVERYDAY_QUERIES

pytestmark = pytest.mark.django_db

DAUGHTER = "My daughter Mila is 6 and goes to a bilingual school."
MANAGER = "My manager is called Priya and we have 1:1s on Tuesdays."


def _store(actor: Actor) -> None:
    memories, _ = load()
    texts = list(memories.values())
    assert DAUGHTER in texts and MANAGER in texts
    adding.memory_create_many(actor=actor, items=[adding.NewMemory(text=t) for t in texts])


def _texts(actor: Actor, query: str, limit: int = 5) -> list[str]:
    return [h.memory.text for h in memory_search(actor=actor, query=query, limit=limit)]


def test_kids_finds_the_daughter_memory(owner_dash: Actor) -> None:
    _store(owner_dash)
    assert DAUGHTER in _texts(owner_dash, "kids")


def test_boss_finds_the_manager_memory(owner_dash: Actor) -> None:
    _store(owner_dash)
    assert _texts(owner_dash, "boss")[0] == MANAGER


def test_an_unrelated_short_query_does_not_return_everything(owner_dash: Actor) -> None:
    _store(owner_dash)
    for query in ("submarine", "quantum physics", "knitting"):
        hits = memory_search(actor=owner_dash, query=query, limit=10)
        assert len(hits) <= 2, (query, [h.memory.text for h in hits])


def test_an_app_finds_the_daughter_by_kids_only_when_it_may_see_the_memory(
    owner: User, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    _store(owner_dash)
    app = app_actor(owner, "Claude")
    assert DAUGHTER in _texts(app, "kids")
    (daughter,) = [
        h for h in memory_search(actor=owner_dash, query="kids") if h.memory.text == DAUGHTER
    ]
    marks.memory_set_visibility(
        actor=owner_dash, memory_id=daughter.memory.id, hide_from_app=app.app.pk
    )
    assert DAUGHTER not in _texts(app, "kids", limit=10)
    assert DAUGHTER in _texts(owner_dash, "kids")


def test_related_terms_score_the_same_in_the_index_and_in_postgresql(
    owner: User, owner_dash: Actor
) -> None:
    _store(owner_dash)
    visible, params = visible_sql(owner_dash)
    for query in ("kids", "boss", "meds", "car insurance", "board games"):
        qvec = get_embedder().embed_query(query)
        indexed, in_sql = (
            scoring.UserSearch(
                owner.pk,
                visible=visible,
                params=params,
                query=query,
                whole_store=True,
                use_index=use_index,
            ).best(qvec, limit=10, min_score=0.0)
            for use_index in (True, False)
        )
        assert [c.id for c in indexed] == [c.id for c in in_sql], query
        assert all(abs(a.score - b.score) < 1e-9 for a, b in zip(indexed, in_sql, strict=True))


def test_a_word_and_its_related_terms_count_as_one_term() -> None:
    corpus = relevance.Corpus(
        keys=(1, 2, 3),
        df=(0, 4, 9),
        documents=100,
        length=1000,
        k1=1.6,
        b=0.3,
        groups=(0, 0, 1),
    )
    assert corpus.members == [(0, 1), (2,)]
    assert corpus.group_df == [4, 9]  # the word absent, its relative in four memories: known
    assert corpus.known == pytest.approx(corpus.ideal)
    both = corpus.bm25(dl=10, tf={1: 1, 2: 1})
    assert both == pytest.approx(corpus.bm25(dl=10, tf={2: 2}))  # counts summed in the group
    assert corpus.bm25(dl=10, tf={1: 1}) == corpus.bm25(dl=10, tf={2: 1})


def test_only_short_queries_are_expanded() -> None:
    (kids,) = related_terms.expansions("kids")
    assert kids.word == "kids" and kids.language == "en"
    assert kids.terms.split()[:3] == ["kid", "child", "children"]
    assert related_terms.expansions("how old are my kids now") == []
    assert related_terms.expansions("xyzzy") == []


@pytest.mark.django_db
def test_the_other_languages_related_terms_raise_the_memory_they_find(owner_dash: Actor) -> None:
    """The MCP journey's queries (tests/mcpbridge/test_search_languages.py) with their own words
    only score their memory lower: their language's lexicon is the evidence that finds it."""
    items = [adding.NewMemory(text=t) for t in EVERYDAY]
    adding.memory_create_many(actor=owner_dash, items=items)

    def score(query: str, expected: str, *, expand: bool) -> float:
        hits = memory_search(actor=owner_dash, query=query, expand=expand, min_score=0, limit=20)
        return next(hit.score for hit in hits if hit.memory.text == expected)

    for query, expected in EVERYDAY_QUERIES.items():
        assert score(query, expected, expand=False) < score(query, expected, expand=True), query


def test_a_word_is_looked_up_in_its_own_languages_lexicon() -> None:
    by_word = {
        query: {(e.language, e.word) for e in related_terms.expansions(query)}
        for query in ("Kinder", "我的孩子", "子供たち", "дети", "grands-parents")
    }
    assert by_word["Kinder"] == {("de", "kinder")}
    assert by_word["我的孩子"] == {("zh", "孩子")}  # a part of a run without spaces
    assert by_word["子供たち"] == {("ja", "子供")}
    assert by_word["дети"] == {("ru", "дети")}
    assert ("fr", "grands-parents") in by_word["grands-parents"]  # its hyphen kept
    (german,) = related_terms.expansions("Haustier")
    assert "dackel" in german.terms.split()


def test_a_three_word_term_gives_its_related_terms_to_each_of_its_words() -> None:
    """A payslip is three words in French and a backache three in Spanish: the term is looked
    up as a whole, and its words that are words of the store carry its related terms."""
    by_word = {
        (e.language, e.word): e.terms.split() for e in related_terms.expansions("fiche de paie")
    }
    assert "salaire" in by_word["fr", "fiche"]
    assert "lumbago" in next(
        e.terms.split() for e in related_terms.expansions("dolor de espalda") if e.word == "espalda"
    )
    assert all(e.word != "fiche" for e in related_terms.expansions("fiche de lecture"))
