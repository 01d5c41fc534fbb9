"""Sensitive labels on imported facts (issue 38, item 4): a health fact the local extractor takes
from a message is labelled as it would be typed, and a default-grant app cannot read it; the
person a dash hands a fact to keeps the fact, so its label too."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.actors import actor_for, stdio_app
from accounts.models import User
from kernel.errors import NotFound
from memories.classify import classifier_for
from memories.models import Memory
from memories.search.embeddings import get_embedder
from memories.selectors.memories import memory_get
from tests.memories.exports import backfill, claude_message, write_json


def _labels(text: str) -> list[str]:
    return classifier_for().classify(get_embedder().embed([text]), [text])[0]


@pytest.mark.parametrize(
    "text",
    [
        "My knees hurt after long runs",
        "I've got a bad back from years of lifting",
        "My son is autistic",
        "I'm colourblind",
        "I'm deaf in one ear",
    ],
)
def test_a_body_or_sense_fact_typed_is_health(text: str) -> None:
    assert "health" in _labels(text)


def test_an_imported_knee_complaint_is_health_and_hidden_from_a_default_app(
    owner: User, tmp_path: Path
) -> None:
    created = "2024-05-01T09:00:00Z"
    said = "My knees hurt after long runs, any stretches you'd recommend?"
    export = [
        {
            "uuid": "c-run",
            "name": "Running",
            "created_at": created,
            "chat_messages": [
                claude_message("u0", "human", said, created_at=created),
                claude_message("a0", "assistant", "Try these.", created_at=created),
            ],
        }
    ]
    backfill(
        write_json(tmp_path / "conversations.json", export), owner, "--extractor", "local", "--yes"
    )
    memory = Memory.objects.get(owner=owner, text="My knees hurt after long runs")
    assert "health" in memory.categories
    app = actor_for(owner, stdio_app(owner, "cursor"))  # the default grant: nothing sensitive
    with pytest.raises(NotFound):
        memory_get(actor=app, memory_id=memory.id)


def test_who_a_dash_names_keeps_the_fact_and_its_label() -> None:
    from memories.extraction.local import local_extractor

    (kept,) = local_extractor().extract(["two of them are coeliac — my dad and my niece"])
    assert [k.text for k in kept] == ["Two of them are coeliac — my dad and my niece"]
    assert "health" in _labels(kept[0].text)
