"""The access log (app `activity`): an event commits or rolls back with the change it records,
and its log line names the door and the memory ids, never a text."""

from __future__ import annotations

import logging

import pytest
from django.db import transaction

from accounts.actors import Actor
from accounts.models import User
from activity import audit
from activity.models import AccessEvent
from memories.services import memory_create


def test_a_change_that_rolls_back_takes_its_access_event_with_it(
    owner: User, owner_dash: Actor
) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        memory_create(actor=owner_dash, text="Keeps bees on the roof.")
        assert AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.ADD).exists()
        raise RuntimeError("the caller fails after the write")
    assert not AccessEvent.objects.filter(owner=owner).exists()


def test_the_log_line_names_the_door_and_the_ids_but_no_text(
    owner: User, owner_dash: Actor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="contextlayer.audit")
    memory = memory_create(actor=owner_dash, text="Keeps bees on the roof.").memory
    event = audit.record(owner_dash, AccessEvent.Action.READ, [memory.id])
    line = next(r for r in caplog.records if getattr(r, "action", None) == "read")
    fields = vars(line)
    assert line.name == "contextlayer.audit"
    assert (fields["app"], fields["user_id"], fields["memory_ids"]) == (
        "dashboard",
        owner.pk,
        [str(memory.id)],
    )
    assert "bees" not in str(fields) and (event.owner_id, event.count) == (owner.pk, 1)
