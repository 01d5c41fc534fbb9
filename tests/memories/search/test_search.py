import json
import uuid
from collections.abc import Callable

import numpy as np
import pytest
from django.db import connection, transaction
from django.utils import timezone
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, owner_actor
from accounts.models import User
from memories.search import embeddings, model_profiles, relevance, scoring
from memories.search.embeddings import get_embedder
from memories.search.model_profiles import current as current_profile
from memories.selectors.memories import MemoryFilters, memory_search, search_scope
from memories.services import adding, changing, marks
from memories.services.categories import category_add
from memories.services.category_changes import category_update
from memories.visibility import visible_sql

pytestmark = pytest.mark.django_db

DISTRACTORS = [
    "I enjoy hiking in the Alps during summer",
    "My favourite programming language is Rust",
    "I drink two cups of coffee every morning",
    "The car needs new winter tyres",
    "I am learning to play the cello",
    "My brother lives in Toronto",
    "I prefer aisle seats on long flights",
    "I am allergic to penicillin",
    "Our team ships releases on Thursdays",
    "I read science fiction before bed",
    "I bought a standing desk last month",
    "My bank is closing its branch downtown",
    "I run five kilometres three times a week",
    "I use a mechanical keyboard with brown switches",
    "My partner is vegetarian",
    "I support the local football club",
    "I keep my notes in plain text files",
    "The dentist appointment is on Friday",
    "I grew up on a farm",
    "I am saving for a new laptop",
    "I like my steak medium rare",
    "The garden needs watering on hot days",
    "I listen to podcasts about history",
    "I volunteer at the animal shelter",
    "My flat has a balcony facing west",
    "I write unit tests before refactoring",
    "Our wedding anniversary is in June",
    "I play board games with friends on Sundays",
    "My phone plan renews every March",
    "I cannot stand horror films",
    "I take the train to the office",
    "I am fluent in Portuguese",
    "My grandmother taught me to knit",
    "I prefer dark mode in every editor",
    "The boiler was serviced in October",
    "I collect vinyl records",
    "I am trying to sleep before midnight",
    "My manager is called Priya",
    "I like cold showers after the gym",
    "I studied chemistry at university",
    "I avoid sugar in my tea",
    "The roof leaks when it rains heavily",
    "I go climbing at the bouldering gym",
    "I prefer paper books over e-readers",
    "I have a subscription to a meal kit service",
    "My laptop runs Debian",
    "I paint watercolours on holiday",
    "I am planning a trip to Japan in spring",
    "My cat sleeps on the radiator",
    "I meditate for ten minutes each day",
    "I deploy side projects on a small VPS",
    "I dislike open-plan offices",
]


def _add_all(actor: Actor, texts: list[str]) -> None:
    adding.memory_create_many(actor=actor, items=[adding.NewMemory(text=t) for t in texts])


def test_semantic_search_finds_a_paraphrase_that_shares_no_word(owner_dash: Actor) -> None:
    target = "My daughter Mia starts kindergarten in September"
    _add_all(owner_dash, [*DISTRACTORS, target])
    query = "when does my kid begin school?"

    hits = memory_search(actor=owner_dash, query=query, limit=5)
    assert target in [h.memory.text for h in hits]

    visible, params = visible_sql(owner_dash)
    lexical = scoring.lexical_arm(
        query, owner_id=owner_dash.user.pk, visible=visible, params=params
    )
    texts_by_id = {h.memory.id: h.memory.text for h in hits}
    assert all(texts_by_id.get(mid) != target for mid, _ in lexical)
    assert target not in _texts(owner_dash, [mid for mid, _ in lexical])


LOOKALIKE_NAMES = [
    "Okonkwor runs the bakery on our street",
    "Okonko repaired the roof",
    "Okonkwe plays bass in the band",
    "My dentist is Dr Okafor",
    "Chidi Okoye leads the design team",
    "Okon from accounting approves expenses",
    "Ngozi Okonjo runs the book club",
]


