"""Every threshold tied to an embedding model's space has one home, a profile per model
(memories/search/model_profiles.py). all-MiniLM-L6-v2 keeps the values it was tuned with, so a
store can go back to it and search, classify and extract as before."""

from collections.abc import Callable

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.classify import classifier_for
from memories.extraction.local import local_extractor
from memories.extraction.repeats import RepeatIndex
from memories.search import index as search_index
from memories.search import model_profiles
from memories.search.embeddings import E5_MODEL, MINILM_MODEL
from memories.search.model_profiles import LocalThresholds, Thresholds, Weights
from memories.search.relevance import meaning_relevance
from memories.search.scoring import UserSearch
from memories.selectors.memories import memory_search
from memories.services.adding import NewMemory, memory_create_many
from memories.services.marks import memory_set_private_many
from memories.visibility import visible_sql
from tests.search_profiles import without_second_arm


def test_minilm_keeps_the_values_it_was_tuned_with() -> None:
    minilm = model_profiles.profile_for(MINILM_MODEL)
    assert minilm.search.bm25_k1 == 1.6 and minilm.search.bm25_b == 0.3
    assert minilm.search.weights == Weights(
        cosine_full=0.8,
        keyword_full=1.25,
        semantic_weight=0.5,
        keyword_weight=1.4,
        unknown_floor=0.25,
        store_full=200,
        cosine_zero=0.0,  # no baseline: the same bits as before baselines existed
    )
    assert minilm.search.short_unknown_floor == 0.7
    assert minilm.search.short_weights.unknown_floor == 0.7
    assert minilm.search.min_score == 0.2
    assert minilm.search.unknown_min_score is None  # one cut-off for every query, as before
    assert minilm.search.answered_floor is None  # every result held to it
    assert minilm.classifier == Thresholds(
        minimum=0.25,
        margin=0.02,
        sensitive=0.50,
        uncertain_margin=0.03,
        uncertain_floor=0.20,
        ordinary_margin=0.03,
        max_labels=3,
        top_k=3,
        english_veto=0.05,
    )
    assert minilm.extractor == LocalThresholds(threshold=0.0, top_k=3)
    assert minilm.repeat_cosine == 0.6


def test_a_short_query_the_store_partly_holds_is_discounted_more_the_less_it_holds() -> None:
    """A short query none of whose words the store holds keeps the short floor (judged by
    meaning); one the store holds a part of has its absent words discounted from the general
    floor, eased towards the short one by the part held; a long query the general floor."""
    search = model_profiles.profile_for(MINILM_MODEL).search

    def floor(*, short: bool, known: float) -> float:
        return search.weights_for(short=short, ideal=10.0, known=known).unknown_floor

    assert floor(short=True, known=0.0) == search.short_unknown_floor
    eased = [floor(short=True, known=k) for k in (1.0, 3.0, 6.0, 10.0)]
    assert search.weights.unknown_floor < eased[0] < eased[1] < eased[2] < eased[3]
    assert eased[3] == pytest.approx(search.short_unknown_floor)
    assert floor(short=False, known=0.0) == floor(short=False, known=3.0) == 0.25


def test_a_model_without_a_profile_of_its_own_gets_minilms() -> None:
    assert model_profiles.profile_for("BAAI/bge-small-en-v1.5") is model_profiles.MINILM
    assert set(model_profiles.PROFILES) == {MINILM_MODEL, E5_MODEL}


@pytest.mark.parametrize("model", [MINILM_MODEL, E5_MODEL])
def test_the_classifier_extractor_and_repeats_read_the_current_models_profile(
    settings: SettingsWrapper, model: str
) -> None:
    settings.EMBEDDING_MODEL = model
    profile = model_profiles.profile_for(model)
    assert model_profiles.current() is profile
    assert classifier_for().thresholds == profile.classifier
    assert local_extractor().thresholds == profile.extractor
    assert RepeatIndex[str]().cosine == profile.repeat_cosine


@pytest.mark.django_db
def test_a_store_on_minilm_still_finds_what_it_means_and_leaves_out_what_it_does_not(
    settings: SettingsWrapper, owner_dash: Actor
) -> None:
    """A store that goes back to all-MiniLM-L6-v2 searches with MiniLM's own score and cut-off:
    a paraphrase sharing no word is found, a query about nothing in the store returns nothing."""
    settings.EMBEDDING_MODEL = MINILM_MODEL
    texts = [
        "My daughter Mia starts kindergarten in September",
        "I am allergic to penicillin",
        "The car needs new winter tyres",
        "I collect vinyl records",
        "My brother lives in Toronto",
    ]
    memory_create_many(actor=owner_dash, items=[NewMemory(text=t) for t in texts])
    hits = memory_search(actor=owner_dash, query="when does my kid begin school?")
    assert hits and hits[0].memory.text == texts[0]
    assert hits[0].memory.embedding_model == MINILM_MODEL
    assert hits.min_score == model_profiles.MINILM.search.min_score
    assert memory_search(actor=owner_dash, query="submarine periscope maintenance") == []


