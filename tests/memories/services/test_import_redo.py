"""Importing an archive again with another extractor: the check warns that it was imported
before and how many of its memories were deleted since, previews what a redo replaces, brings
back and leaves, and the redo replaces the earlier import in one run the owner can undo."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError
from django.test import Client

from accounts.actors import Actor
from accounts.models import ALL_SCOPES, User
from activity.models import AccessEvent
from memories.ingest.detect import load_export
from memories.ingest.types import ParsedExport
from memories.models import Memory, MemoryState, TrashBatch
from memories.services import import_plans, imports
from memories.services.adding import memory_create
from memories.services.changing import memory_update
from memories.services.deleting import memory_delete
from memories.services.import_redo import REDO_BUSY
from memories.services.imports import import_execute, import_run_create
from memories.services.remember import RememberResult
from memories.services.trash import trash_restore
from memories.transfer_models import ImportRun
from tests.memories.exports import backfill, claude_export, claude_message, write_json
from tests.personas import issue_token, signed_in

pytestmark = pytest.mark.usefixtures("upload_dir", "immediate_tasks")

USER_MESSAGES = [
    "I am vegetarian and I live in Lisbon.",
    "My daughter is called Ada.",
    "Please review my CV.\n\n[cv.txt]\nRust engineer.",
    "This is my cat Miso.",
]


@pytest.fixture
def owner_api(owner: User) -> Client:
    """The owner's REST API, through their signed-in session."""
    return signed_in(owner)


def _check(api: Client, extractor: str) -> dict[str, Any]:
    """Upload the Claude archive through the API: the dry run (nothing imported yet)."""
    upload = SimpleUploadedFile("conversations.json", json.dumps(claude_export()).encode())
    created = api.post("/api/v1/imports", {"file": upload, "extractor": extractor})
    assert created.status_code == 201, created.content
    body: dict[str, Any] = created.json()
    return body


def _import(api: Client, extractor: str, capture: Any, *, redo: bool = False) -> dict[str, Any]:
    run = _check(api, extractor)
    with capture(execute=True):
        started = api.post(f"/api/v1/imports/{run['id']}/{'redo' if redo else 'start'}")
    assert started.status_code == 202, started.content
    done: dict[str, Any] = api.get(f"/api/v1/imports/{run['id']}").json()
    assert done["status"] == "done", done
    return done


def _imported(owner: User) -> list[Memory]:
    """The owner's memories from the Claude import, outside the trash."""
    return list(
        Memory.objects.filter(owner=owner, origin_app_name="Claude import")
        .exclude(state=MemoryState.TRASHED)
        .order_by("text")
    )


def _local_then_edit_and_delete(
    owner: User, owner_api: Client, owner_dash: Actor, capture: Any
) -> tuple[Memory, Memory]:
    """The measured item's start: imported with local; the owner edits one memory, deletes one."""
    _import(owner_api, "local", capture)
    kept = _imported(owner)
    assert len(kept) >= 3, [m.text for m in kept]
    ada = next(m for m in kept if "Ada" in m.text)
    memory_delete(actor=owner_dash, memory_id=ada.id)
    edited = next(m for m in kept if "Ada" not in m.text)
    memory_update(actor=owner_dash, memory_id=edited.id, text=f"{edited.text} (edited by me)")
    edited.refresh_from_db()
    return edited, ada


