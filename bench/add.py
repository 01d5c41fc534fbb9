"""Batch add throughput against the floor: the raw embedding rate of the same texts, same run.

Embedding is the floor of a write; SQL, full-text, duplicate checks and audit events should hide
behind it (`ratio` = add rate / raw embed rate, aim >= 0.9). Batches are interleaved (embed batch
i, add batch i) so load from other processes on the machine hits both sides alike. The process is
warmed up first as a server is at start (`memories.warm`: the model, the classifier, the harm
screen), so the figure is a running server's, not its first request's. `--as-app` writes as a
connected app (harm screen, review, write budget lifted for the run). Also reports the resident
memory of a `manage.py serve` process with the model loaded.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.environment import add_common, bench_user, drop_users, emit, free_port
from bench.texts import memory_texts

ROOT = Path(__file__).resolve().parent.parent


def _status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return 0


def serve_rss_mb(timeout: float = 120) -> dict[str, float]:
    """Start `manage.py serve` in a temporary home, wait for /health, read its RSS, stop it."""
    home = tempfile.mkdtemp(prefix="contextlayer-bench-serve-")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        CONTEXT_LAYER_HOME=home,
        DJANGO_SETTINGS_MODULE="contextlayer.settings",
        EMBEDDED_DB_CLEANUP="delete",
    )
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                    if r.read() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("serve did not answer /health")
            time.sleep(0.5)
        # One search request would not change much: the model is loaded at start-up.
        return {
            "serve_rss_mb": round(_status_kb(proc.pid, "VmRSS") / 1024, 1),
            "serve_peak_rss_mb": round(_status_kb(proc.pid, "VmHWM") / 1024, 1),
        }
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        subprocess.run(["rm", "-rf", home], check=False)


def measure_add(n: int, batch: int, as_app: bool = False) -> dict[str, Any]:
    """`as_app`: written by a connected app that may read and write every category, so each text
    is also screened for harm as an app's and reconciled against the store (issues 37, 38)."""
    from django.conf import settings
    from django.test import override_settings

    from accounts.actors import actor_for, live_app, owner_actor
    from accounts.models import ConnectedApp
    from kernel.gates import SCOPE_READ, SCOPE_WRITE
    from memories.categories.vocabulary import SENSITIVE
    from memories.search.embeddings import get_embedder
    from memories.services.adding import NewMemory, memory_create_many
    from memories.warm import warm_up

    texts = memory_texts(n)
    embedder = get_embedder()
    warm_up()  # what `serve` and each MCP worker do before their first request
    embedder.embed(["warm up the model", "and its thread pool"])
    user = bench_user("add")
    if as_app:
        app = live_app(
            user,
            ConnectedApp.Kind.TOKEN,
            "bench writer",
            scopes=[SCOPE_READ, SCOPE_WRITE],
            categories=sorted(SENSITIVE),
        )
        actor = actor_for(user, app)
    else:
        actor = owner_actor(user)
    embed_s = add_s = 0.0
    created = 0
    # An app's budget (1000/h) would stop the run; it is a limit, not a cost of the write.
    unlimited = {**settings.RATE_LIMITS, "app_writes": "1000000/h", "app_writes_day": "1000000/d"}
    try:
        with override_settings(RATE_LIMITS=unlimited):
            for start in range(0, n, batch):
                chunk = texts[start : start + batch]
                t0 = time.perf_counter()
                embedder.embed(chunk)
                t1 = time.perf_counter()
                results = memory_create_many(actor=actor, items=[NewMemory(text=t) for t in chunk])
                t2 = time.perf_counter()
                # The owner's texts are all distinct; an app's may be merged or replaced by
                # reconciliation (generated sentences look alike), which the report counts.
                assert as_app or all(r.created for r in results)
                created += sum(1 for r in results if r.created)
                embed_s += t1 - t0
                add_s += t2 - t1
                print(f"  batch {start // batch + 1}: embed {t1 - t0:.2f} s, add {t2 - t1:.2f} s")
    finally:
        drop_users([user])
    embed_rate, add_rate = n / embed_s, n / add_s
    return {
        "n": n,
        "batch": batch,
        "writer": "app" if as_app else "owner",
        "stored_new": created,
        "add_per_s": round(add_rate, 1),
        "embed_per_s": round(embed_rate, 1),
        "ratio": round(add_rate / embed_rate, 3),
    }


def run(args: Any) -> None:
    result = measure_add(args.n, args.batch, as_app=args.as_app)
    print(
        f"add {result['add_per_s']}/s, raw embed {result['embed_per_s']}/s, ratio {result['ratio']}"
    )
    if not args.no_rss:
        result.update(serve_rss_mb())
        print(f"serve RSS with the model loaded: {result['serve_rss_mb']} MB")
    emit(result)


def register(sub: Any) -> None:
    parser = sub.add_parser("add", help="Batch add rate vs raw embedding rate; serve RSS.")
    parser.add_argument("--n", type=int, default=2000, help="Memories to add (default 2000).")
    parser.add_argument("--batch", type=int, default=500, help="Batch size (default 500).")
    parser.add_argument("--no-rss", action="store_true", help="Skip the serve RSS measurement.")
    parser.add_argument(
        "--as-app", action="store_true", help="Write as a connected app (harm screen, reconcile)."
    )
    add_common(parser)
    parser.set_defaults(run=run)
