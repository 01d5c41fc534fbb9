"""The owner-predicate check itself: it bites on owner-free queries and knows every tenant table."""

from __future__ import annotations

from django.apps import apps

from accounts.actors import Actor
from accounts.models import User
from kernel.tenancy import cross_tenant
from memories.models import Memory, MemoryVersion
from memories.services.adding import memory_create
from memories.services.changing import memory_update
from tests.owner_queries import TALLY, as_app_code, captured_violations
from tests.owner_sql import NOT_TENANT, OWNER_APPS, analyze, tenant_schema


def test_an_owner_free_query_in_app_code_is_a_violation(owner: User, owner_dash: Actor) -> None:
    memory = memory_create(actor=owner_dash, text="The cat is called Miso.").memory
    with captured_violations() as found, as_app_code():
        assert Memory.objects.filter(pk=memory.pk).exists()
        Memory.objects.filter(text__contains="Miso").update(is_private=True)
    assert [v.tables for v in found] == [("memories_memory",), ("memories_memory",)]


def test_the_same_queries_with_the_owner_pass(owner: User, owner_dash: Actor) -> None:
    memory = memory_create(actor=owner_dash, text="The cat is called Miso.").memory
    with captured_violations() as found, as_app_code():
        assert Memory.objects.filter(owner=owner, pk=memory.pk).exists()
        Memory.objects.filter(owner=owner, text__contains="Miso").update(is_private=True)
        assert MemoryVersion.objects.filter(memory__owner=owner).count() == 0
    assert found == []


def test_cross_tenant_exempts_and_counts_by_reason(owner: User, owner_dash: Actor) -> None:
    memory_create(actor=owner_dash, text="The cat is called Miso.")
    why = "self-test: counting every memory"
    before = TALLY.exempted[why]
    with captured_violations() as found, as_app_code(), cross_tenant(why):
        assert Memory.objects.count() == 1
    assert found == []
    assert TALLY.exempted[why] == before + 1


def test_queries_written_in_tests_are_not_checked(owner: User, stranger: User) -> None:
    before = TALLY.checked
    with captured_violations() as found:
        assert not Memory.objects.filter(owner=stranger).exists()
        assert Memory.objects.count() == 0  # test code may look at every tenant's rows
    assert (found, TALLY.checked) == ([], before)


def test_service_writes_are_checked_and_pass(owner: User, owner_dash: Actor) -> None:
    before = TALLY.checked
    with captured_violations() as found:
        memory = memory_create(actor=owner_dash, text="The cat is called Miso.").memory
        memory_update(actor=owner_dash, memory_id=memory.id, text="The cat is called Mochi.")
    assert found == []
    assert TALLY.checked > before


def test_every_model_of_our_apps_is_a_tenant_table_or_says_why_not() -> None:
    tables = {m._meta.db_table for a in OWNER_APPS for m in apps.get_app_config(a).get_models()}
    assert tables == set(tenant_schema().owner) | set(NOT_TENANT)
    assert {
        "memories_memory",
        "memories_accessevent",  # the access log's table (app `activity`)
        "accounts_connectedapp",
        "accounts_clienttoken",
    } <= set(tenant_schema().owner)


def test_joins_count_only_through_an_owner_constrained_table() -> None:
    through_memory = (
        "SELECT v.id FROM memories_memoryversion v JOIN memories_memory m ON v.memory_id = m.id "
        "WHERE m.owner_id = %s"
    )
    through_nothing = (
        "SELECT v.id FROM memories_memoryversion v JOIN memories_memory m ON v.memory_id = m.id "
        "WHERE m.state = %s"
    )
    assert analyze(through_memory).ok
    assert [u.table for u in analyze(through_nothing).unfiltered] == [
        "memories_memoryversion",
        "memories_memory",
    ]


def test_an_owner_predicate_under_or_does_not_count() -> None:
    sql = "SELECT id FROM memories_memory WHERE owner_id = %s OR is_private"
    assert not analyze(sql).ok


def test_an_in_subquery_counts_when_the_subquery_is_owner_constrained() -> None:
    good = (
        'UPDATE "memories_memory" SET "text" = %s WHERE "memories_memory"."id" IN '
        '(SELECT U0."id" FROM "memories_memory" U0 WHERE U0."owner_id" = %s)'
    )
    bad = (
        'UPDATE "memories_memory" SET "text" = %s WHERE "memories_memory"."id" IN '
        '(SELECT U0."id" FROM "memories_memory" U0 WHERE U0."state" = %s)'
    )
    assert analyze(good).ok
    assert not analyze(bad).ok


def test_inserts_must_name_the_owner_column() -> None:
    assert analyze('INSERT INTO "memories_accessevent" ("owner_id", "action") VALUES (%s, %s)').ok
    assert not analyze('INSERT INTO "memories_accessevent" ("action") VALUES (%s)').ok


def test_a_primary_key_alone_is_keyed_not_filtered() -> None:
    sql = 'DELETE FROM "memories_memory" WHERE "memories_memory"."id" IN (%s)'
    (found,) = analyze(sql).unfiltered
    assert found.keyed
