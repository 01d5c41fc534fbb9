"""The lexical arm gives the BM25 of the full pass it replaced, whichever way it is computed (the
in-memory index, or PostgreSQL through the owner-salted GIN index and the trigger-kept
statistics), for the owner and for apps that see less, after any adds, edits, deletes, state
changes, supersessions, apps' statements of memories they may not see (echoes) and changes of
what an app may see."""

from __future__ import annotations

import math
import uuid
from typing import Any

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from kernel.errors import DomainError
from memories.search import scoring as search
from memories.selectors.memories import memory_get
from memories.services import memories as services
from memories.visibility import visible_sql

# English words, and German and Chinese ones: a memory's words decide its language, and so
# which configuration's lexemes it holds (memories/search/lexical.py).
WORDS = [
    *("garden", "piano", "lisbon", "invoice", "tennis", "okafor", "salmon", "deadline", "run"),
    *("Kinder", "Geburtstag", "wohnt", "过敏", "花生过敏", "工作"),
]
CATEGORIES = ["work", "health", "food"]

# The full pass over the caller's rows that the lexical arm replaced (memories/search/scoring.py
# before issue 16), kept here as the reference: statistics and matches from one scan of every
# visible row of the user, for the query's lexemes and groups as the search reads them (a group:
# its members' counts summed, its document frequency their largest).
FULL_PASS_SQL = """
WITH ql AS (
    SELECT * FROM unnest(%(lexemes)s::text[], %(groups)s::int[]) AS t(lexeme, grp)
),
tenant AS MATERIALIZED (
    SELECT m.id, m.tsv, length(m.tsv) AS dl FROM memories_memory m
    WHERE EXISTS (SELECT 1 FROM ql) AND {filters}
),
stats AS (
    SELECT count(*)::float8 AS n_docs, greatest(avg(dl), 1)::float8 AS avgdl FROM tenant
),
hits AS (
    SELECT t.id, t.dl::float8 AS dl, u.lexeme,
           coalesce(array_length(u.positions, 1), 1)::float8 AS tf
    FROM tenant t, unnest(t.tsv) u
    WHERE u.lexeme IN (SELECT lexeme FROM ql)
),
df AS (
    SELECT ql.grp, max(coalesce(c.n, 0)) AS n
    FROM ql LEFT JOIN (SELECT lexeme, count(*)::float8 AS n FROM hits GROUP BY lexeme) c
         USING (lexeme)
    GROUP BY ql.grp
),
grouped AS (
    SELECT h.id, h.dl, ql.grp, sum(h.tf) AS tf FROM hits h JOIN ql USING (lexeme)
    GROUP BY h.id, h.dl, ql.grp
)
SELECT g.id,
       sum(ln(1 + (s.n_docs - df.n + 0.5) / (df.n + 0.5))
           * g.tf * (%(k1)s::float8 + 1)
           / (g.tf + %(k1)s::float8 * (1 - %(b)s::float8 + %(b)s::float8 * g.dl / s.avgdl))
       ) AS bm25
FROM grouped g JOIN df USING (grp) CROSS JOIN stats s
GROUP BY g.id
ORDER BY bm25 DESC, g.id
LIMIT %(depth)s
"""


def full_pass(actor: Actor, query: str, category: str | None) -> list[tuple[uuid.UUID, float]]:
    visible, params = visible_sql(actor)
    params = {**params, "category": category}
    terms = search.UserSearch(
        actor.user.pk, visible=visible, params=params, query=query, use_index=False
    )
    args = {
        **params,
        "lexemes": terms.lexemes,
        "groups": list(terms.groups),
        "k1": terms.profile.bm25_k1,
        "b": terms.profile.bm25_b,
        "depth": search.ARM_DEPTH,
    }
    with connection.cursor() as cur:
        cur.execute(FULL_PASS_SQL.format(filters=search.filters(visible)), args)
        return [(row[0], float(row[1])) for row in cur.fetchall()]


def lexical(
    actor: Actor, query: str, category: str | None, use_index: bool
) -> list[tuple[uuid.UUID, float]]:
    visible, params = visible_sql(actor)
    return search.lexical_arm(
        query,
        owner_id=actor.user.pk,
        visible=visible,
        params={**params, "category": category},
        whole_store=actor.app.is_owner_app,
        use_index=use_index,
    )