def test_keyword_search_finds_a_rare_proper_noun_the_vector_arm_ranks_low(
    owner_dash: Actor,
) -> None:
    target = "Okonkwo fixed my cracked crown in one visit"
    _add_all(owner_dash, [*DISTRACTORS, *LOOKALIKE_NAMES, target])
    query = "Okonkwo"

    qvec = get_embedder().embed_query(query)
    visible, params = visible_sql(owner_dash)
    dense = [
        mid
        for mid, _ in scoring.dense_arm(
            qvec, owner_id=owner_dash.user.pk, visible=visible, params=params
        )
    ]
    dense_texts = _texts(owner_dash, dense)
    assert dense_texts.index(target) >= 2, "the dense arm alone ranks look-alike names higher"

    hits = memory_search(actor=owner_dash, query=query, limit=3)
    assert hits[0].memory.text == target


def test_archived_and_paused_memories_never_appear_in_search(owner_dash: Actor) -> None:
    a = adding.memory_create(actor=owner_dash, text="The spare key is under the blue pot").memory
    b = adding.memory_create(actor=owner_dash, text="The spare key is with the neighbour").memory
    changing.memory_set_state(actor=owner_dash, memory_ids=[a.id], state="archived")
    changing.memory_set_state(actor=owner_dash, memory_ids=[b.id], state="paused")
    assert memory_search(actor=owner_dash, query="where is the spare key") == []


def test_update_makes_search_find_the_new_text_not_the_old(owner_dash: Actor) -> None:
    _add_all(owner_dash, DISTRACTORS[:20])
    memory = adding.memory_create(actor=owner_dash, text="My dentist is Dr Okafor").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="My dentist is Dr Lindqvist")
    assert memory_search(actor=owner_dash, query="Okafor", limit=5) == [] or all(
        "Okafor" not in h.memory.text for h in memory_search(actor=owner_dash, query="Okafor")
    )
    hits = memory_search(actor=owner_dash, query="Lindqvist", limit=1)
    assert hits[0].memory.id == memory.id


def test_category_filter_limits_search(owner_dash: Actor) -> None:
    adding.memory_create(actor=owner_dash, text="Standup is at nine", categories=["work"])
    adding.memory_create(actor=owner_dash, text="Yoga is at nine", categories=["hobbies"])
    hits = memory_search(actor=owner_dash, query="what is at nine", category="work")
    assert [h.memory.text for h in hits] == ["Standup is at nine"]


def _texts(actor: Actor, ids: list[uuid.UUID]) -> list[str]:
    from memories.models import Memory

    rows = Memory.objects.filter(owner=actor.user, id__in=ids).in_bulk()
    return [rows[i].text for i in ids if i in rows]


def _insert_synthetic(owner_id: int, n: int, seed: int) -> None:
    """n rows with random unit vectors for owner_id, straight into the table."""
    with connection.cursor() as cur:
        cur.execute(
            """
            INSERT INTO memories_memory (id, owner_id, text, text_key, embedding, embedding_model,
                tsv, state, categories, categories_set_by_user, is_private, hidden_from, origin,
                origin_app_name, provenance, metadata, created_at, updated_at)
            SELECT gen_random_uuid(), %(owner)s, 'synthetic row ' || g || ' ' || %(seed)s,
                   md5(%(seed)s || '-' || g), v.vec, %(model)s,
                   to_tsvector('english', 'synthetic row ' || g), 'active', '{}', false, false,
                   '{}', 'app', 'bench', '{}', '{}', now(), now()
            FROM generate_series(1, %(n)s) g,
                 LATERAL (SELECT array_agg(random() - 0.5)::vector AS vec
                          FROM generate_series(1, 384) d WHERE d > g * 0) v
            """,
            {
                "owner": owner_id,
                "n": n,
                "seed": seed,
                "model": "sentence-transformers/all-MiniLM-L6-v2",
            },
        )


