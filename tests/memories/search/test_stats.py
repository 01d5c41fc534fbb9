"""The per-user search statistics (`SearchStats`) and change log are kept by a trigger in the
transaction of every write, whichever path writes: after any sequence of writes the statistics
equal a recount, the generation changes for exactly the users whose memories changed, and an
in-memory index brought up to date from the change log equals one read in full."""

from __future__ import annotations

import uuid
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ConnectedApp, User
from kernel.errors import Conflict
from kernel.gates import SCOPE_READ, SCOPE_WRITE
from memories.models import Memory, SearchStats
from memories.search import index as search_index
from memories.search import statements
from memories.search.user_index import UserIndex
from memories.services import adding, changing, deleting, maintenance, marks
from memories.services.erasure import user_erase
from memories.services.trash import trash_delete_forever, trash_restore
from memories.visibility import visible_sql

WORDS = ["garden", "piano", "Lisbon", "invoice", "tennis", "Okafor", "salmon", "deadline"]

steps = st.lists(
    st.tuples(
        st.integers(0, 1),  # whose store
        st.sampled_from(
            [
                "add",
                "add_many",
                "raw_insert",
                "update",
                "archive",
                "pause",
                "activate",
                "supersede",
                "delete",  # into the trash
                "delete_many",
                "untrash",  # out of it: a restore
                "purge",  # out of it for good
                "categories",
                "raw_update",
                "raw_delete",
                "restate",  # the app states an owner's memory's text: an echo if it may not see it
                "private",
                "public",
            ]
        ),
        st.integers(0, 30),  # which memory
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
    ),
    min_size=4,
    max_size=18,
)


class _Rollback(Exception):
    pass


def _recount(user: User) -> tuple[int, int]:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(*), coalesce(sum(length(tsv)), 0) FROM memories_memory "
            "WHERE owner_id = %s AND state = 'active' AND superseded_by_id IS NULL "
            "AND echo_of_id IS NULL",
            [user.pk],
        )
        n, total = cur.fetchone()
    return int(n), int(total)


def _kept(user: User) -> tuple[int, int, int] | None:
    row = SearchStats.objects.filter(owner=user).values_list("documents", "length", "generation")
    return tuple(row[0]) if row else None  # type: ignore[return-value]


def _raw_insert(user: User, text: str) -> None:
    """The bulk path that bypasses the service layer (as benchmarks and imports of old do)."""
    with connection.cursor() as cur:
        cur.execute(
            """
            INSERT INTO memories_memory (id, owner_id, text, text_key, embedding_model, tsv,
                state, categories, categories_set_by_user, is_private, hidden_from, origin,
                origin_app_name, provenance, metadata, created_at, updated_at)
            VALUES (%s, %s, %s, md5(%s), '', to_tsvector('english', %s), 'active', '{}', false,
                    false, '{}', 'app', 'raw', '{}', '{}', now(), now())
            """,
            [uuid.uuid4(), user.pk, text, f"{text}{uuid.uuid4()}", text],
        )


def _listed(user: User) -> tuple[list[uuid.UUID], list[uuid.UUID], list[uuid.UUID]]:
    """The owner's memories out of the trash, the trashed ones (each deleted on its own) and the
    active ones: the owner's, not an app's echoes (not the owner's to act on), in an order that
    does not depend on random ids, so that hypothesis replays the same script the same way."""
    everything = Memory.objects.filter(owner=user, echo_of__isnull=True).order_by("text", "id")
    own = everything.exclude(state="trashed")  # what the owner's doors see
    ids = list(own.values_list("id", flat=True))
    trashed = list(
        everything.filter(state="trashed", trashed_with__isnull=True).values_list("id", flat=True)
    )
    active = list(
        own.filter(state="active", superseded_by__isnull=True).values_list("id", flat=True)
    )
    return ids, trashed, active


def _change(actor: Actor, op: str, mid: uuid.UUID, text: str, words: list[str]) -> None:
    if op == "update":
        changing.memory_update(actor=actor, memory_id=mid, text=text)
    elif op == "supersede":
        changing.memory_supersede(
            actor=actor, memory_id=mid, text=text, reason="changed", respect_user_edits=False
        )
    else:
        changing.memory_set_categories(actor=actor, memory_id=mid, categories=words[:1])


def _set_state(actor: Actor, op: str, mid: uuid.UUID) -> None:
    state = {"archive": "archived", "pause": "paused", "activate": "active"}[op]
    try:
        with transaction.atomic():
            changing.memory_set_state(actor=actor, memory_ids=[mid], state=state)
    except Conflict:
        pass  # reactivating a text that is active again elsewhere: refused, nothing written


