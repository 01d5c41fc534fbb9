"""An import's result does not depend on how its conversations are grouped into the windows
that are embedded ahead of the writes (`imports.MESSAGE_WINDOW`, a speed setting)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from memories.models import Memory
from memories.services import imports
from memories.transfer_models import ImportedConversation, ImportRun
from tests.memories.exports import backfill, claude_message, write_json

# Each conversation's user messages; a message said again in a later conversation and one said
# twice in the same conversation are answered by the first memory, not stored again.
_CONVERSATIONS = [
    [
        "I live in Lisbon with my partner.",
        "我是艾滋病病毒携带者。",
        "Ich verdiene 85.000 Euro im Jahr.",
    ],
    [
        "私は毎朝ジョギングをしています。",
        "I live in Lisbon with my partner.",
        "Mein Hund heißt Bruno.",
    ],
    [
        "我对花生过敏，吃了会起疹子。",  # noqa: RUF001
        "My sister is a nurse in Porto.",
        "My sister is a nurse in Porto.",
    ],
    ["Ich bin Mitglied der Grünen.", "私の給料は年収600万円です。", "I play the cello on Sundays."],
]


def _export() -> list[dict[str, Any]]:
    return [
        {
            "uuid": f"c-{c}",
            "name": f"Chat {c}",
            "created_at": f"2024-03-0{c + 1}T09:00:00Z",
            "chat_messages": [
                m
                for i, text in enumerate(texts)
                for m in (
                    claude_message(f"m-{c}-{i}", "human", text),
                    claude_message(f"a-{c}-{i}", "assistant", "Noted."),
                )
            ],
        }
        for c, texts in enumerate(_CONVERSATIONS)
    ]


def _result(user: User) -> tuple[list[tuple[Any, ...]], tuple[Any, ...], list[tuple[Any, ...]]]:
    memories = sorted(
        Memory.objects.filter(owner=user).values_list(
            "text", "categories", "language", "state", "created_at", "provenance__message_id"
        )
    )
    run = ImportRun.objects.get(owner=user)
    counts = (run.memories_created, run.memories_existing, run.conversations_imported)
    rows = ImportedConversation.objects.filter(owner=user)
    manifest = sorted(rows.values_list("conversation_id", "message_ids"))
    return memories, counts, manifest


def test_an_import_stores_the_same_memories_whatever_its_window_size(
    owner: User, stranger: User, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_json(tmp_path / "conversations.json", _export())
    monkeypatch.setattr(imports, "MESSAGE_WINDOW", 1)  # one conversation a window
    backfill(path, owner, "--yes", "--extractor", "none")
    monkeypatch.setattr(imports, "MESSAGE_WINDOW", 10_000)  # the whole export in one window
    backfill(path, stranger, "--yes", "--extractor", "none")

    one_by_one, together = _result(owner), _result(stranger)
    assert one_by_one == together
    memories, counts, _ = one_by_one
    assert counts == (10, 2, 4)  # 12 messages, two of them said before
    labels = {text: cats for text, cats, *_ in memories}
    assert "health" in labels["我是艾滋病病毒携带者。"]
    assert "finance" in labels["Ich verdiene 85.000 Euro im Jahr."]