@pytest.mark.slow
@pytest.mark.parametrize("use_index", [True, False], ids=["in-memory index", "SQL scan"])
def test_search_is_exact_for_every_tenant_size_in_a_shared_table(db: None, use_index: bool) -> None:
    others = User.objects.create_user("crowd@example.com")
    _insert_synthetic(others.pk, 20_000, seed=1)
    sizes = [1, 5, 50, 500, 5000]
    tenants = {}
    for size in sizes:
        user = User.objects.create_user(f"tenant{size}@example.com")
        _insert_synthetic(user.pk, size, seed=size)
        tenants[size] = user
    with connection.cursor() as cur:
        # Someone adding an ANN index later must not make per-tenant search lossy.
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cur.execute(
            "CREATE INDEX test_hnsw ON memories_memory USING hnsw (embedding vector_cosine_ops)"
        )
        cur.execute("ANALYZE memories_memory")

    rng = np.random.default_rng(7)
    for size, user in tenants.items():
        actor = owner_actor(user)
        visible, params = visible_sql(actor)
        qvec = rng.standard_normal(384).astype(np.float32)
        got = scoring.dense_arm(
            qvec, owner_id=user.pk, visible=visible, params=params, depth=10, use_index=use_index
        )
        with connection.cursor() as cur:
            cur.execute(
                "SELECT id, embedding::text FROM memories_memory WHERE owner_id = %s", [user.pk]
            )
            rows = cur.fetchall()
        ids = [r[0] for r in rows]
        matrix = np.array([json.loads(r[1]) for r in rows], dtype=np.float64)
        cos = matrix @ qvec / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(qvec))
        exact = [ids[i] for i in np.argsort(-cos, kind="stable")[: min(10, size)]]
        assert [mid for mid, _ in got] == exact, f"tenant of {size} lost rows"


# ---- the in-memory index stays true to the table -----------------------------------------------


def _top_texts(actor: Actor, query: str, limit: int = 3) -> list[str]:
    return [h.memory.text for h in memory_search(actor=actor, query=query, limit=limit)]


def test_a_write_behind_the_service_layer_is_seen_by_the_next_search(owner_dash: Actor) -> None:
    _add_all(owner_dash, DISTRACTORS[:20])
    target = adding.memory_create(actor=owner_dash, text="The spare key is under the doormat")
    assert _top_texts(owner_dash, "spare key")[0] == "The spare key is under the doormat"
    text = "The quokka sanctuary opens at dawn"
    vector = get_embedder().embed([text])[0]
    with connection.cursor() as cur:  # as a raw bulk write or a second process would
        cur.execute(
            "UPDATE memories_memory SET text = %s, tsv = to_tsvector('english', %s), "
            "embedding = %s::vector WHERE owner_id = %s AND id = %s",
            [text, text, embeddings.vector_literal(vector), owner_dash.user.pk, target.memory.id],
        )
    assert _top_texts(owner_dash, "quokka sanctuary")[0] == text
    assert "The spare key is under the doormat" not in _top_texts(owner_dash, "spare key", 10)


def test_a_rolled_back_write_never_shows_in_a_later_search(owner_dash: Actor) -> None:
    _add_all(owner_dash, DISTRACTORS[:20])
    assert not any("quokka" in t for t in _top_texts(owner_dash, "quokka", 10))

    class Undo(Exception):
        pass

    try:
        with transaction.atomic():
            adding.memory_create(actor=owner_dash, text="Feeds the quokkas at the sanctuary")
            assert _top_texts(owner_dash, "quokkas")[0] == "Feeds the quokkas at the sanctuary"
            raise Undo
    except Undo:
        pass
    assert "Feeds the quokkas at the sanctuary" not in _top_texts(owner_dash, "quokkas", 10)
    adding.memory_create(actor=owner_dash, text="Another memory, written after the rollback")
    assert "Feeds the quokkas at the sanctuary" not in _top_texts(owner_dash, "quokkas", 10)