def test_a_cosine_at_the_models_baseline_is_no_evidence_of_meaning() -> None:
    """multilingual-e5-small puts texts about different things near .75: that is no evidence a
    memory is related; MiniLM's score is a cosine over its full mark, as before baselines."""
    e5 = model_profiles.E5_SEARCH_RETUNE.weights
    assert meaning_relevance(e5.cosine_zero, e5) == 0.0
    assert meaning_relevance(0.74, e5) == 0.0
    assert 0.0 < meaning_relevance(0.85, e5) < meaning_relevance(0.95, e5) <= 1.0
    minilm = model_profiles.MINILM.search.weights
    for cosine in (0.1, 0.37, 0.8, 0.93):
        expected = 1 - (1 - min(cosine / 0.8, 1.0)) ** 0.5
        assert meaning_relevance(cosine, minilm) == expected  # the same bits


@pytest.mark.django_db
def test_a_user_whose_vectors_are_e5_is_searched_with_e5s_score_whatever_the_process_model(
    settings: SettingsWrapper, owner_dash: Actor
) -> None:
    """The profile is the one of the model of the user's vectors (memories/search/moves.py), not
    the process's EMBEDDING_MODEL: a store on e5 is cut at e5's cut-off, and its Chinese and
    Japanese memories are found by a word of their own language."""
    settings.EMBEDDING_MODEL = E5_MODEL  # the user's first memory puts them on e5
    texts = [
        "我对花生过敏，吃了会起疹子。",  # noqa: RUF001 - a Chinese comma
        "私は毎朝ジョギングをしています。",
        "Mein Bruder wohnt in Hamburg und arbeitet als Koch.",
        "I play the cello in a community orchestra.",
    ]
    memory_create_many(actor=owner_dash, items=[NewMemory(text=t) for t in texts])
    settings.EMBEDDING_MODEL = MINILM_MODEL
    hits = memory_search(actor=owner_dash, query="过敏")
    assert hits.min_score == model_profiles.E5.search.min_score
    assert hits[0].memory.text == texts[0] and hits[0].memory.embedding_model == E5_MODEL
    assert memory_search(actor=owner_dash, query="ジョギング")[0].memory.text == texts[1]
    assert memory_search(actor=owner_dash, query="Koch")[0].memory.text == texts[2]


@pytest.mark.django_db
@pytest.mark.parametrize("cache_mb", [128, 0], ids=["in-memory index", "PostgreSQL"])
def test_e5_discounts_a_query_the_store_does_not_know_by_the_memories_in_its_language(
    settings: SettingsWrapper, owner_dash: Actor, cache_mb: int
) -> None:
    """An English word for a Chinese memory shares no lexeme with a Chinese store whatever it is
    about: under e5 the discount for an unknown query counts only the memories that could have
    held its words (`UserSearch.kin_share`), the same on both paths; MiniLM counts every one."""
    settings.EMBEDDING_MODEL = E5_MODEL
    settings.SEARCH_CACHE_MB = cache_mb
    search_index.clear()
    texts = [
        "我对花生过敏，吃了会起疹子。",  # noqa: RUF001 - a Chinese comma
        "我在一家软件公司做产品经理，已经工作五年了。",  # noqa: RUF001
        "我们明年秋天打算带父母去日本旅行两周。",
        "仕事が忙しくて、最近あまり眠れていません。",
        "Mein Bruder wohnt in Hamburg und arbeitet als Koch.",
        "Wir haben einen Dackel namens Bruno und zwei Katzen.",
        "I play the cello in a community orchestra every Thursday.",
        "My daughter starts kindergarten in September.",
    ]
    memory_create_many(actor=owner_dash, items=[NewMemory(text=t) for t in texts])
    visible, params = visible_sql(owner_dash)

    def opened(query: str) -> UserSearch:
        return UserSearch(
            owner_dash.user.pk, visible=visible, params=params, query=query, whole_store=True
        )

    shares = {"peanut allergy": 2 / 8, "过敏": 4 / 8, "Wo wohnt mein Bruder?": 2 / 8}
    for query, share in shares.items():
        found = opened(query)
        assert found.model == E5_MODEL and found.kin_share == share, query
    for query in (*shares, "dachshund", "子供"):
        qvec = opened(query).embed_query()
        answers = [
            UserSearch(
                owner_dash.user.pk,
                visible=visible,
                params=params,
                query=query,
                whole_store=True,
                use_index=use_index,
            ).best(qvec, limit=8, min_score=0.0)
            for use_index in (True, False)
        ]
        assert answers[0] == answers[1], query
    assert memory_search(actor=owner_dash, query="food allergy")[0].memory.text == texts[0]


