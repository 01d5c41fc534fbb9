"""Words in every script (issue 36): the lexical arm finds a Chinese or Japanese word inside a
sentence written without spaces, German is stemmed as German, and a query's words count under
every language's configuration, the same through the in-memory index and PostgreSQL, with the real
embedding model (English: the keyword arm carries these queries)."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own commas

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from django.db import connection
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from memories.search import index as search_index
from memories.search import scoring
from memories.search.embeddings import get_embedder
from memories.selectors.memories import memory_search
from memories.services import adding, changing
from memories.visibility import visible_sql

pytestmark = pytest.mark.django_db

PEANUTS = "我对花生过敏，吃了会起疹子。"
SOFTWARE_JOB = "我在一家软件公司做产品经理，已经工作五年了。"
CAT = "我家有一只猫，叫咪咪。"
BUSY = "仕事が忙しくて、最近あまり眠れていません。"
KITA = "Mein Kind geht seit September in die Kita am Fluss."
GARDEN = "Die Kinder spielen jeden Nachmittag im Garten."
STORE = [
    PEANUTS,
    SOFTWARE_JOB,
    CAT,
    "我们明年秋天打算带父母去日本旅行两周。",
    "我最喜欢的餐厅是街角那家小小的泰国菜馆。",
    BUSY,
    "娘のミラは三月に六歳になり、馬の絵を描くのが大好きです。",
    "一番好きなレストランは駅前の小さなタイ料理屋さんです。",
    KITA,
    GARDEN,
    "Wir haben einen Dackel namens Bruno.",
    "Mi restaurante favorito es un pequeño tailandés en la calle Mayor.",
    "I'm allergic to peanuts, so I always carry an EpiPen.",
    "My daughter Mila turned six in March and loves drawing horses.",
    "We made plans for a two-week trip to Japan next autumn.",
]


@pytest.fixture(params=[128, 0], ids=["in-memory index", "PostgreSQL"])
def path(request: pytest.FixtureRequest, settings: SettingsWrapper) -> int:
    """Each test runs on both search paths."""
    settings.SEARCH_CACHE_MB = request.param
    search_index.clear()
    return int(request.param)


def _store(actor: Actor) -> dict[str, uuid.UUID]:
    made = adding.memory_create_many(actor=actor, items=[adding.NewMemory(text=t) for t in STORE])
    return {r.memory.text: r.memory.id for r in made}


def _found(actor: Actor, query: str, limit: int = 3) -> list[str]:
    return [h.memory.text for h in memory_search(actor=actor, query=query, limit=limit)]


def _keyword_hits(actor: Actor, query: str) -> dict[uuid.UUID, float]:
    """The lexical arm alone (BM25 by memory), on the path the settings chose."""
    visible, params = visible_sql(actor)
    return dict(
        scoring.lexical_arm(
            query,
            owner_id=actor.user.pk,
            visible=visible,
            params=params,
            whole_store=True,
            use_index=True,
        )
    )


def _lexemes(memory_id: uuid.UUID) -> set[str]:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT array(SELECT lexeme FROM unnest(tsv)) FROM memories_memory WHERE id = %s",
            [memory_id],
        )
        return set(cur.fetchone()[0])


def test_a_chinese_word_finds_the_sentence_that_holds_it(owner_dash: Actor, path: int) -> None:
    ids = _store(owner_dash)
    assert list(_keyword_hits(owner_dash, "过敏")) == [ids[PEANUTS]]
    assert _found(owner_dash, "过敏")[0] == PEANUTS
    assert list(_keyword_hits(owner_dash, "工作")) == [ids[SOFTWARE_JOB]]
    assert _found(owner_dash, "工作")[0] == SOFTWARE_JOB
    assert _found(owner_dash, "花生过敏")[0] == PEANUTS


def test_one_character_finds_the_memory_that_holds_it(owner_dash: Actor, path: int) -> None:
    ids = _store(owner_dash)
    assert list(_keyword_hits(owner_dash, "猫")) == [ids[CAT]]
    assert _found(owner_dash, "猫")[0] == CAT


def test_a_japanese_word_finds_the_japanese_memory(owner_dash: Actor, path: int) -> None:
    ids = _store(owner_dash)
    assert list(_keyword_hits(owner_dash, "仕事")) == [ids[BUSY]]
    assert _found(owner_dash, "仕事")[0] == BUSY


def test_kinder_and_kind_find_each_other_in_german(owner_dash: Actor, path: int) -> None:
    ids = _store(owner_dash)
    assert set(_keyword_hits(owner_dash, "Kinder")) == {ids[KITA], ids[GARDEN]}
    assert set(_keyword_hits(owner_dash, "Kind")) == {ids[KITA], ids[GARDEN]}
    assert set(_found(owner_dash, "Kinder", limit=2)) == {KITA, GARDEN}


def test_german_is_stemmed_as_german_and_english_as_before(owner_dash: Actor) -> None:
    ids = _store(owner_dash)
    german = Memory.objects.get(pk=ids[GARDEN])
    assert german.language == "de"
    assert "de:kind" in _lexemes(german.id)
    assert not {"kinder", "de:kinder"} & _lexemes(german.id)  # English would keep "kinder"
    english = Memory.objects.get(pk=ids["I'm allergic to peanuts, so I always carry an EpiPen."])
    assert english.language == "en"
    with connection.cursor() as cur:
        cur.execute(
            "SELECT tsv = to_tsvector('english', text) FROM memories_memory WHERE id = %s",
            [english.id],
        )
        assert cur.fetchone()[0], "an English memory keeps the lexemes it had"


def test_a_spanish_stem_of_an_english_word_never_matches_an_english_memory(
    owner_dash: Actor, path: int
) -> None:
    """ "planes" is "plan" to the Spanish stemmer; the English memory about plans must not hold
    the query's Spanish alternative."""
    ids = _store(owner_dash)
    assert ids["We made plans for a two-week trip to Japan next autumn."] not in _keyword_hits(
        owner_dash, "planes"
    )


