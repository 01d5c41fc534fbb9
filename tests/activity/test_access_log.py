"""The access log (app `activity`): an event commits or rolls back with the change it records,
and its log line names the door and the memory ids, never a text."""

from __future__ import annotations

import logging

import pytest
from django.db import transaction

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from activity.services import access_event_create, read_event_sql
from memories.services.adding import memory_create


def test_a_change_that_rolls_back_takes_its_access_event_with_it(
    owner: User, owner_dash: Actor
) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        memory_create(actor=owner_dash, text="Keeps bees on the roof.")
        assert AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.ADD).exists()
        raise RuntimeError("the caller fails after the write")
    assert not AccessEvent.objects.filter(owner=owner).exists()


def test_the_log_line_names_the_app_and_the_ids_but_no_text(
    owner: User, owner_dash: Actor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="contextlayer.audit")
    memory = memory_create(actor=owner_dash, text="Keeps bees on the roof.").memory
    event = access_event_create(owner_dash, AccessEvent.Action.READ, [memory.id])
    line = next(r for r in caplog.records if getattr(r, "action", None) == "read")
    fields = vars(line)
    assert line.name == "contextlayer.audit"
    assert (fields["app"], fields["user_id"], fields["memory_ids"]) == (
        "dashboard",
        owner.pk,
        [str(memory.id)],
    )
    assert "bees" not in str(fields) and (event.owner_id, event.count) == (owner.pk, 1)


def _app_actor(owner: User) -> Actor:
    from accounts.credentials import resolve_bearer
    from tests.personas import issue_token

    credential = resolve_bearer(
        issue_token(owner, name="Reader", scopes=["memories:read"]).secret, resource="test"
    )
    assert credential is not None
    return credential.actor()


@pytest.mark.django_db(transaction=True)
def test_a_search_commits_its_event_without_waiting_for_the_disk_and_nothing_else(
    owner: User, owner_dash: Actor
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from memories.selectors.memories import memory_search

    memory_create(actor=owner_dash, text="Keeps bees on the roof of the garage.")
    memory_create(actor=owner_dash, text="The garage roof leaks when it rains hard.")
    reader = _app_actor(owner)
    with CaptureQueriesContext(connection) as seen:
        hits = memory_search(actor=reader, query="bees on the roof of the garage", min_score=0)
    assert len(hits) == 2 and hits[0].memory.text.startswith("Keeps bees")
    # One statement reads the rows and writes their event, asynchronously committed: the
    # setting is local to that statement's own transaction.
    writes = [q["sql"] for q in seen.captured_queries if "INSERT" in q["sql"]]
    assert len(writes) == 1 and "SELECT" in writes[0].split("INSERT")[0]
    assert "set_config('synchronous_commit', 'off', true)" in writes[0]
    assert not any(q["sql"].startswith("SET") for q in seen.captured_queries)
    # Committed (another connection's view: the test's own is not in a transaction), with the
    # ids in the order they were ranked ...
    event = AccessEvent.objects.get(owner=owner, action=AccessEvent.Action.SEARCH)
    assert (event.memory_ids, event.count, event.app_name) == (
        [h.memory.id for h in hits],
        2,
        "Reader",
    )
    # ... and the setting went with that transaction: the next write waits for the disk again.
    with connection.cursor() as cur:
        cur.execute("SHOW synchronous_commit")
        assert cur.fetchone() == ("on",)


@pytest.mark.django_db(transaction=True)
def test_a_search_that_finds_nothing_still_records_that_it_was_made(
    owner: User, owner_dash: Actor
) -> None:
    from memories.selectors.memories import memory_search

    reader = _app_actor(owner)
    assert list(memory_search(actor=reader, query="bees on the roof")) == []
    event = AccessEvent.objects.get(owner=owner, action=AccessEvent.Action.SEARCH)
    assert (event.memory_ids, event.count) == ([], 0)


def test_a_read_event_statement_refuses_to_run_inside_a_transaction(owner_dash: Actor) -> None:
    """Its asynchronous commit would also cover whatever the caller's transaction wrote."""
    with transaction.atomic(), pytest.raises(RuntimeError, match="autocommit"):
        read_event_sql(owner_dash, AccessEvent.Action.SEARCH, "hit", "%(ids)s::uuid[]")


def test_a_search_inside_a_transaction_leaves_the_commit_to_it(
    owner: User, owner_dash: Actor
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from memories.selectors.memories import memory_search

    memory_create(actor=owner_dash, text="Keeps bees on the roof of the garage.")
    reader = _app_actor(owner)
    with pytest.raises(RuntimeError), transaction.atomic():
        with CaptureQueriesContext(connection) as seen:
            assert memory_search(actor=reader, query="bees on the roof")
        assert AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.SEARCH).exists()
        raise RuntimeError("the caller fails after the search")
    # The caller's transaction may hold writes: their commit is never made asynchronous.
    assert not any("synchronous_commit" in q["sql"] for q in seen.captured_queries)
    assert not AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.SEARCH).exists()