@pytest.mark.django_db
@pytest.mark.parametrize("cache_mb", [128, 0], ids=["in-memory index", "PostgreSQL"])
def test_memories_an_app_may_not_see_do_not_move_the_scores_it_reads_under_e5(
    settings: SettingsWrapper,
    owner_dash: Actor,
    stranger_dash: Actor,
    app_actor: Callable[[User, str], Actor],
    cache_mb: int,
) -> None:
    """The discount of an unknown query counts the memories in its language among those the
    caller sees: the owner's private Chinese memories neither lower an app's scores nor tell it,
    by a score, that they exist. Two stores the app sees alike answer it alike."""
    settings.EMBEDDING_MODEL = E5_MODEL
    settings.SEARCH_CACHE_MB = cache_mb
    search_index.clear()
    shared = [
        "I play the cello in a community orchestra every Thursday.",
        "My daughter starts kindergarten in September.",
        "Wir haben einen Dackel namens Bruno und zwei Katzen.",
        "我在一家软件公司做产品经理，已经工作五年了。",  # noqa: RUF001 - a Chinese comma
    ]
    private = [
        "我对花生过敏，吃了会起疹子。",  # noqa: RUF001
        "我们明年秋天打算带父母去日本旅行两周。",
        "我每天早上六点起床跑步。",
    ]
    for dash in (owner_dash, stranger_dash):
        memory_create_many(actor=dash, items=[NewMemory(text=t) for t in shared])
    hidden = memory_create_many(actor=owner_dash, items=[NewMemory(text=t) for t in private])
    memory_set_private_many(
        actor=owner_dash, memory_ids=[r.memory.id for r in hidden], private=True
    )
    apps = [app_actor(dash.user, "Assistant") for dash in (owner_dash, stranger_dash)]

    def answer(app: Actor, query: str) -> list[tuple[str, float]]:
        hits = memory_search(actor=app, query=query, limit=10, min_score=0.0)
        return [(hit.memory.text, hit.score) for hit in hits]

    for query in ("dachshund", "peanut allergy", "cello"):
        seen = answer(apps[0], query)
        assert [text for text, _ in seen] and not {t for t, _ in seen} & set(private), query
        assert sorted(seen) == sorted(answer(apps[1], query)), query  # ties go by random ids


@pytest.mark.django_db
def test_minilm_counts_every_memory_in_the_discount(owner_dash: Actor) -> None:
    memory_create_many(
        actor=owner_dash,
        items=[NewMemory(text="我对花生过敏。"), NewMemory(text="I collect vinyl records.")],
    )
    visible, params = visible_sql(owner_dash)
    found = UserSearch(owner_dash.user.pk, visible=visible, params=params, query="peanut allergy")
    assert found.model == MINILM_MODEL and found.kin_share == 1.0


