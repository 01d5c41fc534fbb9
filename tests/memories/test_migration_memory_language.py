"""Migration `memory_language` on a store written before languages: every memory gets its
language and its lexemes again (Chinese segmented, German stemmed as German), the search sees
them at once (the generation moved), and the snapshots built from the old lexemes are gone."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own commas

from __future__ import annotations

import importlib
import uuid
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from accounts.actors import Actor
from memories.models import Memory, SearchStats
from memories.search import scoring as search
from memories.selectors.memories import memory_search
from memories.services import memories as services
from memories.visibility import visible_sql

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("memories.migrations.0023_memory_language")


def _as_before(memory: Memory) -> None:
    """The row as the previous version wrote it: English lexemes, no language."""
    with connection.cursor() as cur:
        cur.execute(
            "UPDATE memories_memory SET tsv = to_tsvector('english', text), language = 'und' "
            "WHERE id = %s",
            [memory.id],
        )


def _keyword_hits(actor: Actor, query: str) -> list[uuid.UUID]:
    visible, params = visible_sql(actor)
    found = search.lexical_arm(
        query, owner_id=actor.user.pk, visible=visible, params=params, whole_store=True
    )
    return [memory_id for memory_id, _ in found]


def test_every_memory_gets_its_language_and_lexemes_and_search_sees_them(
    owner_dash: Actor, stranger_dash: Actor
) -> None:
    chinese = services.memory_create(actor=owner_dash, text="我对花生过敏，吃了会起疹子。").memory
    german = services.memory_create(actor=owner_dash, text="Die Kinder spielen im Garten.").memory
    english = services.memory_create(actor=owner_dash, text="I drink oat milk flat whites").memory
    theirs = services.memory_create(actor=stranger_dash, text="仕事が忙しくて眠れない。").memory
    for memory in (chinese, german, english, theirs):
        _as_before(memory)
    assert not _keyword_hits(owner_dash, "过敏"), "one run of Han was one word"
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO memories_searchsnapshot (owner_id, generation, written_at, memories, data)"
            " VALUES (%s, 1, now(), 0, '\\x00')",
            [owner_dash.user.pk],
        )
    generation = SearchStats.objects.get(owner=owner_dash.user).generation

    MIGRATION._analyse_all(apps, SimpleNamespace(connection=connection))

    languages = dict(
        Memory.objects.filter(pk__in=[chinese.id, german.id, english.id, theirs.id]).values_list(
            "id", "language"
        )
    )
    assert languages == {chinese.id: "zh", german.id: "de", english.id: "en", theirs.id: "ja"}
    assert SearchStats.objects.get(owner=owner_dash.user).generation > generation
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM memories_searchsnapshot")
        assert cur.fetchone()[0] == 0
        cur.execute(
            "SELECT tsv = to_tsvector('english', text) FROM memories_memory WHERE id = %s",
            [english.id],
        )
        assert cur.fetchone()[0], "English lexemes are what they were"
    assert _keyword_hits(owner_dash, "过敏") == [chinese.id]
    assert _keyword_hits(owner_dash, "Kind") == [german.id]
    assert [h.memory.id for h in memory_search(actor=owner_dash, query="过敏")][:1] == [chinese.id]
