"""The one search selector answers an app with its hits and its own writes held for the owner's
review that match the query, matched by the lexical arm's own word rule (`lexical.holding`):
the query cleaned and analysed as the ranking analyses it, each write's text as a memory's."""

from __future__ import annotations

import pytest

from accounts.actors import Actor, actor_for, owner_actor, stdio_app
from accounts.models import ALL_SCOPES, User
from accounts.services import app_set_review
from memories.search import lexical
from memories.selectors.memories import memory_search
from memories.services import adding

pytestmark = pytest.mark.django_db


def _reviewed(owner: User, name: str) -> Actor:
    app = stdio_app(owner, name, scopes=ALL_SCOPES)
    app_set_review(actor=owner_actor(owner), app_id=app.pk, review=True)
    app.refresh_from_db()
    return actor_for(owner, app)


def _pending_texts(actor: Actor, query: str) -> list[str]:
    return [p.text for p in memory_search(actor=actor, query=query).pending]


def test_a_search_lists_the_apps_own_pending_writes_that_hold_the_querys_words(
    owner: User, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Lives in Berlin")
    cursor, claude = _reviewed(owner, "Cursor"), _reviewed(owner, "Claude")
    adding.memory_create(actor=cursor, text="Drinks green tea every morning")
    adding.memory_create(actor=cursor, text="Plays the cello on Sundays")
    adding.memory_create(actor=claude, text="Prefers green tea to coffee")

    assert _pending_texts(cursor, "green tea") == ["Drinks green tea every morning"]
    assert _pending_texts(claude, "green tea") == ["Prefers green tea to coffee"]
    # The owner's own apps hold no pending writes: the owner reviews them, in Review.
    assert memory_search(actor=owner_dash, query="green tea").pending == []


def test_a_pending_write_matches_the_forms_of_a_word_the_ranking_matches(owner: User) -> None:
    """The query is stemmed as the lexical arm stems it: "running" finds "runs", which a
    plain substring test of the query's words missed."""
    app = _reviewed(owner, "Cursor")
    adding.memory_create(actor=app, text="Runs a marathon every spring")
    assert _pending_texts(app, "running") == ["Runs a marathon every spring"]


def test_a_pending_write_that_only_hides_the_querys_letters_inside_a_word_is_not_listed(
    owner: User,
) -> None:
    """Words, not letters: "art" is not in "started", nor "the" (a stop word, no term of the
    query at all) in "other"; a substring test listed both."""
    app = _reviewed(owner, "Cursor")
    adding.memory_create(actor=app, text="Started a new job at the other bakery")
    adding.memory_create(actor=app, text="Takes art classes on Tuesdays")
    assert _pending_texts(app, "art") == ["Takes art classes on Tuesdays"]
    assert _pending_texts(app, "the") == []


def test_the_word_rule_reads_each_text_as_a_memory_in_its_own_language(db: None) -> None:
    """`lexical.holding` analyses a German text as German (prefixed "de:" lexemes) and an
    English one as English: a lexeme matches only a text analysed the same way."""
    texts = ["Meine Kinder spielen im Garten", "The children play in the garden", ""]
    assert lexical.holding(texts, ["de:kind"]) == [True, False, False]
    assert lexical.holding(texts, ["garden"]) == [False, True, False]
    assert lexical.holding(texts, []) == [False, False, False]
