"""The dashboard's Import, Export and Erase pages: owner only, CSRF, GET changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django_tasks_db.models import DBTaskResult

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory
from memories.services.adding import memory_create
from memories.transfer_models import ErasureReceipt, ImportRun
from tests.memories.exports import claude_export, zip_bytes
from tests.personas import reauthenticate, signed_in

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def _own_upload_dir(settings: Any, tmp_path: Path) -> None:
    settings.IMPORT_UPLOAD_DIR = tmp_path / "uploads"


def _upload(client: Client, content: bytes, name: str = "conversations.json") -> Any:
    file = SimpleUploadedFile(name, content)
    return client.post("/import/", {"file": file, "source": "auto", "extractor": "none"})


def _uploads(settings: Any) -> list[Path]:
    folder = Path(settings.IMPORT_UPLOAD_DIR)
    return list(folder.iterdir()) if folder.exists() else []


def test_pages_need_a_signed_in_user(db: None) -> None:
    for url in ("/import/", "/export/", "/erase/"):
        assert Client().get(url).status_code == 302


def test_upload_shows_the_estimate_then_start_imports_in_the_background(
    owner: User, owner_client: Client, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    response = _upload(owner_client, json.dumps(claude_export()).encode())
    assert response.status_code == 302
    run = ImportRun.objects.get(owner=owner)
    assert run.status == "pending" and run.estimate["user_messages"] == 4
    assert not Memory.objects.exists()  # the estimate imports nothing
    page = owner_client.get(response["Location"])
    assert b"2 conversations, 5 messages" in page.content and b"Start the import" in page.content

    settings.TASKS = IMMEDIATE
    with django_capture_on_commit_callbacks(execute=True):
        owner_client.post(f"/import/{run.pk}/start/")
    run.refresh_from_db()
    assert run.status == "done" and run.memories_created == 4
    assert Memory.objects.filter(owner=owner).count() == 4
    assert _uploads(settings) == []  # the upload is removed once imported
    done = owner_client.get(f"/import/{run.pk}/", HTTP_HX_REQUEST="true")
    assert b"4 new memories" in done.content and b"<h1>" not in done.content


def test_start_enqueues_a_database_task_once(
    owner: User, owner_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    zipped = zip_bytes({"conversations.json": json.dumps(claude_export()).encode()})
    _upload(owner_client, zipped, "export.zip")
    run = ImportRun.objects.get(owner=owner)
    with django_capture_on_commit_callbacks(execute=True):
        owner_client.post(f"/import/{run.pk}/start/")
        owner_client.post(f"/import/{run.pk}/start/")
    assert DBTaskResult.objects.count() == 1
    run.refresh_from_db()
    assert run.status == "running" and run.conversations_total == 2
    assert b"waiting for the background worker" in owner_client.get(f"/import/{run.pk}/").content


def test_a_hostile_upload_is_refused_and_nothing_is_kept(
    owner_client: Client, settings: Any
) -> None:
    response = _upload(owner_client, zip_bytes({"../evil.json": b"[]"}), "export.zip")
    assert response.status_code == 400
    assert b"names a path outside itself" in response.content
    assert not ImportRun.objects.exists() and _uploads(settings) == []


def test_an_upload_over_the_limit_is_refused(owner_client: Client, settings: Any) -> None:
    settings.IMPORT_MAX_UPLOAD_BYTES = 1000
    response = _upload(owner_client, b"[" + b" " * 200_000 + b"]")
    assert response.status_code == 413
    assert not ImportRun.objects.exists() and _uploads(settings) == []


def test_another_users_import_is_not_found(
    owner_client: Client, stranger: User, settings: Any
) -> None:
    other = signed_in(stranger)
    _upload(other, json.dumps(claude_export()).encode())
    run = ImportRun.objects.get(owner=stranger)
    assert owner_client.get(f"/import/{run.pk}/").status_code == 404
    assert owner_client.post(f"/import/{run.pk}/start/").status_code == 404
    run.refresh_from_db()
    assert run.status == "pending"


def test_posts_without_a_csrf_token_are_refused(owner: User) -> None:
    client = signed_in(owner, enforce_csrf=True)
    assert client.post("/export/", {"format": "json"}).status_code == 403
    assert client.post("/erase/", {"confirm": "erase my memory"}).status_code == 403
    upload = SimpleUploadedFile("conversations.json", json.dumps(claude_export()).encode())
    assert client.post("/import/", {"file": upload}).status_code == 403
    assert not ImportRun.objects.exists()


def test_export_downloads_json_or_markdown_and_get_records_nothing(
    owner: User, owner_dash: Actor, owner_client: Client
) -> None:
    memory_create(actor=owner_dash, text="I like figs.", categories=["food"])
    owner_client.get("/export/")
    assert not AccessEvent.objects.filter(action="export").exists()
    response = owner_client.post("/export/", {"format": "json"})
    assert "attachment" in response["Content-Disposition"]
    assert [m["text"] for m in json.loads(response.content)["memories"]] == ["I like figs."]
    markdown = owner_client.post("/export/", {"format": "markdown"}).content.decode()
    assert "## Food" in markdown and "I like figs." in markdown


def test_erase_needs_the_typed_phrase_and_shows_the_receipt(
    owner: User, owner_dash: Actor, owner_client: Client
) -> None:
    memory_create(actor=owner_dash, text="I like figs.")
    assert owner_client.get("/erase/").status_code == 200
    reauthenticate(owner_client)
    refused = owner_client.post("/erase/", {"confirm": "yes"})
    assert refused.status_code == 400 and Memory.objects.exists()
    done = owner_client.post("/erase/", {"confirm": "Erase my memory"})
    receipt = ErasureReceipt.objects.get()
    assert str(receipt.pk).encode() in done.content
    assert not Memory.objects.exists() and User.objects.filter(pk=owner.pk).exists()
    # The receipt holds no personal data (the signed-in header outside <main> names the user).
    main = done.content.split(b"<main", 1)[1].split(b"</main>", 1)[0]
    assert owner.email.encode() not in main
    # Readable: counts in words, not model labels.
    assert b"<td>Memories</td><td>1</td>" in main and b"<td>memories.memory" not in main


def test_an_erasure_receipt_is_found_again_by_its_owner_only(
    owner: User, owner_dash: Actor, owner_client: Client, stranger: User
) -> None:
    memory_create(actor=owner_dash, text="I like figs.")
    reauthenticate(owner_client)
    owner_client.post("/erase/", {"confirm": "erase my memory"})
    receipt = ErasureReceipt.objects.get()
    listed = owner_client.get("/erase/").content.decode()
    assert f"/erase/receipts/{receipt.pk}/" in listed
    again = owner_client.get(f"/erase/receipts/{receipt.pk}/")
    assert again.status_code == 200 and receipt.digest in again.content.decode()
    other = signed_in(stranger)
    assert f"/erase/receipts/{receipt.pk}/" not in other.get("/erase/").content.decode()
    assert other.get(f"/erase/receipts/{receipt.pk}/").status_code == 404