def _raw_write(user: User, op: str, text: str, mid: uuid.UUID) -> None:
    """An update or a delete in SQL, past the service layer."""
    with connection.cursor() as cur:
        if op == "raw_update":
            cur.execute(
                "UPDATE memories_memory SET tsv = to_tsvector('english', %s) "
                "WHERE owner_id = %s AND id = %s",
                [text, user.pk, mid],
            )
        else:
            cur.execute(
                "DELETE FROM memories_memory WHERE owner_id = %s AND id = %s "
                "AND NOT EXISTS (SELECT 1 FROM memories_memory o WHERE o.superseded_by_id = %s)",
                [user.pk, mid, mid],
            )


def _apply(
    actor: Actor, op: str, pick: int, words: list[str], step: int, app: Actor | None
) -> None:
    """One write to `actor`'s store (`app`: a connected app of that store, for `restate`)."""
    user = actor.user
    text = f"{' '.join(words)} note {step}"
    ids, trashed, active = _listed(user)
    if op == "add" or not ids:
        adding.memory_create(actor=actor, text=text)
    elif op == "add_many":
        items = [adding.NewMemory(text=f"{w} item {step}") for w in words]
        adding.memory_create_many(actor=actor, items=items)
    elif op == "raw_insert":
        _raw_insert(user, text)
    elif op in ("update", "supersede", "categories") and active:
        _change(actor, op, active[pick % len(active)], text, words)
    elif op in ("archive", "pause", "activate"):
        _set_state(actor, op, ids[pick % len(ids)])
    elif op == "delete":
        deleting.memory_delete(actor=actor, memory_id=ids[pick % len(ids)])
    elif op == "delete_many":
        deleting.memory_delete_many(actor=actor, memory_ids=ids[pick % len(ids) :][:3])
    elif op == "untrash" and trashed:
        trash_restore(actor=actor, memory_ids=[trashed[pick % len(trashed)]])
    elif op == "purge" and trashed:
        trash_delete_forever(actor=actor, memory_ids=[trashed[pick % len(trashed)]])
    elif op in ("raw_update", "raw_delete"):
        _raw_write(user, op, text, ids[pick % len(ids)])
    elif op == "restate" and app is not None and active:
        stated = Memory.objects.get(owner=user, id=active[pick % len(active)])
        adding.memory_create(actor=app, text=stated.text)
    elif op in ("private", "public") and active:
        marks.memory_set_visibility(
            actor=actor, memory_id=active[pick % len(active)], private=op == "private"
        )


def _contents(index: UserIndex, mask: Any = None) -> dict[bytes, Any]:
    """What an index holds per memory, whatever the row order: flag, vector, length, postings,
    and (with a mask) whether the view sees it."""
    postings: dict[int, list[tuple[int, float]]] = {}
    for key, row, tf in zip(index.keys, index.rows, index.tf, strict=True):
        postings.setdefault(int(row), []).append((int(key), float(tf)))
    return {
        index.ids[r].tobytes(): (
            bool(index.has_vector[r]),
            bool(index.echo[r]),
            index.matrix[r].tobytes(),
            float(index.dl[r]),
            sorted(postings.get(r, [])),
            None if mask is None else bool(mask[r]),
        )
        for r in range(len(index))
    }


def _index_now(user: User, view: search_index.View | None) -> Any:
    stats = SearchStats.objects.filter(owner=user)
    documents, length, generation, changes_from = stats.values_list(
        "documents", "length", "generation", "changes_from"
    )[0]
    return search_index.for_user(
        user.pk,
        generation,
        changes_from=changes_from,
        searchable=documents,
        postings=length,
        view=view,
    )


