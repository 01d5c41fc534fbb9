"""Importing exports: exactly the user's messages on the kept branch, once, with provenance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from accounts.actors import Actor
from accounts.models import ConnectedApp, User
from activity.models import AccessEvent
from memories.ingest.detect import load_export
from memories.models import Memory
from memories.services.deleting import memory_delete
from memories.services.import_check import import_estimate
from memories.services.imports import import_execute
from memories.transfer_models import ImportedConversation, ImportRun
from tests.memories.exports import (
    backfill,
    chatgpt_export,
    claude_export,
    claude_message,
    memory_texts,
    write_json,
)


def test_claude_import_makes_one_memory_per_user_message_with_provenance(
    owner: User, tmp_path: Path
) -> None:
    path = write_json(tmp_path / "conversations.json", claude_export())
    summary = backfill(path, owner, "--yes", "--extractor", "none")
    assert "Imported 2, skipped 0 as already imported, failed 0" in summary
    assert memory_texts(owner) == sorted(
        [
            "I am vegetarian and I live in Lisbon.",
            "My daughter is called Ada.",
            "Please review my CV.\n\n[cv.txt]\nRust engineer.",
            "This is my cat Miso.",
        ]
    )
    memory = Memory.objects.get(owner=owner, text="My daughter is called Ada.")
    assert memory.origin == "import" and memory.origin_app_name == "Claude import"
    assert memory.created_at.isoformat() == "2024-03-01T10:05:00+00:00"
    prov = memory.provenance
    assert prov["source"] == "claude" and prov["conversation_id"] == "c-1"
    assert prov["conversation_title"] == "Trip planning" and prov["message_id"] == "m-3"
    assert prov["message_created_at"] == "2024-03-01T10:05:00+00:00"
    app = ConnectedApp.objects.get(owner=owner, name="Claude import")
    assert app.kind == ConnectedApp.Kind.IMPORT
    run = ImportRun.objects.get(owner=owner)
    assert (run.status, run.memories_created, run.conversations_total) == ("done", 4, 2)


def test_chatgpt_import_takes_only_user_text_on_the_kept_branch(
    owner: User, tmp_path: Path
) -> None:
    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    backfill(path, owner, "--yes")
    assert memory_texts(owner) == ["I live in Berlin.", "I play the cello."]
    cello = Memory.objects.get(owner=owner, text="I play the cello.")
    assert cello.provenance["conversation_title"] == ""
    assert cello.provenance["message_created_at"] is None


def test_dry_run_reports_the_estimate_and_imports_nothing(owner: User, tmp_path: Path) -> None:
    path = write_json(tmp_path / "conversations.json", claude_export())
    output = backfill(path, owner, "--extractor", "none")
    assert "2 conversations, 5 messages (4 from the user)" in output
    assert "extractor none; nothing leaves this server." in output and "tokens" not in output
    assert "Dry run: nothing was imported" in output
    assert not Memory.objects.exists() and not ImportRun.objects.exists()
    assert not ImportedConversation.objects.exists()


def test_re_running_the_same_import_adds_nothing(owner: User, tmp_path: Path) -> None:
    path = write_json(tmp_path / "conversations.json", claude_export())
    backfill(path, owner, "--yes")
    before = sorted(Memory.objects.values_list("id", flat=True))
    summary = backfill(path, owner, "--yes")
    assert "Imported 0, skipped 2 as already imported" in summary
    assert sorted(Memory.objects.values_list("id", flat=True)) == before


def test_a_changed_conversation_imports_only_its_new_messages(owner: User, tmp_path: Path) -> None:
    export = claude_export()
    path = write_json(tmp_path / "conversations.json", export)
    backfill(path, owner, "--yes")
    first = set(Memory.objects.values_list("id", flat=True))
    export[0]["chat_messages"].append(claude_message("m-9", "human", "I started learning Go."))
    write_json(path, export)
    summary = backfill(path, owner, "--yes")
    assert "Imported 1, skipped 1" in summary
    new = Memory.objects.exclude(id__in=first)
    assert [m.text for m in new] == ["I started learning Go."]
    assert set(Memory.objects.filter(id__in=first).values_list("id", flat=True)) == first


def test_a_memory_the_user_deleted_is_not_brought_back(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    path = write_json(tmp_path / "conversations.json", claude_export())
    backfill(path, owner, "--yes", "--extractor", "none")
    ada = Memory.objects.get(owner=owner, text="My daughter is called Ada.")
    memory_delete(actor=owner_dash, memory_id=ada.id)
    ImportedConversation.objects.all().delete()  # even with the manifest gone
    summary = backfill(path, owner, "--yes", "--extractor", "none")
    assert "1 not brought back (deleted by the user)" in summary
    assert "My daughter is called Ada." not in memory_texts(owner)
    assert len(memory_texts(owner)) == 3


def test_import_is_refused_to_a_connected_app_and_records_an_import_event(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    export = load_export(write_json(tmp_path / "conversations.json", claude_export()))
    run = import_execute(actor=owner_dash, export=export, extractor="none", limit=1)
    assert run.conversations_total == 1 and run.memories_created == 4
    event = AccessEvent.objects.get(owner=owner, action="import")
    assert event.detail["run"] == str(run.pk) and event.count == 4
    estimate = import_estimate(export=export, extractor="none", limit=1)
    assert (estimate.conversations, estimate.user_messages) == (1, 4)


def test_a_long_message_becomes_several_memories_within_the_limit(
    owner: User, tmp_path: Path, settings: object
) -> None:
    settings.MEMORY_MAX_CHARS = 100  # type: ignore[attr-defined]
    long_text = " ".join(f"word{i}" for i in range(60))
    export = [
        {
            "uuid": "c-long",
            "name": "Long",
            "created_at": None,
            "chat_messages": [claude_message("m-long", "human", long_text)],
        }
    ]
    backfill(
        write_json(tmp_path / "conversations.json", export), owner, "--yes", "--extractor", "none"
    )
    parts = list(Memory.objects.filter(owner=owner).order_by("created_at", "text"))
    assert all(len(m.text) <= 100 for m in parts) and len(parts) >= 4
    assert (
        " ".join(sorted((m.text for m in parts), key=lambda t: int(t.split()[0][4:]))) == long_text
    )
    manifest = ImportedConversation.objects.get(owner=owner)
    assert manifest.message_ids[0] == "m-long" and "m-long#2" in manifest.message_ids


@pytest.mark.parametrize("extractor", ["llm"])
def test_llm_extractor_without_an_llm_configured_is_refused(
    owner: User, tmp_path: Path, extractor: str
) -> None:
    from django.core.management import CommandError

    path = write_json(tmp_path / "conversations.json", claude_export())
    with pytest.raises(CommandError, match="needs an LLM"):
        backfill(path, owner, "--extractor", extractor)


def test_json_of_wrong_shape_inside_one_conversation_refuses_the_whole_import(
    owner: User, tmp_path: Path
) -> None:
    from django.core.management import CommandError

    export = claude_export()
    export[1]["chat_messages"] = [42]
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export))
    with pytest.raises(CommandError, match=r"conversations.json\[1\].chat_messages\[0\]"):
        backfill(path, owner, "--yes")
    assert not Memory.objects.exists()


def test_llm_extractor_sends_each_conversations_new_messages_through_memory_remember(
    owner: User, tmp_path: Path, settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The extraction engine is stood in for: the import's contract is one transcript of the
    conversation's not-yet-imported messages per call, with provenance."""
    from memories.services import imports
    from memories.services.adding import memory_create
    from memories.services.remember import RememberResult

    settings.EXTRACTION_MODE = "anthropic"  # type: ignore[attr-defined]
    calls: list[dict[str, object]] = []

    def remember(*, actor: Actor, text: str, provenance: dict[str, object]) -> RememberResult:
        calls.append({"app": actor.app.name, "text": text, "provenance": provenance})
        fact = memory_create(actor=actor, text=f"fact from {provenance['conversation_id']}")
        return RememberResult(results=[fact], extraction="fake")

    monkeypatch.setattr(imports, "memory_remember", remember)
    export = claude_export()
    path = write_json(tmp_path / "conversations.json", export)
    dry_run = backfill(path, owner)
    assert "extractor llm; estimated cost $" in dry_run  # auto picks the LLM, which is paid
    assert not calls
    backfill(path, owner, "--yes")
    (call,) = calls  # the empty conversation sends nothing
    assert call["app"] == "Claude import"
    assert str(call["text"]).startswith(
        "user: I am vegetarian and I live in Lisbon.\nassistant: Noted!"
    )
    assert call["provenance"]["conversation_id"] == "c-1"  # type: ignore[index]
    assert memory_texts(owner) == ["fact from c-1"]

    export[0]["chat_messages"].append(claude_message("m-9", "human", "I moved to Porto."))
    write_json(path, export)
    backfill(path, owner, "--yes")
    assert calls[-1]["text"] == "user: I moved to Porto."
    backfill(path, owner, "--yes")
    assert len(calls) == 2


def test_restoring_an_export_never_brings_back_its_trash(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    from memories.services.adding import memory_create
    from memories.services.erasure import user_erase
    from memories.services.export import export_build

    kept = memory_create(actor=owner_dash, text="Keeps a garden").memory
    gone = memory_create(actor=owner_dash, text="Was in a band").memory
    memory_delete(actor=owner_dash, memory_id=gone.id)
    document = export_build(actor=owner_dash)
    assert [m["trash"] is not None for m in document["memories"]] == [False, True]
    user_erase(actor=owner_dash)
    path = write_json(tmp_path / "me.json", document)
    summary = backfill(path, owner, "--yes", "--source", "contextlayer")
    assert "1 not brought back (deleted by the user)" in summary
    assert memory_texts(owner) == [kept.text]
    assert not Memory.objects.filter(owner=owner, text="Was in a band").exists()
