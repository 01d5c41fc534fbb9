"""How a memory is described to a person: its history, as the detail page shows it."""

from __future__ import annotations

import pytest

from accounts.actors import Actor
from memories.selectors.memories import memory_versions
from memories.services import adding, changing
from web.presentation import history_entries

pytestmark = pytest.mark.django_db


def test_history_labels_each_text_as_restore_would_bring_it_back(owner_dash: Actor) -> None:
    """Each entry shows one text; its Restore brings back exactly that text, and its diff
    highlights what that text added to the one before it."""
    memory = adding.memory_create(actor=owner_dash, text="Lives in Leeds").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Lives in York")
    memory = changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Lives in Bath")
    entries = history_entries(memory, memory_versions(actor=owner_dash, memory_id=memory.id))
    assert [(e.label, e.text) for e in entries] == [
        ("Current", "Lives in Bath"),
        ("", "Lives in York"),
        ("Original", "Lives in Leeds"),
    ]
    assert entries[0].version is None  # nothing to restore: it is the text now
    for entry in entries[1:]:
        assert entry.version is not None and entry.version.text == entry.text
    assert [p.text for p in entries[1].diff if p.op == "ins"] == ["York"]
    assert [p.text for p in entries[1].diff if p.op == "del"] == ["Leeds"]
    assert entries[2].became == "Added" and entries[2].diff == []