def assert_same(got: list[tuple[uuid.UUID, float]], want: list[tuple[uuid.UUID, float]]) -> None:
    assert [m for m, _ in got] == [m for m, _ in want]
    for (_, a), (_, b) in zip(got, want, strict=True):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


texts = st.lists(
    st.tuples(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),  # words, repeats allowed
        st.lists(st.sampled_from(CATEGORIES), max_size=2, unique=True),
        st.booleans(),  # private
        st.booleans(),  # hidden from the reading app
    ),
    min_size=1,
    max_size=25,
)
changes = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "update",
                "delete",
                "archive",
                "pause",
                "activate",
                "supersede",
                "restate",  # the work-only app states this memory's text (an echo if unseen)
                "private",
                "public",
                "work",  # the memory moves into the work category
            ]
        ),
        st.integers(0, 100),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
    ),
    max_size=6,
)
queries = st.lists(st.sampled_from([*WORDS, "xyzzy", "the"]), min_size=1, max_size=4)


class _Rollback(Exception):
    pass


def _build(
    owner: User,
    actor: Actor,
    rows: list[Any],
    edits: list[Any],
    app: ConnectedApp,
    stater: Actor,
) -> None:
    items = [
        services.NewMemory(text=f"{' '.join(words)} {n}", categories=cats)
        for n, (words, cats, _, _) in enumerate(rows)
    ]
    made = services.memory_create_many(actor=actor, items=items)
    for result, (_, _, private, hidden) in zip(made, rows, strict=True):
        if private or hidden:
            services.memory_set_visibility(
                actor=actor,
                memory_id=result.memory.id,
                private=private,
                hide_from_app=app.pk if hidden else None,
            )
    ids = [r.memory.id for r in made]
    for step, (op, pick, words) in enumerate(edits):
        mid = ids[pick % len(ids)]
        text = f"{' '.join(words)} edit {step}"
        try:
            with transaction.atomic():
                if op == "update":
                    services.memory_update(actor=actor, memory_id=mid, text=text)
                elif op == "delete":
                    services.memory_delete(actor=actor, memory_id=mid)
                    ids.remove(mid)
                elif op == "restate":
                    stated = memory_get(actor=actor, memory_id=mid, record=False)
                    services.memory_create(actor=stater, text=stated.text)
                elif op in ("private", "public"):
                    services.memory_set_visibility(
                        actor=actor, memory_id=mid, private=op == "private"
                    )
                elif op == "work":
                    services.memory_set_categories(actor=actor, memory_id=mid, categories=["work"])
                elif op == "supersede":
                    new = services.memory_supersede(
                        actor=actor, memory_id=mid, text=text, reason="x", respect_user_edits=False
                    )
                    ids.append(new.memory.id)
                else:
                    state = {"archive": "archived", "pause": "paused", "activate": "active"}[op]
                    services.memory_set_state(actor=actor, memory_ids=[mid], state=state)
        except DomainError:
            pass  # a refused change (no longer active, duplicate text): nothing written
        if not ids:
            break


@pytest.mark.slow
@pytest.mark.django_db
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=texts, edits=changes, query=queries, category=st.sampled_from([None, *CATEGORIES]))
def test_lexical_arm_equals_the_full_pass_for_every_caller_after_any_writes(
    rows: list[Any], edits: list[Any], query: list[str], category: str | None
) -> None:
    try:
        with transaction.atomic():
            owner = User.objects.create_user(f"bm25-{uuid.uuid4().hex[:8]}@example.com")
            dash = owner_actor(owner)
            every = ConnectedApp.objects.create(
                owner=owner, kind=ConnectedApp.Kind.TOKEN, name="every", scopes=list(ALL_SCOPES)
            )
            narrow = ConnectedApp.objects.create(
                owner=owner,
                kind=ConnectedApp.Kind.TOKEN,
                name="work only",
                scopes=list(ALL_SCOPES),
                categories=["work"],
                hidden_categories=["health", "food"],
                sees_uncategorised=False,
            )
            _build(owner, dash, rows, edits, every, actor_for(owner, narrow))
            text = " ".join(query)
            for actor in (dash, actor_for(owner, every), actor_for(owner, narrow)):
                want = full_pass(actor, text, category)
                for use_index in (True, False):
                    assert_same(lexical(actor, text, category, use_index), want)
            raise _Rollback
    except _Rollback:
        pass