@pytest.mark.slow
@pytest.mark.django_db
@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(script=steps)
# Writes that change nothing (found by hypothesis on a fresh clone): no refresh is owed.
@example(script=[(0, "add", 0, ["garden"])] + [(0, "activate", 0, ["garden"])] * 3)
def test_statistics_and_the_in_memory_index_stay_true_after_any_writes(
    script: list[Any],
) -> None:
    refreshes = []
    advanced = []  # steps that gave a user whose index was cached a new generation
    original = search_index.refresh

    def counted(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **kwargs)
        refreshes.append(found is not None)
        return found

    try:
        with transaction.atomic(), mock.patch.object(search_index, "refresh", counted):
            users = [
                User.objects.create_user(f"s{i}-{uuid.uuid4().hex[:6]}@example.com") for i in (0, 1)
            ]
            actors = [owner_actor(u) for u in users]
            # Sees categorised memories but those about the piano or tennis, and what it wrote.
            app = ConnectedApp.objects.create(
                owner=users[0],
                kind=ConnectedApp.Kind.TOKEN,
                name="narrow",
                scopes=[SCOPE_READ, SCOPE_WRITE],
                categories=["garden"],
                hidden_categories=["piano", "tennis"],
                sees_uncategorised=False,
            )
            app_actor = actor_for(users[0], app)
            visible, params = visible_sql(app_actor)
            params = {**params, "category": None}
            view = search_index.View(statements.filters(visible), params, tuple(sorted(params)))
            for step, (who, op, pick, words) in enumerate(script):
                before = [_kept(u) for u in users]
                _apply(actors[who], op, pick, words, step, app_actor if who == 0 else None)
                after = [_kept(u) for u in users]
                for user, kept in zip(users, after, strict=True):
                    assert kept is None or kept[:2] == _recount(user), (op, step)
                other = 1 - who
                assert after[other] == before[other], f"{op} touched the other user's row"
                if before[who] is not None and after[who] is not None:
                    assert after[who][2] >= before[who][2]
                    advanced.append(after[who][2] > before[who][2])
                # The cached index, brought up to date (with the app's mask, for the first user),
                # holds what a full read holds.
                if _kept(users[0]) is not None:
                    index, mask = _index_now(users[0], view)
                    fresh, fresh_mask = search_index.load(users[0].pk, view)
                    assert _contents(index, mask) == _contents(fresh, fresh_mask)
                for user in users:
                    if _kept(user) is not None:
                        index, _ = _index_now(user, None)
                        assert _contents(index) == _contents(search_index.load(user.pk)[0])
            raise _Rollback
    except _Rollback:
        pass
    if any(advanced):  # (a script of no-op writes, e.g. activating an active memory, has none)
        assert any(refreshes), "no index was brought up to date from the change log"


def test_every_write_takes_a_new_generation_and_a_rollback_never_reuses_one(
    owner: User, owner_dash: Actor
) -> None:
    first = adding.memory_create(actor=owner_dash, text="Plays the cello on Sundays").memory
    seen = {_kept(owner)[2]}  # type: ignore[index]
    try:
        with transaction.atomic():
            adding.memory_create(actor=owner_dash, text="Rolled back, never stored")
            seen.add(_kept(owner)[2])  # type: ignore[index]
            raise _Rollback
    except _Rollback:
        pass
    assert _kept(owner)[2] in seen  # type: ignore[index]
    changing.memory_update(actor=owner_dash, memory_id=first.id, text="Plays the viola")
    assert _kept(owner)[2] not in seen  # type: ignore[index]
    seen.add(_kept(owner)[2])  # type: ignore[index]
    changing.memory_set_state(actor=owner_dash, memory_ids=[first.id], state="paused")
    assert _kept(owner)[2] not in seen  # type: ignore[index]
    assert _kept(owner)[:2] == (0, 0)  # type: ignore[index]


def test_erase_reembed_and_account_deletion_keep_the_statistics_true(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    adding.memory_create_many(
        actor=owner_dash, items=[adding.NewMemory(text=f"{w} every week") for w in WORDS]
    )
    adding.memory_create(actor=stranger_dash, text="The stranger keeps this one")
    generation = _kept(owner)[2]  # type: ignore[index]

    maintenance.move(again=True)
    assert _kept(owner)[:2] == _recount(owner)  # type: ignore[index]
    assert _kept(owner)[2] > generation  # type: ignore[index]

    user_erase(actor=owner_dash)
    assert _recount(owner) == (0, 0)
    kept = _kept(owner)
    assert kept is None or kept[:2] == (0, 0)
    adding.memory_create(actor=owner_actor(owner), text="A fresh start after the erase")
    assert _kept(owner)[:2] == _recount(owner)  # type: ignore[index]

    stranger_id = stranger.pk
    stranger.delete()
    assert not SearchStats.objects.filter(owner_id=stranger_id).exists()
    assert _kept(owner)[:2] == _recount(owner)  # type: ignore[index]


@pytest.mark.django_db(transaction=True)
def test_a_write_that_changes_no_row_succeeds_in_a_fresh_session(
    owner: User, owner_dash: Actor
) -> None:
    """A duplicate add inserts nothing (ON CONFLICT DO NOTHING) and an UPDATE may match nothing:
    the statement trigger still runs, and in a session that never took a generation it must not
    ask the sequence for one it never took (currval raised: a duplicate add answered 500)."""
    adding.memory_create(actor=owner_dash, text="Drinks green tea in the morning")
    before = _kept(owner)
    connection.close()
    again = adding.memory_create(actor=owner_dash, text="Drinks green tea in the morning")
    assert not again.created
    connection.close()
    with connection.cursor() as cur:
        cur.execute(
            "UPDATE memories_memory SET text = text WHERE owner_id = %s AND false", [owner.pk]
        )
    assert _kept(owner) == before
