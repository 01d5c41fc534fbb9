"""Uploads cannot fill the disk (issue 14, item 6): a caller that may not import is refused
before a byte of its upload is read; an upload that does not become an import run is deleted;
uploads left behind are cleaned up; errors name the user's file, not the server's copy."""

from __future__ import annotations

import json
import os
import socket
import time
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.actors import owner_actor
from accounts.models import ConnectedApp, User
from memories.services.import_runs import import_prepare
from memories.transfer_models import ImportRun
from tests.memories.exports import claude_export
from tests.personas import issue_token, signed_in

EXPORT = json.dumps(claude_export()).encode()


@pytest.fixture
def uploads(settings: Any, tmp_path: Path) -> Path:
    settings.IMPORT_UPLOAD_DIR = tmp_path / "uploads"
    return Path(settings.IMPORT_UPLOAD_DIR)


def _kept(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


def _token(owner: User, scopes: list[str], *, paused: bool = False) -> str:
    issued = issue_token(
        owner,
        name=f"app {scopes} {paused}",
        scopes=scopes,
    )
    if paused:
        ConnectedApp.objects.filter(owner=owner, name=f"app {scopes} {paused}").update(paused=True)
    return issued.secret


def _start_upload(base: str, headers: dict[str, str], declared: int) -> socket.socket:
    """Begin a multipart upload of `declared` bytes over a raw socket and send only its first
    64 KiB: a server that reads the body before it decides waits for the rest forever."""
    url = urlsplit(base)
    sock = socket.create_connection((url.hostname, url.port))
    sock.settimeout(60)  # a net for a server that waits for the body: far more than an answer
    lines = [
        "POST /api/v1/imports HTTP/1.1",
        f"Host: {url.hostname}:{url.port}",
        "Content-Type: multipart/form-data; boundary=b0undary",
        f"Content-Length: {declared}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode()
    part = (
        b'--b0undary\r\nContent-Disposition: form-data; name="file"; filename="c.json"\r\n'
        b"Content-Type: application/json\r\n\r\n"
    )
    sock.sendall(head + part + b"[" + b" " * (64 * 1024))
    return sock


def _status(sock: socket.socket) -> tuple[int, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("kind", "expected"),
    [("read-only", 403), ("paused", 403), ("write app", 403), ("no credential", 401)],
)
def test_a_caller_that_may_not_import_is_refused_before_its_upload_is_read(
    server_url: str, owner: User, uploads: Path, kind: str, expected: int
) -> None:
    headers = {
        "read-only": lambda: {"Authorization": f"Bearer {_token(owner, ['memories:read'])}"},
        "paused": lambda: {
            "Authorization": f"Bearer {_token(owner, ['memories:write'], paused=True)}"
        },
        "write app": lambda: {"Authorization": f"Bearer {_token(owner, ['memories:write'])}"},
        "no credential": lambda: {},
    }[kind]()
    sock = _start_upload(server_url, headers, declared=100 * 1024 * 1024)
    try:
        status, response = _status(sock)  # answered while 99.9 MB are still unsent
    finally:
        sock.close()
    assert status == expected, response[:300]
    assert _kept(uploads) == [] and not ImportRun.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("scopes", [["memories:read"], ["memories:read", "memories:write"]])
def test_an_upload_refused_by_the_view_leaves_no_file(
    owner: User, uploads: Path, scopes: list[str]
) -> None:
    app = Client(headers={"Authorization": f"Bearer {_token(owner, scopes)}"})
    for _ in range(3):
        response = app.post(
            "/api/v1/imports", {"file": SimpleUploadedFile("conversations.json", EXPORT)}
        )
        assert response.status_code in (403, 404)
    assert _kept(uploads) == [] and not ImportRun.objects.exists()


@pytest.mark.django_db
def test_an_upload_that_fails_for_any_reason_is_deleted(
    owner: User, uploads: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memories.services import import_runs

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("the estimate crashed")

    monkeypatch.setattr(import_runs, "import_estimate", broken)
    browser = Client(raise_request_exception=False)
    browser.force_login(owner)
    response = browser.post("/import/", {"file": SimpleUploadedFile("conversations.json", EXPORT)})
    assert response.status_code == 500
    assert _kept(uploads) == [] and not ImportRun.objects.exists()


@pytest.mark.django_db
def test_errors_name_the_users_file_not_the_servers_copy(owner: User, uploads: Path) -> None:
    browser = signed_in(owner)
    bad = SimpleUploadedFile("my-claude-export.json", b'{"broken": ')
    response = browser.post("/api/v1/imports", {"file": bad})
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert "my-claude-export.json" in message and ".upload" not in message
    page = browser.post("/import/", {"file": SimpleUploadedFile("my-claude-export.json", b"[1")})
    assert b"my-claude-export.json" in page.content and b".upload" not in page.content
    assert _kept(uploads) == []


@pytest.mark.django_db
def test_the_worker_names_the_users_file_when_the_upload_turns_out_bad(
    owner: User, uploads: Path, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    browser = signed_in(owner)
    browser.post("/import/", {"file": SimpleUploadedFile("claude.json", EXPORT)})
    run = ImportRun.objects.get(owner=owner)
    Path(run.upload_path).write_bytes(b"[1")  # the kept file changed under the run
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    with django_capture_on_commit_callbacks(execute=True):
        browser.post(f"/import/{run.pk}/start/")
    run.refresh_from_db()
    assert run.status == "failed"
    assert "claude.json" in run.errors[-1]["error"] and ".upload" not in run.errors[-1]["error"]
    assert _kept(uploads) == []


def _age(path: Path, hours: float) -> None:
    then = time.time() - hours * 3600
    os.utime(path, (then, then))


@pytest.mark.django_db
def test_the_clean_up_removes_uploads_no_run_will_use(
    owner: User, uploads: Path, tmp_path: Path, settings: Any
) -> None:
    actor = owner_actor(owner, ConnectedApp.DASHBOARD)

    def prepared(name: str) -> ImportRun:
        source = tmp_path / name
        source.write_bytes(EXPORT)
        uploads.mkdir(parents=True, exist_ok=True)
        kept = uploads / f"{name}.upload"
        kept.write_bytes(EXPORT)
        return import_prepare(actor=actor, path=kept, filename=name, extractor="none")

    forgotten = prepared("forgotten.json")  # never started
    ImportRun.objects.filter(pk=forgotten.pk).update(
        created_at=timezone.now() - timedelta(hours=settings.IMPORT_UPLOAD_KEEP_HOURS + 1)
    )
    fresh = prepared("fresh.json")  # waiting for its Start click
    orphan = uploads / "orphan.upload"  # a crash between keeping and the run
    orphan.write_bytes(EXPORT)
    _age(orphan, 2)
    in_flight = uploads / "in-flight.upload"  # a request keeping it right now
    in_flight.write_bytes(EXPORT)

    call_command("cleanup")

    assert sorted(p.name for p in _kept(uploads)) == ["fresh.json.upload", "in-flight.upload"]
    forgotten.refresh_from_db()
    assert forgotten.status == "failed" and forgotten.upload_path == ""
    assert "upload it again" in forgotten.errors[-1]["error"]
    fresh.refresh_from_db()
    assert fresh.status == "pending" and Path(fresh.upload_path).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(300)
def test_the_signed_in_owner_still_uploads_through_the_same_entry_point(
    server_url: str, owner: User, uploads: Path
) -> None:
    from tests.accounts.oauth_client import hidden, sign_in

    with httpx.Client(base_url=server_url) as browser:
        assert sign_in(browser, owner.email).status_code == 302
        page = browser.get("/import/")
        response = browser.post(
            "/import/",
            data={"csrfmiddlewaretoken": hidden(page.text, "csrfmiddlewaretoken")},
            files={"file": ("conversations.json", EXPORT, "application/json")},
        )
        assert response.status_code == 302, response.text[:500]
        api = browser.post(
            "/api/v1/imports",
            headers={"X-CSRFToken": browser.cookies["csrftoken"]},
            files={"file": ("conversations.json", EXPORT, "application/json")},
        )
        assert api.status_code == 201, api.text[:500]
    assert ImportRun.objects.filter(owner=owner).count() == 2
    assert len(_kept(uploads)) == 2