@pytest.mark.parametrize("cache_mb", [128, 0], ids=["in-memory index", "PostgreSQL"])
def test_an_apps_next_search_hides_a_category_the_owner_just_marked_sensitive(
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    settings: SettingsWrapper,
    cache_mb: int,
) -> None:
    """This process remembers the owner's category marks from the app's first search; the
    second search, with the same actor, must still rank with the marks as they are now."""
    settings.SEARCH_CACHE_MB = cache_mb
    app = app_actor(owner_dash.user, "Claude")
    _add_all(owner_dash, DISTRACTORS[:10])
    category_add(actor=owner_dash, slug="diary", description="")
    entry = adding.memory_create(
        actor=owner_dash, text="Wrote in my diary about the panic attacks", categories=["diary"]
    ).memory
    assert entry.id in {h.memory.id for h in memory_search(actor=app, query="panic attacks")}

    category_update(actor=owner_dash, slug="diary", sensitive=True)
    assert entry.id not in {h.memory.id for h in memory_search(actor=app, query="panic attacks")}
    assert entry.id in {h.memory.id for h in memory_search(actor=owner_dash, query="panic attacks")}


@pytest.mark.parametrize("cache_mb", [128, 0], ids=["in-memory index", "PostgreSQL"])
def test_an_apps_scores_never_depend_on_memories_it_cannot_see(
    owner: User,
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    settings: SettingsWrapper,
    cache_mb: int,
) -> None:
    settings.SEARCH_CACHE_MB = cache_mb
    app = app_actor(owner, "Claude")
    _add_all(owner_dash, DISTRACTORS[:30])
    adding.memory_create(actor=owner_dash, text="I run by the river before work")
    before = [(h.memory.id, h.score) for h in memory_search(actor=app, query="running route")]
    assert before

    # Memories about running the app may not see: a sensitive category, private, hidden from it.
    adding.memory_create(
        actor=owner_dash, text="I run to manage my heart condition", categories=["health"]
    )
    private = adding.memory_create(actor=owner_dash, text="My running route passes her house")
    marks.memory_set_visibility(actor=owner_dash, memory_id=private.memory.id, private=True)
    hidden = adding.memory_create(actor=owner_dash, text="Running route: the canal path")
    marks.memory_set_visibility(
        actor=owner_dash, memory_id=hidden.memory.id, hide_from_app=app.app.pk
    )

    after = [(h.memory.id, h.score) for h in memory_search(actor=app, query="running route")]
    assert [m for m, _ in after] == [m for m, _ in before]
    # Equal up to float32 rounding of the dot products (the index's matrix grew by three rows).
    assert all(abs(a - b) < 1e-6 for (_, a), (_, b) in zip(after, before, strict=True))
    owner_sees = {h.memory.id for h in memory_search(actor=owner_dash, query="running route")}
    assert hidden.memory.id in owner_sees and private.memory.id in owner_sees


