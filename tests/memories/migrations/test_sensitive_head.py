"""Migration `sensitive_head_once` on a store labelled before the sensitive head: migrating forward
reads every multilingual-e5 memory nothing had found sensitive once, and hides from a default app
the one the head reads as health; it leaves alone what the owner labelled, what already carries a
category sensitive for its owner (their own included), what is ordinary, and a MiniLM store."""

# ruff: noqa: RUF001 - Chinese text is written with its own commas

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db.migrations.executor import MigrationExecutor
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from memories.search.embeddings import E5_MODEL, MINILM_MODEL
from memories.services import adding
from tests.memories.consent_checks import hidden_from
from tests.memories.migrations_run import migrate, migrate_to_latest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

BEFORE = [("memories", "0027_searchmodel_chosen")]
# Written for this test; under e5 only the head reads the first as health
# (tests/memories/test_sensitive_head.py).
ANXIETY_MEDICINE = "我最近在吃治疗焦虑的药。"
KITES = "孩子们周末喜欢去公园放风筝。"
# Two more the head reads as sensitive (.98 each), stored with labels the migration must keep.
PARTY_MEMBER = "我是共产党员，入党已经十年了。"
ANTIDEPRESSANTS = "Je prends des antidépresseurs depuis l'hiver."


def _as_labelled_before_the_head(memory: Memory, categories: list[str], **fields: object) -> None:
    Memory.objects.filter(pk=memory.pk).update(categories=categories, **fields)


def test_migrating_forward_hides_what_the_head_reads_as_sensitive_and_nothing_else(
    owner: User,
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    migration_executor: MigrationExecutor,
    settings: SettingsWrapper,
) -> None:
    settings.EMBEDDING_MODEL = E5_MODEL
    default_app = app_actor(owner, "Claude Desktop")  # sensitive categories hidden
    medicine, kites, chosen, marked = (
        adding.memory_create(actor=owner_dash, text=text).memory
        for text in (ANXIETY_MEDICINE, KITES, PARTY_MEMBER, ANTIDEPRESSANTS)
    )
    _as_labelled_before_the_head(medicine, [])
    _as_labelled_before_the_head(kites, [])
    _as_labelled_before_the_head(chosen, ["family"], categories_set_by_user=True)
    _as_labelled_before_the_head(marked, ["unchecked-language"])
    assert not hidden_from(default_app, Memory.objects.get(pk=medicine.pk))

    migrate(migration_executor, BEFORE)
    migrate_to_latest(migration_executor)

    after = {m.pk: m.categories for m in Memory.objects.filter(owner=owner)}
    assert after[medicine.pk] == ["health"]
    assert after[kites.pk] == []
    assert after[chosen.pk] == ["family"], "the owner's own choice is never changed"
    assert after[marked.pk] == ["unchecked-language"], "already hidden: no second guess"
    assert hidden_from(default_app, Memory.objects.get(pk=medicine.pk))
    assert not hidden_from(default_app, Memory.objects.get(pk=kites.pk))


def test_a_minilm_store_is_left_as_it_was(
    owner: User, owner_dash: Actor, migration_executor: MigrationExecutor, settings: SettingsWrapper
) -> None:
    settings.EMBEDDING_MODEL = MINILM_MODEL
    memory = adding.memory_create(actor=owner_dash, text=ANXIETY_MEDICINE).memory
    _as_labelled_before_the_head(memory, [])

    migrate(migration_executor, BEFORE)
    migrate_to_latest(migration_executor)

    assert Memory.objects.get(pk=memory.pk).categories == []
