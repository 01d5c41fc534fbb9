"""Parsing Claude and ChatGPT exports: exactly the kept messages, nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memories.ingest.detect import load_export
from memories.ingest.types import IngestError
from tests.memories.exports import chatgpt_export, claude_export, write_json, zip_bytes


def test_claude_export_keeps_text_legacy_text_and_attachments_and_skips_tool_and_empty_turns(
    tmp_path: Path,
) -> None:
    export = load_export(write_json(tmp_path / "conversations.json", claude_export()))
    assert export.source == "claude"
    first, second = export.conversations
    assert first.id == "c-1" and first.title == "Trip planning"
    assert [(m.id, m.role, m.text) for m in first.messages] == [
        ("m-1", "user", "I am vegetarian and I live in Lisbon."),
        ("m-2", "assistant", "Noted! Here are some restaurants."),
        ("m-3", "user", "My daughter is called Ada."),
        ("m-6", "user", "Please review my CV.\n\n[cv.txt]\nRust engineer."),
        ("m-7", "user", "This is my cat Miso."),
    ]
    assert second.title == "" and second.created_at is None and second.messages == ()


def test_chatgpt_export_follows_only_the_kept_branch_and_keeps_user_and_assistant_text(
    tmp_path: Path,
) -> None:
    export = load_export(write_json(tmp_path / "conversations.json", chatgpt_export()))
    assert export.source == "chatgpt"
    (conversation,) = export.conversations
    assert conversation.id == "g-1" and conversation.title == ""
    assert [(m.id, m.role, m.text) for m in conversation.messages] == [
        ("u1", "user", "I live in Berlin."),
        ("a1", "assistant", "Berlin is great."),
        ("u2", "user", "I play the cello."),
    ]
    assert conversation.messages[2].created_at is None


def test_split_chatgpt_files_in_a_zip_are_read_together(tmp_path: Path) -> None:
    one = chatgpt_export()
    two = json.loads(json.dumps(one))
    two[0]["conversation_id"] = two[0]["id"] = "g-2"
    archive = tmp_path / "export.zip"
    archive.write_bytes(
        zip_bytes(
            {
                "conversations-000.json": json.dumps(one).encode(),
                "conversations-001.json": json.dumps(two).encode(),
                "user.json": b"{}",
                "chat.html": b"<html></html>",
            }
        )
    )
    export = load_export(archive)
    assert [c.id for c in export.conversations] == ["g-1", "g-2"]


def test_an_unzipped_folder_is_read(tmp_path: Path) -> None:
    write_json(tmp_path / "conversations.json", claude_export())
    write_json(tmp_path / "users.json", [{"uuid": "u"}])
    assert len(load_export(tmp_path).conversations) == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "is not valid JSON (line 1, column 2"),
        (b"\xff\xfe\x00", "is not UTF-8"),
        (b'{"hello": "world"}', "is neither a Claude export"),
        (b'[{"uuid": "x", "chat_messages": "nope"}]', "'chat_messages' must be a list"),
        (b'[{"chat_messages": []}]', "needs a string 'uuid'"),
        (b'[{"mapping": [], "id": "x"}]', "'mapping' must be an object"),
    ],
)
def test_invalid_or_wrong_shaped_json_is_refused_with_a_message_naming_the_problem(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "conversations.json"
    path.write_bytes(content)
    with pytest.raises(IngestError, match=message.replace("(", r"\(")) as info:
        load_export(path)
    assert "conversations.json" in info.value.message


def test_a_given_source_that_does_not_match_the_file_is_refused(tmp_path: Path) -> None:
    path = write_json(tmp_path / "conversations.json", claude_export())
    with pytest.raises(IngestError, match="looks like a claude export, not chatgpt"):
        load_export(path, "chatgpt")


def test_without_current_node_the_most_recent_leaf_is_the_kept_branch(tmp_path: Path) -> None:
    export = chatgpt_export()
    del export[0]["current_node"]
    mapping = export[0]["mapping"]
    mapping["a-old"]["message"]["create_time"] = 1_600_000_000.0  # the abandoned branch is older
    mapping["a1-regen"]["message"]["create_time"] = 1_600_000_001.0
    mapping["u4"]["message"]["create_time"] = 1_800_000_000.0
    (conversation,) = load_export(write_json(tmp_path / "conversations.json", export)).conversations
    assert [m.id for m in conversation.messages] == ["u1", "a1", "u2"]


def test_a_cycle_in_the_mapping_is_refused(tmp_path: Path) -> None:
    export = chatgpt_export()
    export[0]["mapping"]["root"]["parent"] = "u4"
    with pytest.raises(IngestError, match="cycle"):
        load_export(write_json(tmp_path / "conversations.json", export))


def test_our_own_export_is_detected_by_its_format_field(tmp_path: Path) -> None:
    document = {
        "format": "context-layer-export",
        "version": 1,
        "exported_at": "2026-01-01T00:00:00+00:00",
        "memories": [
            {
                "id": "7f0e4c1e-0000-4000-8000-000000000001",
                "text": "I like figs.",
                "categories": ["food"],
                "state": "paused",
                "provenance": {},
                "created_at": "2025-01-01T00:00:00+00:00",
                "updated_at": "2025-01-02T00:00:00+00:00",
            }
        ],
        "connected_apps": [],
        "access_log": [],
    }
    archive = tmp_path / "backup.zip"
    archive.write_bytes(zip_bytes({"me.json": json.dumps(document).encode()}))
    export = load_export(archive)
    assert export.source == "contextlayer" and export.memories[0].state == "paused"
    document["version"] = 2
    with pytest.raises(IngestError, match="version 2 is not supported"):
        load_export(write_json(tmp_path / "me.json", document))