def test_importing_again_with_none_makes_one_memory_per_message_keeping_edits_and_deleted_back(
    owner: User,
    owner_api: Client,
    owner_dash: Actor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    capture = django_capture_on_commit_callbacks
    edited, ada = _local_then_edit_and_delete(owner, owner_api, owner_dash, capture)
    earlier = {m.id for m in _imported(owner)} - {edited.id}

    plain = _import(owner_api, "none", capture)  # what the owner met before: nothing new
    assert plain["memories_created"] == 0 and plain["conversations_skipped"] == 2

    redo = _import(owner_api, "none", capture, redo=True)
    assert redo["redo"] is True and redo["memories_created"] == 4
    assert redo["memories_replaced"] == len(earlier)
    texts = [m.text for m in _imported(owner)]
    assert sorted(texts) == sorted([*USER_MESSAGES, edited.text])  # one per message + the edit
    assert "My daughter is called Ada." in texts  # the deleted one is back, read again
    ada.refresh_from_db()
    assert ada.state == MemoryState.TRASHED  # its old row stays in the trash as deleted
    # The replaced memories are in the trash, as one delete by the import, restorable.
    trashed = Memory.objects.filter(owner=owner, pk__in=earlier)
    assert {m.state for m in trashed} == {MemoryState.TRASHED}
    run = ImportRun.objects.get(pk=redo["id"])
    assert run.trash_batch_id is not None
    assert {m.trash_batch_id for m in trashed} == {run.trash_batch_id}
    batch = TrashBatch.objects.get(pk=run.trash_batch_id)
    assert batch.app_name == "Claude import" and batch.seen_at is not None
    deletes = AccessEvent.objects.filter(owner=owner, action="delete", detail__redo=str(run.pk))
    assert {mid for e in deletes for mid in e.memory_ids} == earlier
    # The owner can undo the redo's deletes; one whose text the redo wrote again stays in the
    # trash with the reason (one active memory per text), as any restore does.
    restored = trash_restore(actor=owner_dash, batch_id=batch.pk)
    refused = {r.memory.id for r in restored.refused}
    assert set(restored.restored) | refused == earlier and restored.restored
    assert {r.memory.text for r in restored.refused} <= set(texts)


def test_the_check_warns_of_the_earlier_import_and_previews_what_a_redo_does(
    owner: User,
    owner_api: Client,
    owner_dash: Actor,
    owner_client: Client,
    django_capture_on_commit_callbacks: Any,
) -> None:
    capture = django_capture_on_commit_callbacks
    _local_then_edit_and_delete(owner, owner_api, owner_dash, capture)
    untouched = len(_imported(owner)) - 1
    first = ImportRun.objects.get(owner=owner)

    check = _check(owner_api, "none")
    previous = check["estimate"]["previous"]
    assert previous["extractor"] == "local" and previous["conversations"] == 2
    assert (previous["replaced"], previous["deleted"], previous["stays"]) == (untouched, 1, 1)
    assert not ImportRun.objects.filter(pk=check["id"], status="running").exists()

    page = owner_client.get(f"/import/{check['id']}/").content.decode()
    day = first.finished_at.strftime("%-d %b %Y") if first.finished_at else ""
    assert "You imported this archive on <time" in page and day in page
    assert "1 of its memories were deleted since." in page
    assert f"Replaced: <strong>{untouched}</strong> — memories from that import" in page
    assert "Back: <strong>1</strong>" in page and "Stay: <strong>1</strong>" in page
    assert "Import again with none, replacing the earlier import" in page


def test_an_archive_never_imported_has_no_warning_and_cannot_be_redone(
    owner_api: Client, owner_client: Client
) -> None:
    check = _check(owner_api, "none")
    assert "previous" not in check["estimate"]
    assert "You imported this archive" not in owner_client.get(f"/import/{check['id']}/").text
    refused = owner_api.post(f"/api/v1/imports/{check['id']}/redo")
    assert refused.status_code == 400 and "not imported before" in refused.text
    assert ImportRun.objects.get(pk=check["id"]).status == "pending"


def test_a_redo_counts_the_memories_still_in_the_trash_as_coming_back_not_replaced(
    owner: User,
    owner_api: Client,
    owner_dash: Actor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    capture = django_capture_on_commit_callbacks
    _import(owner_api, "none", capture)
    ada = Memory.objects.get(owner=owner, text="My daughter is called Ada.")
    memory_delete(actor=owner_dash, memory_id=ada.id)  # in the trash, not purged

    previous = _check(owner_api, "none")["estimate"]["previous"]
    assert (previous["replaced"], previous["deleted"], previous["stays"]) == (3, 1, 0)
    redo = _import(owner_api, "none", capture, redo=True)
    assert (redo["memories_replaced"], redo["memories_created"]) == (3, 4)
    ada.refresh_from_db()
    assert ada.state == MemoryState.TRASHED  # the trashed row stays as the owner left it
    assert sorted(m.text for m in _imported(owner)) == sorted(USER_MESSAGES)
    again = _check(owner_api, "local")["estimate"]["previous"]
    assert (again["extractor"], again["deleted"]) == ("none", 0)  # nothing deleted since the redo


def test_another_user_cannot_see_or_redo_your_import(
    owner_api: Client,
    stranger: User,
    owner: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    capture = django_capture_on_commit_callbacks
    _import(owner_api, "none", capture)
    check = _check(owner_api, "local")
    other = signed_in(stranger)
    assert other.post(f"/api/v1/imports/{check['id']}/redo").status_code == 404
    assert other.post(f"/import/{check['id']}/redo/").status_code == 404
    assert other.get(f"/api/v1/imports/{check['id']}").status_code == 404
    assert ImportRun.objects.get(pk=check["id"]).status == "pending"
    # The stranger's own upload of the same archive knows nothing of the owner's import.
    theirs = _check(other, "none")
    assert "previous" not in theirs["estimate"]
    assert len(_imported(owner)) == 4


def test_the_dashboard_redo_button_replaces_the_import(
    owner: User,
    owner_client: Client,
    django_capture_on_commit_callbacks: Any,
) -> None:
    upload = SimpleUploadedFile("conversations.json", json.dumps(claude_export()).encode())
    first = owner_client.post("/import/", {"file": upload, "extractor": "local"})
    with django_capture_on_commit_callbacks(execute=True):
        owner_client.post(f"{first['Location']}start/")
    done = owner_client.get(first["Location"]).content.decode()
    assert "Import again with another extractor" in done
    upload = SimpleUploadedFile("conversations.json", json.dumps(claude_export()).encode())
    check = owner_client.post("/import/", {"file": upload, "extractor": "none"})
    with django_capture_on_commit_callbacks(execute=True):
        redone = owner_client.post(f"{check['Location']}redo/")
    assert redone.status_code == 302
    page = owner_client.get(check["Location"]).content.decode()
    assert "It replaced the earlier import of this archive" in page
    assert "· imported again (none) ·" in owner_client.get("/import/").content.decode()
    assert sorted(m.text for m in _imported(owner)) == sorted(USER_MESSAGES)


class _Killed(BaseException):
    """The worker dying mid-run (SIGKILL, a redeploy): no `except Exception` sees it."""


def _two_conversations(tmp_path: Path) -> ParsedExport:
    export = claude_export()
    export[1]["chat_messages"] = [claude_message("m-20", "human", "I run every morning.")]
    return load_export(write_json(tmp_path / "conversations.json", export))


def test_a_redo_killed_mid_run_leaves_each_conversation_old_or_new_and_resumes(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    export = _two_conversations(tmp_path)
    import_execute(actor=owner_dash, export=export, extractor="local")
    before = {m.id: m.provenance["conversation_id"] for m in _imported(owner)}
    assert set(before.values()) == {"c-1", "c-2"}
    run = import_run_create(actor=owner_dash, source="claude", extractor="none", redo=True)

    def die_after_the_first(done: int, total: int) -> None:
        if done == 1:
            raise _Killed

    with pytest.raises(_Killed):
        import_execute(
            actor=owner_dash, export=export, extractor="none", run=run, progress=die_after_the_first
        )
    # The first conversation is wholly redone, the second wholly as the earlier import left it.
    now = {m.provenance["conversation_id"]: m for m in _imported(owner)}
    old_c2 = {mid for mid, conv in before.items() if conv == "c-2"}
    assert {m.id for m in _imported(owner) if m.provenance["conversation_id"] == "c-2"} == old_c2
    assert now["c-1"].provenance.get("extractor") is None  # written by `none`
    run.refresh_from_db()
    assert run.status == "running" and run.trash_batch_id is not None

    resumed = import_execute(actor=owner_dash, export=export, extractor="none", run=run)
    assert resumed.conversations_skipped == 1  # the first, already redone by this run
    assert sorted(m.text for m in _imported(owner)) == sorted(
        [*USER_MESSAGES, "I run every morning."]
    )
    trashed = Memory.objects.filter(owner=owner, pk__in=list(before))
    assert {m.trash_batch_id for m in trashed} == {run.trash_batch_id}  # still one delete


def test_a_conversation_that_fails_in_a_redo_keeps_its_earlier_memories(
    owner: User, owner_dash: Actor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export = _two_conversations(tmp_path)
    import_execute(actor=owner_dash, export=export, extractor="none")
    run = import_run_create(actor=owner_dash, source="claude", extractor="none", redo=True)
    real = import_plans.memory_create_many

    def refuse_the_second(*, actor: Actor, items: Any, **kw: Any) -> Any:
        if any(i.provenance["conversation_id"] == "c-2" for i in items):
            raise RuntimeError("disk full")
        return real(actor=actor, items=items, **kw)

    monkeypatch.setattr(import_plans, "memory_create_many", refuse_the_second)
    done = import_execute(actor=owner_dash, export=export, extractor="none", run=run)
    assert (done.conversations_imported, done.conversations_failed) == (1, 1)
    assert done.memories_replaced == 4  # c-1's four; c-2's was put back with its failure
    run_c2 = Memory.objects.get(owner=owner, text="I run every morning.", state="active")
    assert run_c2.trash_batch_id is None


def test_backfill_warns_of_the_earlier_import_and_redoes_it_only_when_asked(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    path = write_json(tmp_path / "conversations.json", claude_export())
    with pytest.raises(CommandError, match="not imported before"):
        backfill(path, owner, "--yes", "--redo", "--extractor", "none")
    backfill(path, owner, "--yes", "--extractor", "local")
    local = _imported(owner)
    memory_delete(actor=owner_dash, memory_id=local[0].id)
    dry = backfill(path, owner, "--extractor", "none")
    assert "You imported this archive on" in dry and "1 of its memories were deleted since" in dry
    assert f"{len(local) - 1} replaced (to the trash), 1 back, 0 changed since stay" in dry
    summary = backfill(path, owner, "--yes", "--redo", "--extractor", "none")
    assert f"{len(local) - 1} of its memories went to the trash" in summary
    assert sorted(m.text for m in _imported(owner)) == sorted(USER_MESSAGES)


def test_importing_again_with_an_llm_sends_every_message_again_and_replaces_the_earlier(
    owner: User,
    owner_dash: Actor,
    tmp_path: Path,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The extraction engine is stood in for, as in test_ingest_import.py (an LLM import through
    the real `memory_remember` fails on main: the write-only import door may not read)."""
    settings.EXTRACTION_MODE = "anthropic"
    sent: list[str] = []

    def remember(*, actor: Actor, text: str, provenance: dict[str, Any]) -> RememberResult:
        sent.append(text)
        fact = memory_create(
            actor=actor, text=f"fact from {provenance['conversation_id']}", provenance=provenance
        )
        return RememberResult(results=[fact], extraction="fake")

    monkeypatch.setattr(imports, "memory_remember", remember)
    export = _two_conversations(tmp_path)
    import_execute(actor=owner_dash, export=export, extractor="none")
    run = import_run_create(actor=owner_dash, source="claude", extractor="llm", redo=True)
    done = import_execute(actor=owner_dash, export=export, extractor="llm", run=run)
    assert (done.memories_replaced, done.memories_created, done.errors) == (5, 2, [])
    assert sent[0].startswith("user: I am vegetarian") and sent[1] == "user: I run every morning."
    assert [m.text for m in _imported(owner)] == ["fact from c-1", "fact from c-2"]


def test_an_app_cannot_redo_an_import_and_the_dashboard_redo_needs_csrf(
    owner: User, owner_api: Client, django_capture_on_commit_callbacks: Any
) -> None:
    _import(owner_api, "none", django_capture_on_commit_callbacks)
    check = _check(owner_api, "local")
    token = issue_token(owner, name="Cursor", scopes=list(ALL_SCOPES)).secret
    app = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    refused = app.post(f"/api/v1/imports/{check['id']}/redo")
    assert refused.status_code == 403, refused.content  # OwnerOnly, the same for every id
    forged = signed_in(owner, enforce_csrf=True).post(f"/import/{check['id']}/redo/")
    assert forged.status_code == 403
    assert ImportRun.objects.get(pk=check["id"]).status == "pending"


def test_a_memory_the_owner_edits_while_the_redo_runs_stays(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    export = _two_conversations(tmp_path)
    import_execute(actor=owner_dash, export=export, extractor="local")
    morning = Memory.objects.get(owner=owner, provenance__conversation_id="c-2")
    run = import_run_create(actor=owner_dash, source="claude", extractor="none", redo=True)

    def edit_after_the_first(done: int, total: int) -> None:
        if done == 1:
            memory_update(actor=owner_dash, memory_id=morning.id, text="I run every evening.")

    done = import_execute(
        actor=owner_dash, export=export, extractor="none", run=run, progress=edit_after_the_first
    )
    morning.refresh_from_db()
    assert morning.state == MemoryState.ACTIVE and morning.text == "I run every evening."
    assert done.conversations_imported == 2
    assert "I run every morning." in [m.text for m in _imported(owner)]


def test_importing_again_with_the_same_extractor_brings_back_what_was_deleted(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    export = _two_conversations(tmp_path)
    import_execute(actor=owner_dash, export=export, extractor="local")
    first = sorted(m.text for m in _imported(owner))
    gone = _imported(owner)[0]
    memory_delete(actor=owner_dash, memory_id=gone.id)
    run = import_run_create(actor=owner_dash, source="claude", extractor="local", redo=True)
    done = import_execute(actor=owner_dash, export=export, extractor="local", run=run)
    # Not counted as repeats of the memories it replaces: every fact is written anew.
    assert sorted(m.text for m in _imported(owner)) == first
    assert done.memories_replaced == len(first) - 1 and done.memories_created == len(first)


def test_a_second_redo_waits_until_the_first_has_finished_or_its_worker_is_gone(
    owner: User,
    owner_api: Client,
    owner_client: Client,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
    tmp_path: Path,
) -> None:
    _import(owner_api, "local", django_capture_on_commit_callbacks)
    first, second = _check(owner_api, "none"), _check(owner_api, "none")
    # The first redo is claimed; its worker has not got to it yet (no on-commit callbacks run).
    assert owner_api.post(f"/api/v1/imports/{first['id']}/redo").status_code == 202
    refused = owner_api.post(f"/api/v1/imports/{second['id']}/redo")
    assert refused.status_code == 409 and refused.json()["error"]["message"] == REDO_BUSY
    clicked = owner_client.post(f"/import/{second['id']}/redo/", follow=True)
    assert REDO_BUSY in clicked.content.decode()  # said on the run's own page
    assert ImportRun.objects.get(pk=second["id"]).status == ImportRun.Status.PENDING
    archive = write_json(tmp_path / "conversations.json", claude_export())
    with pytest.raises(CommandError, match="already being done again"):
        backfill(archive, owner, "--redo", "--yes")
    # Its worker gone (no sign of progress for IMPORT_STALE_SECONDS), it holds no one back.
    settings.IMPORT_STALE_SECONDS = 0
    assert owner_api.post(f"/api/v1/imports/{second['id']}/redo").status_code == 202
    assert ImportRun.objects.get(pk=second["id"]).redo is True
