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
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from kernel.errors import DomainError
from memories.models import Memory, MemoryState
from memories.search import index as search_index
from memories.search import scoring, statements
from memories.search.embeddings import E5_MODEL
from memories.search.lexical import kin
from memories.selectors.memories import memory_get
from memories.services import adding, changing, deleting, marks
from memories.visibility import visible_q, visible_sql

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
    terms = scoring.UserSearch(
        actor.user.pk, visible=visible, params=params, query=query, use_index=False
    )
    args = {
        **params,
        "lexemes": terms.lexemes,
        "groups": list(terms.groups),
        "k1": terms.profile.bm25_k1,
        "b": terms.profile.bm25_b,
        "depth": statements.ARM_DEPTH,
    }
    with connection.cursor() as cur:
        cur.execute(FULL_PASS_SQL.format(filters=statements.filters(visible)), args)
        return [(row[0], float(row[1])) for row in cur.fetchall()]


def lexical(
    actor: Actor, query: str, category: str | None, use_index: bool
) -> list[tuple[uuid.UUID, float]]:
    visible, params = visible_sql(actor)
    return scoring.lexical_arm(
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


def _callers(owner: User) -> tuple[Actor, ConnectedApp, ConnectedApp]:
    """The owner's dashboard, an app granted everything, and an app that sees work only (health
    and food hidden from it, nothing uncategorised)."""
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
    return owner_actor(owner), every, narrow


def _make(actor: Actor, rows: list[Any], app: ConnectedApp) -> list[uuid.UUID]:
    """The rows as the owner's memories, some private or hidden from `app`; their ids."""
    items = [
        adding.NewMemory(text=f"{' '.join(words)} {n}", categories=cats)
        for n, (words, cats, _, _) in enumerate(rows)
    ]
    made = adding.memory_create_many(actor=actor, items=items)
    for result, (_, _, private, hidden) in zip(made, rows, strict=True):
        if private or hidden:
            marks.memory_set_visibility(
                actor=actor,
                memory_id=result.memory.id,
                private=private,
                hide_from_app=app.pk if hidden else None,
            )
    return [r.memory.id for r in made]


def _edit(actor: Actor, ids: list[uuid.UUID], edits: list[Any], stater: Actor) -> None:
    """Each edit on the memory it picks; a refused change writes nothing."""
    for step, (op, pick, words) in enumerate(edits):
        mid = ids[pick % len(ids)]
        text = f"{' '.join(words)} edit {step}"
        try:
            with transaction.atomic():
                if op == "update":
                    changing.memory_update(actor=actor, memory_id=mid, text=text)
                elif op == "delete":
                    deleting.memory_delete(actor=actor, memory_id=mid)
                    ids.remove(mid)
                elif op == "restate":
                    stated = memory_get(actor=actor, memory_id=mid, record=False)
                    adding.memory_create(actor=stater, text=stated.text)
                elif op in ("private", "public"):
                    marks.memory_set_visibility(actor=actor, memory_id=mid, private=op == "private")
                elif op == "work":
                    changing.memory_set_categories(actor=actor, memory_id=mid, categories=["work"])
                elif op == "supersede":
                    new = changing.memory_supersede(
                        actor=actor, memory_id=mid, text=text, reason="x", respect_user_edits=False
                    )
                    ids.append(new.memory.id)
                else:
                    state = {"archive": "archived", "pause": "paused", "activate": "active"}[op]
                    changing.memory_set_state(actor=actor, memory_ids=[mid], state=state)
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
            dash, every, narrow = _callers(owner)
            _edit(dash, _make(dash, rows, every), edits, actor_for(owner, narrow))
            text = " ".join(query)
            for actor in (dash, actor_for(owner, every), actor_for(owner, narrow)):
                want = full_pass(actor, text, category)
                for use_index in (True, False):
                    assert_same(lexical(actor, text, category, use_index), want)
            raise _Rollback
    except _Rollback:
        pass


# Words of several languages: a memory's words decide its language (memories/language.py), so
# writes move memories between the languages a query's share counts.
PHRASES = [
    *("I play the cello", "my sister lives in Porto", "wir haben einen Dackel"),
    *("meine Tochter geht zur Schule", "我对花生过敏", "我在软件公司工作"),
    *("私は東京に住んでいます", "j'habite à Lyon", "моя дочь ходит в школу"),
]
phrase_rows = st.lists(
    st.tuples(
        st.lists(st.sampled_from(PHRASES), min_size=1, max_size=3),
        st.lists(st.sampled_from(CATEGORIES), max_size=2, unique=True),
        st.booleans(),  # private
        st.booleans(),  # hidden from the reading app
    ),
    min_size=1,
    max_size=10,
)
phrase_edits = st.lists(
    st.tuples(
        st.sampled_from(["update", "delete", "archive", "private", "public", "work", "supersede"]),
        st.integers(0, 100),
        st.lists(st.sampled_from(PHRASES), min_size=1, max_size=2),
    ),
    min_size=1,
    max_size=5,
)


def _language_share(actor: Actor, query: str, category: str | None) -> float:
    """The share the discount reads, counted afresh with the ORM form of the consent rule."""
    languages = kin(query)
    seen = Memory.objects.filter(
        visible_q(actor), state=MemoryState.ACTIVE, superseded_by__isnull=True
    )
    if category is not None:
        seen = seen.filter(categories__contains=[category])
    total = seen.count()
    return (
        1.0
        if languages is None or not total
        else seen.filter(language__in=languages).count() / total
    )


@pytest.mark.slow
@pytest.mark.django_db
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=phrase_rows,
    edits=phrase_edits,
    query=st.sampled_from(["cello", "Dackel", "过敏", "東京", "школу", "Lyon"]),
    category=st.sampled_from([None, *CATEGORIES]),
)
def test_the_language_share_under_e5_is_the_callers_view_after_any_writes(
    rows: list[Any], edits: list[Any], query: str, category: str | None
) -> None:
    """Under e5 an unknown query is discounted by the share of the caller's view in a language
    that could hold its words (`UserSearch.kin_share`), kept per process until the next write:
    after any writes it is the share counted afresh, for the owner and for apps that see less,
    on both search paths."""
    with override_settings(EMBEDDING_MODEL=E5_MODEL):
        search_index.clear()
        try:
            with transaction.atomic():
                owner = User.objects.create_user(f"kin-{uuid.uuid4().hex[:8]}@example.com")
                dash, every, narrow = _callers(owner)
                ids = _make(dash, rows, every)
                actors = (dash, actor_for(owner, every), actor_for(owner, narrow))

                def shares() -> list[float]:
                    got = []
                    for actor in actors:
                        visible, params = visible_sql(actor)
                        for use_index in (True, False):
                            found = scoring.UserSearch(
                                owner.pk,
                                visible=visible,
                                params={**params, "category": category},
                                query=query,
                                use_index=use_index,
                            )
                            assert found.model == E5_MODEL
                            got.append(found.kin_share)
                    return got

                def fresh() -> list[float]:
                    return [_language_share(a, query, category) for a in actors for _ in (0, 1)]

                assert shares() == pytest.approx(fresh())  # and now counted, kept
                _edit(dash, ids, edits, actor_for(owner, narrow))
                assert shares() == pytest.approx(fresh())
                raise _Rollback
        except _Rollback:
            pass
        finally:
            search_index.clear()
