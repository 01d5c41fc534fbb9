"""Import, export and erase over the REST API: the same services as the commands and dashboard."""

from __future__ import annotations

import json
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory
from memories.services.adding import memory_create
from memories.transfer_models import ErasureReceipt, ImportRun
from tests.api.tokens import TokenFactory
from tests.memories.exports import claude_export
from tests.personas import reauthenticate, signed_in

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


def _upload(client: Client, content: bytes) -> Any:
    file = SimpleUploadedFile("conversations.json", content, content_type="application/json")
    return client.post("/api/v1/imports", {"file": file, "source": "auto", "extractor": "none"})


def test_an_import_is_estimated_then_started_and_polled(
    owner: User, owner_api: Client, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    created = _upload(owner_api, json.dumps(claude_export()).encode())
    assert created.status_code == 201, created.content
    run = created.json()
    assert run["status"] == "pending" and run["estimate"]["user_messages"] == 4
    assert not Memory.objects.exists()  # the estimate imports nothing
    settings.TASKS = IMMEDIATE
    with django_capture_on_commit_callbacks(execute=True):
        started = owner_api.post(f"/api/v1/imports/{run['id']}/start")
    assert started.status_code == 202
    polled = owner_api.get(f"/api/v1/imports/{run['id']}").json()
    assert polled["status"] == "done" and polled["memories_created"] == 4
    assert Memory.objects.filter(owner=owner).count() == 4


def test_a_file_that_is_no_export_is_a_400_and_nothing_is_kept(owner_api: Client) -> None:
    response = _upload(owner_api, b"{not json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert not ImportRun.objects.exists()


def test_another_users_import_is_a_404(
    owner_api: Client, stranger: User, make_token: TokenFactory
) -> None:
    run = _upload(owner_api, json.dumps(claude_export()).encode()).json()
    stranger_api = signed_in(stranger)
    assert stranger_api.get(f"/api/v1/imports/{run['id']}").status_code == 404
    assert stranger_api.post(f"/api/v1/imports/{run['id']}/start").status_code == 404
    assert stranger_api.get("/api/v1/imports").json() == []


def test_export_returns_the_owners_memories_only(
    owner: User, stranger: User, owner_api: Client
) -> None:
    memory_create(actor=owner_actor(owner), text="Owner likes figs")
    memory_create(actor=owner_actor(stranger), text="Stranger likes plums")
    document = owner_api.post("/api/v1/export").json()
    assert [m["text"] for m in document["memories"]] == ["Owner likes figs"]
    markdown = owner_api.post("/api/v1/export/markdown")
    assert markdown["Content-Type"].startswith("text/markdown")
    assert "Owner likes figs" in markdown.content.decode()
    assert "plums" not in markdown.content.decode()


def test_a_connected_app_token_cannot_export_or_erase(
    owner: User, make_token: TokenFactory
) -> None:
    memory_create(actor=owner_actor(owner), text="Owner likes figs")
    app = Client(headers={"Authorization": f"Bearer {make_token(owner)}"})
    assert app.post("/api/v1/export").status_code in (403, 404)
    erase = app.post(
        "/api/v1/erase", {"confirm": "erase my memory"}, content_type="application/json"
    )
    assert erase.status_code in (403, 404)
    assert Memory.objects.filter(owner=owner).count() == 1


def test_erase_needs_the_phrase_then_returns_a_receipt(owner: User) -> None:
    memory_create(actor=owner_actor(owner), text="Owner likes figs")
    # Erase is for the owner's browser session, re-authenticated (tests/accounts/
    # test_reauthentication.py shows the refusal without it).
    owner_api = signed_in(owner)
    reauthenticate(owner_api)
    refused = owner_api.post("/api/v1/erase", {"confirm": "yes"}, content_type="application/json")
    assert refused.status_code == 400 and Memory.objects.exists()
    done = owner_api.post(
        "/api/v1/erase", {"confirm": "erase my memory"}, content_type="application/json"
    )
    assert done.status_code == 200
    receipt = done.json()
    assert receipt["counts"]["memories.memory"] == 1
    assert owner.email not in json.dumps(receipt)
    assert ErasureReceipt.objects.filter(pk=receipt["id"]).exists()
    assert not Memory.objects.filter(owner=owner).exists()


def test_a_wrong_phrase_is_refused_before_the_password_is_asked_for(owner: User) -> None:
    """Issue 39: the password was asked first, and the phrase checked only after it."""
    memory_create(actor=owner_actor(owner), text="Owner likes figs")
    owner_api = signed_in(owner)  # not re-authenticated
    wrong = owner_api.post("/api/v1/erase", {"confirm": "erase"}, content_type="application/json")
    assert wrong.status_code == 400 and wrong.json()["error"]["field"] == "confirm"
    right = owner_api.post(
        "/api/v1/erase", {"confirm": "erase my memory"}, content_type="application/json"
    )
    assert right.status_code == 403  # now the password
    assert Memory.objects.filter(owner=owner).exists()