@pytest.mark.django_db
@pytest.mark.parametrize("cache_mb", [128, 0], ids=["in-memory index", "PostgreSQL"])
def test_e5_holds_a_short_query_its_store_does_not_know_to_a_higher_cut_off(
    settings: SettingsWrapper, owner_dash: Actor, cache_mb: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under e5 a one-word query sits near every memory: a short query none of whose words a
    memory holds is held to the profile's `unknown_min_score`, raised from `min_score` by the
    share of the store in a language that could have held its words, the same on both paths. A
    word the store holds, a question, or a query in another language keep `min_score`."""
    # The cut-offs alone: the second arm re-orders an answer after them (test_second_arm.py).
    without_second_arm(monkeypatch)
    settings.EMBEDDING_MODEL = E5_MODEL
    settings.SEARCH_CACHE_MB = cache_mb
    search_index.clear()
    texts = [
        "我家有一只柯基，叫豆豆，三岁了。",  # noqa: RUF001 - a Chinese comma
        "我每天早上坐地铁去公司上班。",
        "我对花生过敏，吃了会起疹子。",  # noqa: RUF001
        "Wir haben einen Dackel namens Bruno.",
    ]
    memory_create_many(actor=owner_dash, items=[NewMemory(text=t) for t in texts])
    search = model_profiles.E5.search
    assert search.unknown_min_score is not None and search.unknown_min_score > search.min_score
    raised = search.min_score + (search.unknown_min_score - search.min_score) * 3 / 4
    for query, cut_off in (
        ("乐器", raised),  # "instrument": no memory holds it or its related terms; 3 of 4 could
        ("过敏", search.min_score),  # held by the allergy memory
        ("宠物", search.min_score),  # "pet": its related term 柯基 (corgi) is held
        ("我家的宠物叫什么名字，它几岁了？", search.min_score),  # a question, not short  # noqa: RUF001
        ("Posaune", search.min_score + (search.unknown_min_score - search.min_score) / 4),
    ):
        hits = memory_search(actor=owner_dash, query=query)
        if cut_off == search.min_score:
            assert hits.min_score == pytest.approx(cut_off), query
        else:  # unknown and short: the best must reach the raised cut-off (see the next test)
            assert (hits[0].score >= cut_off and hits.min_score == search.answered_floor) or (
                not hits and hits.min_score == pytest.approx(cut_off)
            ), query
        assert all(h.score >= hits.min_score for h in hits), query
    assert memory_search(actor=owner_dash, query="宠物")[0].memory.text == texts[0]
    # Asked for a cut-off, the caller gets that one.
    assert memory_search(actor=owner_dash, query="宠物", min_score=0.0).min_score == 0.0


# One person's memories in German, Chinese and Japanese, none holding the words asked below.
ANSWERED_AS_A_WHOLE = [
    "Unser Sohn Paul ist zwei und geht in die Krippe.",
    "Unsere Tochter Mila ist sechs und geht in die erste Klasse.",
    "Ich arbeite als Krankenpflegerin in der Notaufnahme.",
    "Wir haben einen Dackel namens Bruno.",
    "Ich spiele Cello in einem Laienorchester.",
    "Mein Bruder wohnt in Hamburg.",
    "Ich fahre mit dem Rad zur Arbeit.",
    "Ich bin allergisch gegen Erdnüsse.",
    "我家有一只柯基，叫豆豆，三岁了。",  # noqa: RUF001 - a Chinese comma
    "我每天早上坐地铁去公司上班。",
    "我对花生过敏，吃了会起疹子。",  # noqa: RUF001
    "我儿子今年六岁，上小学一年级。",  # noqa: RUF001
    "我在一家软件公司做产品经理。",
    "我周末喜欢去爬山。",
    "我妈妈住在成都。",
    "我每天晚上弹一个小时钢琴。",
    "長男の蓮は小学三年生で、サッカー少年団に入っている。",
    "次男の湊は四歳で、保育園の年中さん。",
    "毎朝ジョギングをしています。",
    "猫を二匹飼っています。",
    "IT企業でエンジニアをしています。",
    "実家は札幌にあります。",
    "週末はよく料理をします。",
    "花粉症がひどいです。",
]


@pytest.mark.django_db
@pytest.mark.parametrize("cache_mb", [128, 0], ids=["in-memory index", "PostgreSQL"])
def test_e5_answers_a_short_unknown_query_as_a_whole_its_results_held_to_a_lower_floor(
    settings: SettingsWrapper, owner_dash: Actor, cache_mb: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under e5 a short query none of whose words a memory holds is found by meaning alone: it
    is answered only when its best memory reaches the query's cut-off, and then its other
    results are held to the profile's lower `answered_floor` (a synonym's memory scores near the
    best one, not above the cut-off). The caller is told the floor the results were held to, or,
    with nothing, the cut-off the best missed; the same on both paths, in each language."""
    # The cut-offs alone: the second arm re-orders an answer after them (test_second_arm.py).
    without_second_arm(monkeypatch)
    settings.EMBEDDING_MODEL = E5_MODEL
    settings.SEARCH_CACHE_MB = cache_mb
    search_index.clear()
    memory_create_many(actor=owner_dash, items=[NewMemory(text=t) for t in ANSWERED_AS_A_WHOLE])
    search = model_profiles.E5.search
    assert search.answered_floor is not None and search.unknown_min_score is not None
    assert search.answered_floor < search.min_score
    visible, params = visible_sql(owner_dash)
    below_cut_off = {}
    for query in ("Musik", "サーフィン", "火山", "子供", "pets", "Vulkan"):
        kin = UserSearch(owner_dash.user.pk, visible=visible, params=params, query=query).kin_share
        cut_off = search.unknown_min_score * kin + search.min_score * (1 - kin)
        hits = memory_search(actor=owner_dash, query=query, limit=5)
        uncut = memory_search(actor=owner_dash, query=query, limit=5, min_score=0.0)
        if uncut[0].score < cut_off:
            assert not hits and hits.min_score == pytest.approx(cut_off), query
            continue
        assert hits.min_score == search.answered_floor, query
        held = [(h.memory.text, h.score) for h in uncut if h.score >= search.answered_floor]
        assert [(h.memory.text, h.score) for h in hits] == held, query
        below_cut_off[query] = [text for text, score in held if score < cut_off]
    # "Musik" finds the cello first, and keeps memories the cut-off alone would have left out;
    # so does the Japanese "サーフィン" (surfing). "Vulkan" (volcano) is about nothing here.
    assert memory_search(actor=owner_dash, query="Musik")[0].memory.text == ANSWERED_AS_A_WHOLE[4]
    assert below_cut_off["Musik"] and below_cut_off["サーフィン"], below_cut_off
    assert "Vulkan" not in below_cut_off
