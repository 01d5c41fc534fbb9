"""An isolated Django for one benchmark run, and the small helpers every benchmark shares.

Without `--database-url` a run gets its own temporary CONTEXT_LAYER_HOME and embedded cluster,
deleted at exit (like `tests.settings`); with it, the home (model folder, secret key) is still
temporary and only the rows go to that server, removed again when the run ends.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import socket
import tempfile
import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np


def setup_django(database_url: str | None, home: str | None = None) -> None:
    """`home`: a CONTEXT_LAYER_HOME kept between runs (its embedded cluster is stopped, not
    deleted, at exit), for benchmarks that cache a large generated store there."""
    keep = home is not None
    if home is None:
        home = tempfile.mkdtemp(prefix="contextlayer-bench-")
        # Registered before the embedded server starts, so it runs after the server is stopped.
        atexit.register(shutil.rmtree, home, ignore_errors=True)
    else:
        os.makedirs(home, exist_ok=True)
    os.environ["CONTEXT_LAYER_HOME"] = home
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["EMBEDDED_DB_CLEANUP"] = "stop" if keep else "delete"
    os.environ["DJANGO_SETTINGS_MODULE"] = "contextlayer.settings"
    # One audit line per call would drown the figures.
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # Every query a benchmark times is embedded (its servers inherit this too).
    os.environ.setdefault("EMBEDDING_QUERY_CACHE", "0")

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


def bench_user(label: str) -> Any:
    """A throwaway user; `drop_users` removes it (and, by cascade, its rows) at the end."""
    from accounts.models import User

    return User.objects.create_user(f"bench-{label}-{uuid.uuid4().hex[:8]}@example.invalid")


def write_store(
    label: str, memories: dict[str, str], users: list[Any]
) -> tuple[Any, dict[Any, str]]:
    """`memories` (set id -> text) written through the services as a new user's (appended to
    `users`, for `drop_users`): the owner's actor, and each memory's set id by its database id.
    Every text must be its own memory: a merge would leave a query's target unfindable."""
    from accounts.actors import owner_actor
    from memories.services.adding import NewMemory, memory_create_many

    user = bench_user(label)
    users.append(user)
    actor = owner_actor(user)
    ids = list(memories)
    made = memory_create_many(actor=actor, items=[NewMemory(text=memories[i]) for i in ids])
    name_of = {}
    for mid, result in zip(ids, made, strict=True):
        assert result.created, f"memory {mid} was merged as a duplicate"
        name_of[result.memory.id] = mid
    return actor, name_of


def read_client(user: Any, name: str) -> tuple[Any, Any]:
    """A read-only client token of `user`, made as the owner makes one, and the actor its bearer
    acts as (resolved the way the server resolves it): what the benchmarks search with."""
    from accounts.actors import owner_actor
    from accounts.client_tokens import client_token_create
    from accounts.credentials import resolve_bearer
    from memories.selectors.grants import known_categories

    issued = client_token_create(
        actor=owner_actor(user), known=known_categories(user), name=name, scopes=["read"]
    )
    credential = resolve_bearer(issued.secret, resource="bench")
    assert credential is not None
    return issued, credential.actor()


def drop_users(users: Sequence[Any]) -> None:
    from django.db import connection

    from accounts.models import User

    ids = [u.pk for u in users]
    # A few statements instead of Django's cascade collector, which would load every row into
    # Python first. An app's writes may leave proposals (unsure updates) and versions (updates
    # that replaced a memory) behind them: those go first.
    with connection.cursor() as cur:
        cur.execute("DELETE FROM memories_memoryproposal WHERE owner_id = ANY(%s)", [ids])
        cur.execute("DELETE FROM memories_memoryversion WHERE owner_id = ANY(%s)", [ids])
        cur.execute("DELETE FROM memories_memory WHERE owner_id = ANY(%s)", [ids])
    User.objects.filter(pk__in=ids).delete()


def free_port() -> int:
    """A TCP port free on localhost now, for a server a bench starts."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(samples_ms: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(samples_ms, dtype=np.float64), q))


def emit(result: dict[str, Any]) -> None:
    """The last line of every benchmark: one JSON object."""
    print(json.dumps(result, sort_keys=False), flush=True)


def add_common(parser: Any) -> None:
    parser.add_argument(
        "--database-url",
        default=None,
        help="Run against this PostgreSQL (with pgvector) instead of a temporary embedded one.",
    )