def test_the_in_memory_index_and_postgresql_rank_the_same(
    owner: User, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    app = app_actor(owner, "Cursor")
    _add_all(owner_dash, [*DISTRACTORS, *LOOKALIKE_NAMES])
    adding.memory_create(
        actor=owner_dash, text="My cardiologist checks my heart every spring", categories=["health"]
    )
    qvecs = {q: get_embedder().embed_query(q) for q in ("Okonkwo", "heart doctor", "coffee tea")}
    for actor in (owner_dash, app):
        visible, params = visible_sql(actor)
        for q, qvec in qvecs.items():
            results = []
            for use_index in (True, False):
                found = scoring.UserSearch(
                    owner.pk,
                    visible=visible,
                    params=params,
                    query=q,
                    whole_store=actor.app.is_owner_app,
                    use_index=use_index,
                ).best(qvec, limit=10, min_score=0.0)
                results.append(found)
            indexed, in_sql = results
            assert [c.id for c in indexed] == [c.id for c in in_sql], q
            assert all(abs(a.score - b.score) < 1e-5 for a, b in zip(indexed, in_sql, strict=True))


def test_a_filtered_search_ranks_the_same_in_the_index_and_in_postgresql(
    owner: User, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    """The dashboard's filters narrow the search itself (not its results): the index and
    PostgreSQL rank the same narrowed rows, and every hit meets every filter."""
    claude = app_actor(owner, "Claude")
    _add_all(owner_dash, DISTRACTORS)
    for i, text in enumerate(["I run along the river", "I run in the park", "Running shoes"]):
        made = adding.memory_create(actor=claude, text=f"{text} ({i})").memory
        if i:
            marks.memory_set_pinned(actor=owner_dash, memory_ids=[made.id], pinned=True)
    qvec = get_embedder().embed_query("running")
    for filters in (
        MemoryFilters(app_name="Claude"),
        MemoryFilters(app_name="Claude", pinned=True),
        MemoryFilters(uncategorised=True, created_before=timezone.now()),
    ):
        visible, params, whole_store = search_scope(owner_dash, filters)
        assert whole_store is False
        indexed, in_sql = (
            scoring.UserSearch(
                owner.pk,
                visible=visible,
                params=params,
                query="running",
                whole_store=whole_store,
                use_index=use_index,
            ).best(qvec, limit=10, min_score=0.0)
            for use_index in (True, False)
        )
        assert [c.id for c in indexed] == [c.id for c in in_sql] and indexed, filters
        assert all(abs(a.score - b.score) < 1e-5 for a, b in zip(indexed, in_sql, strict=True))
    hits = memory_search(
        actor=owner_dash, query="running", filters=MemoryFilters(app_name="Claude", pinned=True)
    )
    assert sorted(h.memory.text for h in hits) == ["I run in the park (1)", "Running shoes (2)"]


def test_the_index_keeps_every_contender_when_cosines_tie_at_either_clip(
    owner: User,
    owner_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    settings: SettingsWrapper,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The index scores twice only the memories holding a query word and the best cosines of the
    rest: forty near copies of the query's vector (cosines between cosine_full and 1, all at the
    top clip), hundreds of negative cosines (all at zero), memories without a vector and memories
    hidden from the app must still come out as PostgreSQL's full computation ranks them, ties by
    id."""
    # The ties at the clips are the point: a profile whose full cosine is below 1 (MiniLM's .8;
    # multilingual-e5-small's is 1, where nothing ties short of identical vectors).
    monkeypatch.setitem(model_profiles.PROFILES, settings.EMBEDDING_MODEL, model_profiles.MINILM)
    app = app_actor(owner, "Cursor")
    _insert_synthetic(owner.pk, 1500, seed=3)
    rng = np.random.default_rng(11)
    qvec = rng.uniform(-0.5, 0.5, 384).astype(np.float32)
    # The closer a copy, the later its id: ranking the ties by cosine would pick the wrong ones.
    near = [qvec + rng.uniform(-s, s, 384).astype(np.float32) for s in np.linspace(0.3, 0.05, 40)]
    full = current_profile().search.weights.cosine_full
    assert min(relevance.exact_cosines(np.array(near), qvec)) > full
    with connection.cursor() as cur:
        cur.execute("SELECT id FROM memories_memory WHERE owner_id = %s ORDER BY id", [owner.pk])
        ids = [row[0] for row in cur.fetchall()]
        for memory_id, vector in zip(ids[:40], near, strict=True):
            cur.execute(
                "UPDATE memories_memory SET embedding = %s::vector WHERE id = %s",
                [embeddings.vector_literal(vector), memory_id],
            )
        cur.execute(
            "UPDATE memories_memory SET text = text || ' quokka', "
            "tsv = to_tsvector('english', text || ' quokka') WHERE id = ANY(%s)",
            [ids[-25:]],
        )
        cur.execute(
            "UPDATE memories_memory SET embedding = NULL WHERE id = ANY(%s)", [ids[100:120]]
        )
        cur.execute(
            "UPDATE memories_memory SET hidden_from = ARRAY[%s]::bigint[] WHERE id = ANY(%s)",
            [app.app.pk, ids[20:80]],
        )
    for actor in (owner_dash, app):
        visible, params = visible_sql(actor)
        for limit, min_score in ((10, current_profile().search.min_score), (1200, 0.0)):
            indexed, in_sql = (
                scoring.UserSearch(
                    owner.pk,
                    visible=visible,
                    params=params,
                    query="quokka",
                    whole_store=actor.app.is_owner_app,
                    use_index=use_index,
                ).best(qvec, limit=limit, min_score=min_score)
                for use_index in (True, False)
            )
            assert len(indexed) == min(limit, len(in_sql)) and len(in_sql) > 0
            assert [c.id for c in indexed] == [c.id for c in in_sql], (actor, limit)
            assert all(abs(a.score - b.score) < 1e-5 for a, b in zip(indexed, in_sql, strict=True))


# ---- relevance: scores that mean the same for every query, and "nothing relevant" ----------------


def test_a_query_about_something_not_in_the_store_returns_nothing(owner_dash: Actor) -> None:
    _add_all(owner_dash, DISTRACTORS)
    for query in ("xyzzy qwerty nonsense", "submarine periscope maintenance"):
        hits = memory_search(actor=owner_dash, query=query)
        assert hits == [] and hits.nothing_relevant, (query, [h.memory.text for h in hits])


def test_a_relevant_memory_clears_the_cut_off_and_filler_does_not(owner_dash: Actor) -> None:
    _add_all(owner_dash, DISTRACTORS)
    hits = memory_search(actor=owner_dash, query="Which antibiotic am I allergic to?", limit=10)
    assert hits[0].memory.text == "I am allergic to penicillin"
    assert len(hits) < 10, "unrelated memories are left out, not padded up to the limit"
    assert all(h.score >= current_profile().search.min_score for h in hits)
    everything = memory_search(
        actor=owner_dash, query="Which antibiotic am I allergic to?", limit=10, min_score=0
    )
    assert len(everything) == 10 and everything[: len(hits)] == hits


def test_a_score_is_an_absolute_relevance_not_a_rank(owner_dash: Actor) -> None:
    _add_all(owner_dash, DISTRACTORS)
    exact = memory_search(actor=owner_dash, query="I collect vinyl records")[0]
    assert exact.memory.text == "I collect vinyl records" and exact.score > 0.8
    weak = memory_search(actor=owner_dash, query="xyzzy qwerty", min_score=0)[0]
    cut_off = current_profile().search.min_score
    assert weak.score < cut_off, "the best of nothing is not scored as a match"


def test_whatever_ranked_them_the_row_fetch_loads_only_memories_the_caller_may_see(
    owner: User,
    owner_dash: Actor,
    stranger_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from activity.models import AccessEvent

    app = app_actor(owner, "Claude")
    shown = adding.memory_create(actor=owner_dash, text="I run by the river before work")
    sensitive = adding.memory_create(
        actor=owner_dash, text="I run to manage my heart condition", categories=["health"]
    )
    private = adding.memory_create(actor=owner_dash, text="My running route passes her house")
    marks.memory_set_visibility(actor=owner_dash, memory_id=private.memory.id, private=True)
    theirs = adding.memory_create(actor=stranger_dash, text="I run marathons every spring")
    ranked = [sensitive, private, theirs, shown]
    # A ranking that went wrong (or a memory hidden between ranking and fetch): the fetch's own
    # consent check is the last word.
    monkeypatch.setattr(
        scoring.UserSearch,
        "best",
        lambda *a, **k: [
            relevance.Candidate(r.memory.id, 0.9 - i / 10) for i, r in enumerate(ranked)
        ],
    )
    hits = memory_search(actor=app, query="running")
    assert [(h.memory.id, h.memory.text) for h in hits] == [(shown.memory.id, shown.memory.text)]
    assert hits[0].memory.get_deferred_fields() == {"embedding", "tsv"}
    event = AccessEvent.objects.filter(app=app.app, action=AccessEvent.Action.SEARCH).get()
    assert event.memory_ids == [shown.memory.id]
