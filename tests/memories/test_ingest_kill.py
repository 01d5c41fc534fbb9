"""A real `manage.py backfill` process killed with SIGKILL mid-run loses nothing it committed,
and a re-run completes with no duplicates and no losses."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from django.db.models import Count

from accounts.models import User
from bench.backfill import make_claude_export
from memories.models import ImportedConversation, ImportRun, Memory

ROOT = Path(__file__).resolve().parents[2]
CONVERSATIONS = 150
PER_CONVERSATION = 3


def _command(path: Path, email: str) -> list[str]:
    return [sys.executable, "manage.py", "backfill", str(path), "--user", email, "--yes"]


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


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(900)
def test_backfill_killed_mid_run_then_rerun_has_no_duplicates_and_no_losses(
    tmp_path: Path,
) -> None:
    user = User.objects.create_user("killed@example.com")
    export = make_claude_export(CONVERSATIONS, PER_CONVERSATION)
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export))
    expected = {
        m["content"][0]["text"]
        for c in export
        for m in c["chat_messages"]
        if m["sender"] == "human"
    }
    env = _env(tmp_path / "home")

    process = subprocess.Popen(
        _command(path, user.email),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 600
        while ImportedConversation.objects.filter(owner=user).count() < 10:
            assert process.poll() is None, "backfill ended before it could be killed"
            assert time.monotonic() < deadline, "backfill made no progress"
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=60)
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
