"""The consent rule is one rule: `visible_q` (lists, get, writes) and `visible_sql` (search) select
exactly the same rows, for every kind of door and grant, over a store holding every combination
of the things the rule looks at (state, supersession, private, hidden, kept for some apps only,
categories, origin, echo)."""

from __future__ import annotations

import itertools
import uuid
from datetime import datetime

import pytest
from django.db import connection
from django.utils import timezone

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from memories.categories.vocabulary import DEFAULT_SLUGS
from memories.models import Memory
from memories.visibility import visible_q, visible_sql

pytestmark = pytest.mark.django_db


# "Only food": every other category unticked, memories without a category too.
ONLY_FOOD: dict = {
    "categories": ["food"],
    "hidden_categories": [c for c in DEFAULT_SLUGS if c != "food"],
    "sees_uncategorised": False,
}


def _app(owner: User, name: str, **grant: object) -> ConnectedApp:
    return ConnectedApp.objects.create(
        owner=owner, kind=ConnectedApp.Kind.TOKEN, name=name, scopes=list(ALL_SCOPES), **grant
    )


def _store(owner: User, apps: list[ConnectedApp]) -> None:
    """Every combination, straight into the table (the rule needs no embeddings)."""
    now = timezone.now()
    rows = _canonical_rows(owner, apps, now)
    Memory.objects.bulk_create(rows)
    Memory.objects.bulk_create(_echoes(owner, apps, rows[1:], now))


def _canonical_rows(owner: User, apps: list[ConnectedApp], now: datetime) -> list[Memory]:
    """A successor, then one memory per combination of what the rule looks at (the superseded
    ones superseded by that successor)."""
    rows: list[Memory] = []

    def row(**fields: object) -> Memory:
        memory = Memory(
            owner=owner,
            text=f"m{len(rows)}",
            text_key=uuid.uuid4().hex,
            created_at=now,
            updated_at=now,
            **fields,
        )
        rows.append(memory)
        return memory

    successor = row()
    combos = itertools.product(
        ["active", "archived", "trashed"],
        [False, True],  # superseded
        [False, True],  # private
        [[], [apps[0].pk]],  # hidden from the first app
        [None, [], [apps[1].pk]],  # kept for no app, or the second app only (seen_only_by)
        [[], ["food"], ["health"], ["food", "health"]],
        [None, apps[0], apps[1]],  # origin
    )
    for state, superseded, private, hidden, kept_for, cats, origin in combos:
        row(
            state=state,
            superseded_by=successor if superseded else None,
            is_private=private,
            hidden_from=hidden,
            seen_only_by=kept_for,
            categories=cats,
            origin_app=origin,
        )
    return rows


def _echoes(
    owner: User, apps: list[ConnectedApp], canonicals: list[Memory], now: datetime
) -> list[Memory]:
    """Four kinds of an app's echo (of its own origin or another app's, with a category or none,
    private) of every third memory."""
    return [
        Memory(
            owner=owner,
            text=f"echo of {c.text}",
            text_key=uuid.uuid4().hex,
            created_at=now,
            updated_at=now,
            echo_of=c,
            echo_app=echo_app,
            origin_app=origin,
            categories=cats,
            is_private=private,
        )
        for c in canonicals[::3]
        for echo_app, origin, cats, private in [
            (apps[0], apps[0], ["health"], False),
            (apps[0], apps[1], ["food"], False),
            (apps[1], apps[1], [], False),
            (apps[0], apps[0], [], True),
        ]
    ]


def _by_sql(actor: Actor) -> set[uuid.UUID]:
    where, params = visible_sql(actor)
    with connection.cursor() as cur:
        cur.execute(f"SELECT m.id FROM memories_memory m WHERE {where}", params)  # noqa: S608
        return {r[0] for r in cur.fetchall()}


@pytest.mark.slow
def test_visible_q_and_visible_sql_are_one_rule(owner: User) -> None:
    apps = [
        _app(owner, "default grant"),
        _app(owner, "food only", **ONLY_FOOD),
        _app(owner, "with health", categories=["health"]),
    ]
    _store(owner, apps)
    stranger = User.objects.create_user("someone@example.com")
    _store(stranger, [_app(stranger, "a"), _app(stranger, "b")])
    for actor in [owner_actor(owner), *(actor_for(owner, a) for a in apps)]:
        by_q = set(Memory.objects.filter(visible_q(actor)).values_list("id", flat=True))
        assert by_q == _by_sql(actor), actor.app.name
        assert by_q  # each door sees something, so the comparison is not vacuous
        assert not Memory.objects.filter(id__in=by_q, state="trashed").exists()  # only Trash
        assert not Memory.objects.filter(id__in=by_q).exclude(owner=owner).exists()
