"""Local reconciliation of an import (`RECONCILE_LOCAL`, no LLM), through the real door
(`manage.py backfill --extractor none`): each message is reconciled against what the owner has
and against the import's earlier messages, so importing a history twice — or after an app wrote
the same facts — leaves one current memory per fact, the old job in the new one's history."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory, MemoryProposal, MemoryVersion
from memories.services.adding import memory_create
from tests.memories.exports import backfill, claude_message, memory_texts, write_json


@pytest.fixture(autouse=True)
def reconcile_on(settings: SettingsWrapper) -> None:
    """Local reconciliation is off by default (settings.RECONCILE_LOCAL); these tests turn it on."""
    settings.RECONCILE_LOCAL = True


def _export(prefix: str, conversations: list[list[str]]) -> list[dict[str, Any]]:
    """A Claude export: each conversation its human messages, in order."""
    return [
        {
            "uuid": f"{prefix}-c{n}",
            "name": f"chat {n}",
            "created_at": f"2024-03-0{n + 1}T09:00:00.000000Z",
            "chat_messages": [
                claude_message(f"{prefix}-c{n}-m{i}", "human", text) for i, text in enumerate(texts)
            ],
        }
        for n, texts in enumerate(conversations)
    ]


FIRST = [
    [
        "Jonas, my brother, works as an architect.",  # restates what the owner has
        "I left Shopify and now work at Stripe.",  # updates it
        "我的猫叫咪咪。",
        "Meine Schwester wohnt in Köln.",
    ],
    [
        "咪咪是我的猫。",  # restates an earlier message of the same import
        "Mein Bruder wohnt in Köln.",  # another person: both stay
        "大阪に住んでいます。",
    ],
]


def _import(path: Path, owner: User) -> None:
    summary = backfill(path, owner, "--yes", "--extractor", "none")
    assert "failed 0" in summary, summary


# The same history exported again later, regrouped, under new conversation ids (the brother in
# the words the owner stored).
AGAIN = [
    ["My brother Jonas is an architect.", "I left Shopify and now work at Stripe."],
    ["我的猫叫咪咪。", "Meine Schwester wohnt in Köln.", "Mein Bruder wohnt in Köln."],
    ["大阪に住んでいます。"],
]


def test_an_import_merges_restatements_replaces_updates_and_a_second_import_adds_nothing(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    memory_create(actor=owner_dash, text="My brother Jonas is an architect.")
    memory_create(actor=owner_dash, text="I work at Shopify.")

    summary = backfill(
        write_json(tmp_path / "first.json", _export("a", FIRST)),
        owner,
        "--yes",
        "--extractor",
        "none",
    )
    assert "failed 0" in summary, summary
    current = sorted(
        Memory.objects.filter(owner=owner, superseded_by__isnull=True).values_list(
            "text", flat=True
        )
    )
    assert current == sorted(
        [
            "My brother Jonas is an architect.",
            "I left Shopify and now work at Stripe.",
            "我的猫叫咪咪。",
            "Meine Schwester wohnt in Köln.",
            "Mein Bruder wohnt in Köln.",
            "大阪に住んでいます。",
        ]
    )
    # The old job is kept in the new one's history, restorable; the restated wordings are kept
    # with the memory they restate.
    old = Memory.objects.get(owner=owner, text="I work at Shopify.")
    assert old.superseded_by is not None
    assert MemoryVersion.objects.filter(
        memory=old.superseded_by, kind=MemoryVersion.Kind.SUPERSEDE, text="I work at Shopify."
    ).exists()
    cat = Memory.objects.get(owner=owner, text="我的猫叫咪咪。")
    assert [r["text"] for r in cat.metadata["restated_as"]] == ["咪咪是我的猫。"]
    brother = Memory.objects.get(owner=owner, text="My brother Jonas is an architect.")
    assert [r["text"] for r in brother.metadata["restated_as"]] == [
        "Jonas, my brother, works as an architect."
    ]
    # An import's guesses never fill the owner's Review.
    assert not MemoryProposal.objects.filter(owner=owner).exists()
    before = memory_texts(owner)

    summary = backfill(
        write_json(tmp_path / "again.json", _export("b", AGAIN)),
        owner,
        "--yes",
        "--extractor",
        "none",
    )
    assert "failed 0" in summary, summary
    assert memory_texts(owner) == before
