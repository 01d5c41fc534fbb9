"""Property: whatever interleaving of operations several users make, none of them ever reads,
changes or learns of the existence of another user's memory (service-layer door).

Each example runs interleaved operations by three users. Every operation that names a memory id
is tried with the caller's own ids, other users' ids and random ids; an answer about another
user's id must be identical to the answer about a random id.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.actors import Actor, owner_actor
from accounts.models import User
from kernel.errors import DomainError
from memories.models import Memory
from memories.selectors.memories import memory_get, memory_list, memory_search, memory_versions
from memories.services import adding, changing, deleting
from memories.services.trash import trash_delete_forever, trash_restore

pytestmark = pytest.mark.slow

WORDS = ["garden", "piano", "Lisbon", "invoice", "tennis", "Okafor", "salmon", "deadline"]

ops = st.lists(
    st.tuples(
        st.integers(0, 2),  # acting user
        st.sampled_from(
            [
                *("add", "update", "delete", "archive", "get", "versions", "search", "list"),
                *("untrash", "purge"),  # out of the trash: restored, or deleted for good
            ]
        ),
        st.integers(0, 2),  # whose memory an id-taking op targets (or 3: a random id)
        st.integers(0, 50),  # which of that user's memories
        st.sampled_from(WORDS),
    ),
    min_size=5,
    max_size=25,
)


class _Rollback(Exception):
    pass


@dataclass
class Tally:
    attempts: int = 0
    leaks: list[str] = field(default_factory=list)


TALLY = Tally()


def _answer(fn: Any, *args: Any) -> tuple[str, str]:
    try:
        fn(*args)
    except DomainError as exc:
        return (type(exc).__name__, exc.message)
    return ("ok", "")


def _snapshot(user: User) -> list[tuple[Any, ...]]:
    return list(
        Memory.objects.filter(owner=user)
        .order_by("id")
        .values_list("id", "text", "state", "categories", "updated_at", "trash_batch")
    )


@pytest.mark.django_db
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(script=ops)
def test_no_user_ever_sees_or_changes_another_users_memory(script: list[Any]) -> None:
    try:
        with transaction.atomic():
            _run(script)
            raise _Rollback
    except _Rollback:
        pass
    assert TALLY.leaks == []


def _run(script: list[Any]) -> None:
    users = [User.objects.create_user(f"p{i}-{uuid.uuid4().hex[:6]}@example.com") for i in range(3)]
    actors: list[Actor] = [owner_actor(u) for u in users]
    owned: dict[int, list[uuid.UUID]] = {0: [], 1: [], 2: []}
    for step, (who, op, target, pick, word) in enumerate(script):
        actor = actors[who]
        if op in ("add",) or not any(owned.values()):
            result = adding.memory_create(actor=actor, text=f"{word} note {step} by {who}")
            owned[who].append(result.memory.id)
            continue
        if op in ("search", "list"):
            TALLY.attempts += 1
            if op == "search":
                seen = [h.memory for h in memory_search(actor=actor, query=word, limit=20)]
            else:
                seen = memory_list(actor=actor, limit=200).items
            foreign = [m.id for m in seen if m.owner_id != users[who].pk]
            if foreign:
                TALLY.leaks.append(f"{op} by user {who} returned {foreign}")
            continue
        # An id-taking operation, tried on the target and on a random id.
        candidates = owned[target] if target < 3 else []
        mid = candidates[pick % len(candidates)] if candidates else uuid.uuid4()
        random_id = uuid.uuid4()
        others_before = [_snapshot(u) for i, u in enumerate(users) if i != who]

        def call(memory_id: uuid.UUID, op: str = op, actor: Actor = actor) -> Any:
            return {
                "update": lambda: changing.memory_update(
                    actor=actor, memory_id=memory_id, text=f"changed {memory_id}"
                ),
                "delete": lambda: deleting.memory_delete(actor=actor, memory_id=memory_id),
                "archive": lambda: changing.memory_set_state(
                    actor=actor, memory_ids=[memory_id], state="archived"
                ),
                "get": lambda: memory_get(actor=actor, memory_id=memory_id),
                "versions": lambda: memory_versions(actor=actor, memory_id=memory_id),
                "untrash": lambda: trash_restore(actor=actor, memory_ids=[memory_id]),
                "purge": lambda: trash_delete_forever(actor=actor, memory_ids=[memory_id]),
            }[op]()

        TALLY.attempts += 1
        is_foreign = target < 3 and target != who and bool(candidates)
        answer = _answer(call, mid)
        if is_foreign:
            if answer != _answer(call, random_id):
                TALLY.leaks.append(f"{op} on a foreign id answered {answer}")
            if others_before != [_snapshot(u) for i, u in enumerate(users) if i != who]:
                TALLY.leaks.append(f"{op} by user {who} changed another user's memories")
        elif answer[0] == "ok" and op == "purge":  # a deleted one stays a target: in the trash
            owned[who].remove(mid)


def test_isolation_figure_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    # Runs after the property test in this module: prints the figure docs/reliability.md quotes.
    print(f"isolation: attempts={TALLY.attempts} leaks={len(TALLY.leaks)}")
    assert TALLY.leaks == []
