"""The move to another embedding model across connections and processes (issue 36 item 6): a
writer holding the user's models makes the switch back off, never wait (nor deadlock), and its
memory switches with the rest; `manage.py reembed` killed mid-move leaves what it embedded, the
next run goes on from there, and this process's searches answered all along."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from django.db import connection, transaction
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory, StagedVector
from memories.search import moves
from memories.search.embeddings import get_embedder
from memories.services import adding, maintenance
from tests.mcpbridge.mcp_clients import stdio_env
from tests.memories.model_moves import (
    DACHSHUND,
    E5_MODEL,
    MINILM_MODEL,
    STORE,
    found,
    live_model,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[3]


def test_a_writer_holding_the_users_models_makes_the_switch_back_off_and_switches_with_it(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    adding.memory_create_many(actor=owner_dash, items=[adding.NewMemory(text=t) for t in STORE[:4]])
    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.move(batch=4, memories=4)  # every memory staged, nobody switched yet
    assert live_model(owner) == MINILM_MODEL
    holding, write, done = threading.Event(), threading.Event(), threading.Event()
    written: list[Memory] = []

    def writer() -> None:
        try:
            with transaction.atomic():
                assert moves.held(owner.pk) == moves.Models(MINILM_MODEL, E5_MODEL)
                holding.set()
                write.wait(30)
                written.append(adding.memory_create(actor=owner_dash, text="I knit socks.").memory)
        finally:
            connection.close()
            done.set()

    thread = threading.Thread(target=writer)
    thread.start()
    assert holding.wait(30)
    started = time.monotonic()
    assert maintenance.switch(owner.pk) is None  # the writer holds the user's row
    assert time.monotonic() - started < 1.0  # backed off at its lock timeout
    write.set()
    assert done.wait(60)
    thread.join()

    assert maintenance.switch(owner.pk) == 5
    assert live_model(owner) == E5_MODEL
    (memory,) = written
    row = Memory.objects.get(owner=owner, pk=memory.id)
    assert row.embedding_model == E5_MODEL
    expected = get_embedder(E5_MODEL).embed(["I knit socks."])[0]
    assert np.allclose(np.asarray(row.embedding, dtype=np.float32), expected, atol=1e-5)


@pytest.mark.slow
def test_reembed_killed_mid_move_resumes_and_search_answers_all_along(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    texts = [
        *STORE,
        *(
            f"Note {n}: the {w} shop opens at {n % 12 + 1}."
            for n, w in enumerate(["bakery", "florist", "bike", "book", "tea"] * 12)
        ),
    ]
    adding.memory_create_many(actor=owner_dash, items=[adding.NewMemory(text=t) for t in texts])
    env = {**os.environ, **stdio_env(), "EMBEDDING_MODEL": E5_MODEL}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "reembed", "--batch", "4"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        staged = 0
        deadline = time.monotonic() + 300
        while staged < 12 and worker.poll() is None and time.monotonic() < deadline:
            assert found(owner_dash, "dog")[:1] == [DACHSHUND]  # MiniLM's, meanwhile
            staged = StagedVector.objects.filter(owner=owner).count()
            time.sleep(0.05)
        assert worker.poll() is None, worker.communicate()[0].decode()[-2000:]
        worker.send_signal(signal.SIGKILL)  # a crash: no clean-up of any kind
        worker.wait(30)
    finally:
        if worker.poll() is None:
            worker.kill()
    kept = StagedVector.objects.filter(owner=owner, model=E5_MODEL).count()
    assert 12 <= kept < len(texts) and live_model(owner) == MINILM_MODEL
    assert found(owner_dash, "dog")[:1] == [DACHSHUND]

    settings.EMBEDDING_MODEL = E5_MODEL
    deadline = time.monotonic() + 30
    report = maintenance.move()
    while report.busy and time.monotonic() < deadline:  # until PostgreSQL sees it gone
        time.sleep(0.2)
        report = maintenance.move()
    assert report.done and report.embedded == len(texts) - kept
    assert live_model(owner) == E5_MODEL
    assert found(owner_dash, "dog")[:1] == [DACHSHUND]
