"""A real `manage.py backfill` process, or the background worker running a dashboard import,
killed with SIGKILL mid-run loses nothing it committed, and a re-run (or a resume) completes with
no duplicates and no losses."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection
from django.db.models import Count
from django.urls import reverse
from django.utils.module_loading import import_string

from accounts.actors import owner_actor
from accounts.models import ConnectedApp, User
from bench.backfill import make_claude_export
from memories.models import Memory
from memories.services.import_runs import import_prepare, import_run_start, run_import
from memories.transfer_models import ImportedConversation, ImportRun
from tests.personas import signed_in

ROOT = Path(__file__).resolve().parents[3]
CONVERSATIONS = 150
PER_CONVERSATION = 3


def _command(path: Path, email: str) -> list[str]:
    backfill = [sys.executable, "manage.py", "backfill", str(path), "--user", email]
    return [*backfill, "--yes", "--extractor", "none"]


def _env(home: Path) -> dict[str, str]:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{quote(db['HOST'], safe='')}/{db['NAME']}"
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "contextlayer.settings",
        "CONTEXT_LAYER_HOME": str(home),
        "LOG_LEVEL": "WARNING",
    }


def _kill_after_ten_conversations(process: subprocess.Popen[bytes], user: User) -> None:
    """SIGKILL the importing process once ten conversations are committed (mid-run)."""
    try:
        deadline = time.monotonic() + 600
        while ImportedConversation.objects.filter(owner=user).count() < 10:
            assert process.poll() is None, "the import ended before it could be killed"
            assert time.monotonic() < deadline, "the import made no progress"
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=60)


def _human_texts(export: list[dict[str, Any]]) -> set[str]:
    return {
        m["content"][0]["text"]
        for c in export
        for m in c["chat_messages"]
        if m["sender"] == "human"
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(900)
def test_backfill_killed_mid_run_then_rerun_has_no_duplicates_and_no_losses(
    tmp_path: Path,
) -> None:
    user = User.objects.create_user("killed@example.com")
    export = make_claude_export(CONVERSATIONS, PER_CONVERSATION)
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export))
    expected = _human_texts(export)
    env = _env(tmp_path / "home")

    process = subprocess.Popen(
        _command(path, user.email),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _kill_after_ten_conversations(process, user)
    assert process.returncode == -signal.SIGKILL

    # What was committed is whole: every manifest row has exactly its memories, no more.
    done = ImportedConversation.objects.filter(owner=user).count()
    assert 10 <= done < CONVERSATIONS
    assert Memory.objects.filter(owner=user).count() == done * PER_CONVERSATION
    assert ImportRun.objects.get(owner=user).status == "running"  # died without a summary

    rerun = subprocess.run(
        _command(path, user.email), cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert f"skipped {done} as already imported, failed 0" in rerun.stdout

    memories = Memory.objects.filter(owner=user)
    assert set(memories.values_list("text", flat=True)) == expected  # no losses
    assert memories.count() == len(expected)  # no duplicates
    assert not (
        memories.values("provenance__message_id").annotate(n=Count("id")).filter(n__gt=1).exists()
    )
    assert ImportedConversation.objects.filter(owner=user).count() == CONVERSATIONS


def _worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"]
    return subprocess.Popen(
        [*command, "--interval", "0.2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(900)
def test_a_dashboard_import_whose_worker_is_killed_is_shown_interrupted_and_resumes_whole(
    tmp_path: Path, settings: Any
) -> None:
    user = User.objects.create_user("worker-killed@example.com")
    export = make_claude_export(CONVERSATIONS, PER_CONVERSATION)
    upload = tmp_path / "upload.json"
    upload.write_text(json.dumps(export))
    expected = _human_texts(export)
    env = _env(tmp_path / "home")
    actor = owner_actor(user, ConnectedApp.DASHBOARD)
    run = import_prepare(
        actor=actor, path=upload, filename="conversations.json", source="claude", extractor="none"
    )
    browser = signed_in(user)

    worker = _worker(env)
    import_run_start(actor=actor, run_id=run.pk)
    _kill_after_ten_conversations(worker, user)
    done = ImportedConversation.objects.filter(owner=user).count()
    assert 10 <= done < CONVERSATIONS
    assert Memory.objects.filter(owner=user).count() == done * PER_CONVERSATION

    # Its heartbeat is fresh: a second start is refused (it might still be working).
    again = import_run_start(actor=actor, run_id=run.pk)
    assert again.status == "running" and not again.interrupted
    page = browser.get(reverse("memories:import_run", args=[run.pk]))
    assert b"Resume the import" not in page.content

    settings.IMPORT_STALE_SECONDS = 0  # ... until it has been silent for that long
    page = browser.get(reverse("memories:import_run", args=[run.pk]))
    assert b"Interrupted" in page.content and b"Resume the import" in page.content

    worker = _worker(env)
    try:
        resumed = browser.post(reverse("memories:import_start", args=[run.pk]))
        assert resumed.status_code == 302
        deadline = time.monotonic() + 600
        while ImportRun.objects.get(pk=run.pk).status == "running":
            assert worker.poll() is None, "the worker died"
            assert time.monotonic() < deadline, "the resumed import did not finish"
            time.sleep(0.1)
    finally:
        worker.terminate()
        worker.wait(timeout=60)

    finished = ImportRun.objects.get(pk=run.pk)
    assert finished.status == "done", finished.errors
    assert finished.conversations_skipped == done  # recognised, not imported twice
    assert finished.conversations_imported == CONVERSATIONS - done
    memories = Memory.objects.filter(owner=user)
    assert set(memories.values_list("text", flat=True)) == expected  # no losses
    assert memories.count() == len(expected)  # no duplicates
    assert not upload.exists()  # the upload is removed once the import is whole


def test_an_import_queued_under_the_old_task_path_still_finds_its_task() -> None:
    """Rows queued before the task moved to the service name `memories.tasks.run_import`; the
    worker imports the path a row names."""
    assert import_string("memories.tasks.run_import") is run_import
    assert run_import.module_path == "memories.services.import_runs.run_import"
