"""Migration `memory_language` on a store written before languages: a database at the previous
migration, with English, German, Chinese and Japanese memories of two users, migrates forward;
every memory gets its language and its lexemes again (Chinese and Japanese segmented, German
stemmed as German, English as it was), each user's generation moves on so every process reads its
index again, the snapshots built from the old lexemes are gone, and search finds the words at once,
on both paths."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own commas

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from memories.models import Memory, SearchStats
from memories.search import scoring
from memories.selectors.memories import memory_search
from memories.services import adding
from memories.visibility import visible_sql
from tests.memories.migrations_run import migrate, migrate_to_latest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

BEFORE = [("memories", "0023_search_models")]
PEANUTS = "我对花生过敏，吃了会起疹子。"
GARDEN = "Die Kinder spielen jeden Nachmittag im Garten."
OAT_MILK = "I drink oat milk flat whites every morning."
BUSY = "仕事が忙しくて、最近あまり眠れていません。"
THEIRS = "我在一家软件公司做产品经理，已经工作五年了。"


def _row(memory_id: uuid.UUID, *columns: str) -> tuple[object, ...]:
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT {', '.join(columns)} FROM memories_memory WHERE id = %s",  # noqa: S608
            [memory_id],
        )
        return tuple(cur.fetchone())


def _column_exists() -> bool:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT 1 FROM information_schema.columns "
            "WHERE table_name = 'memories_memory' AND column_name = 'language'"
        )
        return cur.fetchone() is not None


def _keyword_hits(actor: Actor, query: str) -> list[uuid.UUID]:
    visible, params = visible_sql(actor)
    found = scoring.lexical_arm(
        query, owner_id=actor.user.pk, visible=visible, params=params, whole_store=True
    )
    return [memory_id for memory_id, _ in found]


def _first(actor: Actor, query: str) -> str:
    return memory_search(actor=actor, query=query, limit=3)[0].memory.text


def test_a_store_from_before_migrates_forward_and_searches_in_every_script_at_once(
    owner_dash: Actor,
    stranger_dash: Actor,
    migration_executor: MigrationExecutor,
    settings: SettingsWrapper,
) -> None:
    settings.SEARCH_CACHE_MB = 128  # the in-memory index first: it holds an old generation
    made = adding.memory_create_many(
        actor=owner_dash,
        items=[adding.NewMemory(text=t) for t in (PEANUTS, GARDEN, OAT_MILK, BUSY)],
    )
    ids = {r.memory.text: r.memory.id for r in made}
    theirs = adding.memory_create(actor=stranger_dash, text=THEIRS).memory.id
    english_before = _row(ids[OAT_MILK], "tsv")[0]
    assert _keyword_hits(owner_dash, "过敏") == [ids[PEANUTS]]  # this process's index, cached

    # The previous migration: English lexemes for every memory, no language.
    migrate(migration_executor, BEFORE)
    assert not _column_exists()
    for text, memory_id in (*ids.items(), (THEIRS, theirs)):
        (same,) = _row(memory_id, "tsv = to_tsvector('english', text)")
        assert same, text
    (chinese_lexemes,) = _row(ids[PEANUTS], "tsv::text")
    assert "过敏" not in str(chinese_lexemes).replace("我对花生过敏", ""), "one run was one word"
    # A snapshot of the old lexemes, as a server left it (and this process's index of before).
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO memories_searchsnapshot (owner_id, generation, written_at, memories, data)"
            " SELECT owner_id, generation, now(), 4, '\\x00' FROM memories_searchstats"
        )
    generations = dict(SearchStats.objects.values_list("owner_id", "generation"))

    migrate_to_latest(migration_executor)

    languages = dict(Memory.objects.values_list("id", "language"))
    assert languages == {
        ids[PEANUTS]: "zh",
        ids[GARDEN]: "de",
        ids[OAT_MILK]: "en",
        ids[BUSY]: "ja",
        theirs: "zh",
    }
    assert _row(ids[OAT_MILK], "tsv")[0] == english_before, "English lexemes are what they were"
    (german,) = _row(ids[GARDEN], "tsv::text")
    assert "'de:kind'" in str(german) and "'kinder'" not in str(german)
    after = {s.owner_id: s for s in SearchStats.objects.all()}
    for owner_id, generation in generations.items():
        assert after[owner_id].generation > generation
        assert after[owner_id].changes_from == after[owner_id].generation, "each index read again"
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM memories_searchsnapshot")
        assert cur.fetchone()[0] == 0
        cur.execute("SELECT count(*) FROM memories_searchchange")
        assert cur.fetchone()[0] == 0
        cur.execute(
            "SELECT s.length = (SELECT sum(length(m.tsv)) FROM memories_memory m"
            " WHERE m.owner_id = s.owner_id) FROM memories_searchstats s"
        )
        assert all(same for (same,) in cur.fetchall()), "the statistics follow the new lexemes"

    for cache_mb in (128, 0):  # the in-memory index, then PostgreSQL
        settings.SEARCH_CACHE_MB = cache_mb
        assert _keyword_hits(owner_dash, "过敏") == [ids[PEANUTS]]
        assert _keyword_hits(owner_dash, "仕事") == [ids[BUSY]]
        assert _keyword_hits(owner_dash, "Kind") == [ids[GARDEN]]
        assert _keyword_hits(owner_dash, "工作") == [], "another user's memory stays theirs"
        assert _keyword_hits(stranger_dash, "工作") == [theirs]
        assert _first(owner_dash, "过敏") == PEANUTS
        assert _first(owner_dash, "oat milk") == OAT_MILK
    # A write after the migration is analysed as the migration analysed the old ones.
    kita = adding.memory_create(actor=owner_dash, text="Unser Kind geht in die Kita.").memory
    assert set(_keyword_hits(owner_dash, "Kind")) == {ids[GARDEN], kita.id}