def test_a_word_as_long_as_the_parser_takes_is_stored_in_every_language(
    owner_dash: Actor,
) -> None:
    """A tsvector's lexeme is at most 2,046 bytes; a German lexeme carries "de:" besides, so the
    longest words are left out (as the parser leaves out a longer one) and the write succeeds,
    one memory at a time or in a batch."""
    for letters in (2040, 2044, 2046):
        # The language is told from the beginning: German, before the long word.
        text = "Die Kinder spielen im Garten. " * 70 + "a" * letters
        one = adding.memory_create(actor=owner_dash, text=text).memory
        (batch,) = adding.memory_create_many(
            actor=owner_dash, items=[adding.NewMemory(text=f"{text} Sie lachen.")]
        )
        for memory in (one, batch.memory):
            assert memory.language == "de", letters
            assert "de:kind" in _lexemes(memory.id)


def test_each_memory_stores_its_language_and_a_new_text_tells_it_again(
    owner_dash: Actor,
) -> None:
    ids = _store(owner_dash)
    stored = dict(Memory.objects.filter(pk__in=ids.values()).values_list("text", "language"))
    assert stored[PEANUTS] == "zh"
    assert stored[BUSY] == "ja"
    assert stored[KITA] == "de"
    assert stored["Mi restaurante favorito es un pequeño tailandés en la calle Mayor."] == "es"
    memory_id = ids["My daughter Mila turned six in March and loves drawing horses."]
    changing.memory_update(actor=owner_dash, memory_id=memory_id, text="我女儿今年六岁，喜欢画马。")
    assert Memory.objects.get(pk=memory_id).language == "zh"
    assert {"画马", "六岁"} <= _lexemes(memory_id)
    assert _found(owner_dash, "画马")[0] == "我女儿今年六岁，喜欢画马。"


def test_both_paths_give_the_same_results_and_scores(
    owner: User, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    _store(owner_dash)
    app = app_actor(owner, "Claude")
    for actor in (owner_dash, app):
        visible, params = visible_sql(actor)
        for query in ("过敏", "猫", "仕事", "Kinder", "Kind", "工作 Garten", "peanuts 过敏"):
            qvec = get_embedder().embed_query(query)
            answers = [
                scoring.UserSearch(
                    actor.user.pk,
                    visible=visible,
                    params=params,
                    query=query,
                    whole_store=actor.app.is_owner_app,
                    use_index=use_index,
                ).best(qvec, limit=10)
                for use_index in (True, False)
            ]
            assert answers[0], query
            assert answers[0] == answers[1], query
