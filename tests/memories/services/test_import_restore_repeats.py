"""Restoring a Context Layer export whose items collide: an id named twice, the same text under two
ids, an id that is still the owner's memory, an item the server cannot store. Each item is
restored whole or not at all, the rest of the file goes on, and the owner reads why in words."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from memories.ingest.detect import load_export
from memories.models import Memory, MemoryState, MemoryVersion
from memories.services import import_restore
from memories.services.adding import memory_create
from memories.services.changing import memory_set_state
from memories.services.deleting import memory_delete
from memories.services.export import export_build
from memories.services.imports import import_execute
from memories.transfer_models import ImportedConversation, ImportRun
from tests.memories.exports import backfill, memory_texts, write_json

pytestmark = pytest.mark.usefixtures("upload_dir", "immediate_tasks")

FIGS = "7f0e4c1e-0000-4000-8000-000000000001"
BEES = "7f0e4c1e-0000-4000-8000-000000000002"
PLUMS = "7f0e4c1e-0000-4000-8000-000000000003"


def _memory(memory_id: str, text: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": memory_id,
        "text": text,
        "categories": [],
        "state": "active",
        "provenance": {},
        "created_at": "2025-01-01T00:00:00+00:00",
        "updated_at": "2025-01-02T00:00:00+00:00",
        **fields,
    }


def _document(*memories: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "context-layer-export",
        "version": 1,
        "exported_at": "2026-01-01T00:00:00+00:00",
        "memories": list(memories),
        "connected_apps": [],
        "access_log": [],
    }


def _visible_text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _upload_and_start(client: Client, document: dict[str, Any], capture: Any) -> str:
    """The owner uploads the file on the Import page, starts it, and reads the run's page."""
    upload = SimpleUploadedFile("backup.json", json.dumps(document).encode())
    check = client.post("/import/", {"file": upload, "source": "auto", "extractor": "local"})
    assert check.status_code == 302, check.content.decode()
    with capture(execute=True):
        client.post(f"{check['Location']}start/")
    return _visible_text(client.get(check["Location"]).content.decode())


def _restore(owner_dash: Actor, tmp_path: Path, document: dict[str, Any]) -> ImportRun:
    export = load_export(write_json(tmp_path / "backup.json", document))
    return import_execute(actor=owner_dash, export=export)


def test_a_file_naming_a_memory_twice_restores_the_first_and_the_page_says_the_repeat_was_skipped(
    owner: User, owner_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    document = _document(
        _memory(FIGS, "I like figs."),
        _memory(BEES, "I keep bees."),
        _memory(FIGS, "I like plums."),
    )
    page = _upload_and_start(owner_client, document, django_capture_on_commit_callbacks)
    assert "Done." in page
    assert "Imported 2 conversations, skipped 1 as already imported, failed 0." in page
    assert (
        f"Skipped {FIGS}: The file names memory {FIGS} more than once: only its first "
        "occurrence is restored, and this repeat was skipped."
    ) in page
    assert "Error" not in page  # no exception's name (IntegrityError) reaches the owner
    assert memory_texts(owner) == ["I keep bees.", "I like figs."]


def test_the_rest_api_reports_the_repeat_as_skipped_with_its_message(
    owner: User, owner_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    upload = SimpleUploadedFile(
        "backup.json",
        json.dumps(
            _document(_memory(FIGS, "I like figs."), _memory(FIGS, "I like figs."))
        ).encode(),
    )
    run = owner_client.post("/api/v1/imports", {"file": upload}).json()
    with django_capture_on_commit_callbacks(execute=True):
        owner_client.post(f"/api/v1/imports/{run['id']}/start")
    done = owner_client.get(f"/api/v1/imports/{run['id']}").json()
    assert (done["status"], done["conversations_imported"], done["conversations_skipped"]) == (
        "done",
        1,
        1,
    )
    assert done["errors"] == [
        {"id": FIGS, "error": import_restore.repeated_id_message(FIGS), "skipped": True}
    ]


def test_an_id_named_again_in_a_later_batch_is_skipped_the_same_way(
    owner: User, owner_dash: Actor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_restore, "RESTORE_BATCH", 2)
    run = _restore(
        owner_dash,
        tmp_path,
        _document(
            _memory(FIGS, "I like figs."),
            _memory(BEES, "I keep bees."),
            _memory(FIGS, "I like plums."),
        ),
    )
    assert (run.conversations_imported, run.conversations_skipped, run.conversations_failed) == (
        2,
        1,
        0,
    )
    assert [e["id"] for e in run.errors] == [FIGS]
    assert memory_texts(owner) == ["I keep bees.", "I like figs."]


def test_backfill_prints_the_repeat_as_skipped_not_failed(owner: User, tmp_path: Path) -> None:
    path = write_json(
        tmp_path / "backup.json",
        _document(_memory(FIGS, "I like figs."), _memory(FIGS, "I like figs.")),
    )
    summary = backfill(path, owner, "--yes", "--source", "contextlayer")
    assert f"  skipped {FIGS}: {import_restore.repeated_id_message(FIGS)}" in summary
    assert "failed 0." in summary


def test_the_same_text_under_two_ids_is_one_memory_and_a_second_restore_adds_nothing(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    document = _document(_memory(FIGS, "I like figs."), _memory(PLUMS, "I like figs."))
    first = _restore(owner_dash, tmp_path, document)
    assert (first.conversations_imported, first.memories_created, first.memories_existing) == (
        2,
        1,
        1,
    )
    again = _restore(owner_dash, tmp_path, document)
    assert (again.conversations_imported, again.conversations_skipped, again.errors) == (0, 2, [])
    assert memory_texts(owner) == ["I like figs."]


def test_restoring_onto_the_account_it_came_from_adds_no_copy_of_what_is_still_there(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    kept = memory_create(actor=owner_dash, text="I keep bees.").memory
    shelved = memory_create(actor=owner_dash, text="I once lived in Oslo.").memory
    memory_set_state(actor=owner_dash, memory_ids=[shelved.id], state=MemoryState.ARCHIVED)
    document = export_build(actor=owner_dash)
    memory_delete(actor=owner_dash, memory_id=kept.id)  # deleted after the export: in the trash
    before = Memory.objects.filter(owner=owner).count()
    run = _restore(owner_dash, tmp_path, document)
    assert Memory.objects.filter(owner=owner).count() == before
    assert (run.conversations_skipped, run.messages_skipped_deleted, run.errors) == (2, 1, [])
    assert Memory.objects.get(pk=kept.id).state == MemoryState.TRASHED


def test_an_id_of_another_users_memory_is_restored_as_the_owners_own_and_says_nothing_of_it(
    owner: User, stranger_dash: Actor, owner_dash: Actor, tmp_path: Path
) -> None:
    theirs = memory_create(actor=stranger_dash, text="The stranger's secret.").memory
    run = _restore(owner_dash, tmp_path, _document(_memory(str(theirs.id), "I like figs.")))
    assert (run.conversations_imported, run.memories_created, run.errors) == (1, 1, [])
    assert memory_texts(owner) == ["I like figs."]
    theirs.refresh_from_db()
    assert (theirs.text, theirs.state) == ("The stranger's secret.", MemoryState.ACTIVE)


def test_one_item_the_server_cannot_store_fails_alone_and_leaves_nothing_half_restored(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    # A version kind longer than the column fails after the memory row is written; an unknown
    # state is refused before anything is. Their batch-mates are restored all the same.
    broken = _memory(BEES, "I keep bees.", versions=[{"text": "I kept bees.", "kind": "k" * 40}])
    unknown = _memory(PLUMS, "I like plums.", state="forgotten")
    run = _restore(owner_dash, tmp_path, _document(_memory(FIGS, "I like figs."), broken, unknown))
    assert (run.conversations_imported, run.conversations_failed) == (1, 2)
    assert run.errors == [
        {
            "id": BEES,
            "error": "This could not be imported (the server could not store it); nothing of "
            "it was stored.",
        },
        {"id": PLUMS, "error": "Unknown state 'forgotten'."},
    ]
    assert memory_texts(owner) == ["I like figs."]
    assert not MemoryVersion.objects.filter(owner=owner).exists()
    assert set(
        ImportedConversation.objects.filter(owner=owner).values_list("conversation_id", flat=True)
    ) == {FIGS}


@pytest.mark.parametrize(
    ("memory_id", "problem"),
    [
        ("", "memories[1]: 'id' must be a non-empty string."),
        ("x" * 256, "memories[1]: 'id' is longer than 255 characters."),
    ],
)
def test_a_memory_without_a_usable_id_refuses_the_file_at_the_check_and_imports_nothing(
    owner: User, owner_client: Client, memory_id: str, problem: str
) -> None:
    document = _document(_memory(FIGS, "I like figs."), _memory(memory_id, "I keep bees."))
    upload = SimpleUploadedFile("backup.json", json.dumps(document).encode())
    page = owner_client.post("/import/", {"file": upload, "extractor": "local"})
    assert problem in _visible_text(page.content.decode())
    assert not ImportRun.objects.filter(owner=owner).exists()
    assert not Memory.objects.filter(owner=owner).exists()
