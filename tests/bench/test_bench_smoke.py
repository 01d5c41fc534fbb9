"""The LoCoMo benchmark's recall arithmetic, on a tiny conversation through the real code path."""

import json
from pathlib import Path

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from bench import locomo, locomo_candidates, multilingual, shortqueries

pytestmark = pytest.mark.django_db

SAMPLE = [
    {
        "sample_id": "tiny",
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {
                    "speaker": "Caroline",
                    "dia_id": "D1:1",
                    "text": "I keep my red kayak in the garage.",
                },
                {"speaker": "Melanie", "dia_id": "D1:2", "text": "Thanks!"},
                {"speaker": "Melanie", "dia_id": "D1:3", "text": "Thanks!"},
                {
                    "speaker": "Caroline",
                    "dia_id": "D1:4",
                    "text": "We paddle on the lake every Saturday.",
                    "blip_caption": "a photo of a lake at dawn",
                },
            ],
        },
        "qa": [
            # Gold: one turn every retriever puts first, one it cannot rank first.
            {"question": "Where is the red kayak kept?", "evidence": ["D1:1; D1:4"], "category": 1},
            {"question": "What did Caroline realise?", "evidence": ["D9:9"], "category": 5},
            {"question": "Unanswerable adversarial?", "evidence": ["D1:2"], "category": 5},
        ],
    }
]


def test_locomo_loader_keeps_every_turn_distinct_and_parses_evidence(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(SAMPLE))
    (conv,) = locomo.load(path)
    texts = [t.text for t in conv.turns]
    assert len(set(texts)) == 4, "the repeated 'Thanks!' must not be merged"
    assert texts[0] == "Caroline: I keep my red kayak in the garage."
    assert texts[2] == "Melanie: Thanks! (1:56 pm on 8 May, 2023)"
    assert texts[3].endswith("[shares a photo of a lake at dawn]")
    # "D1:1; D1:4" holds two ids; D9:9 is no turn, so that question is dropped.
    assert [(q.gold, q.category) for q in conv.questions] == [
        (frozenset({"D1:1", "D1:4"}), 1),
        (frozenset({"D1:2"}), 5),
    ]


def test_locomo_recall_of_each_retriever_on_a_tiny_conversation(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(SAMPLE))
    result = locomo.evaluate(locomo.load(path), ks=[1, 4])
    assert set(result) == {*locomo.RETRIEVERS, "no_answer", "per_conversation", "cutoff_loco"}
    assert result["per_conversation"]["tiny"]["project"] == result["project"]["all_1_4"]
    (fold,) = result["cutoff_loco"]["folds"]
    assert fold["held_out"] == "tiny" and fold["questions"] == 1
    for name in locomo.RETRIEVERS:
        groups = result[name]
        assert set(groups) == {"all_1_4", "cat_1", "cat_5"}, name
        # The kayak turn comes first, the paddling turn does not: half the gold at k=1.
        assert groups["cat_1"]["R@1"] == 0.5, name
        assert groups["all_1_4"] == groups["cat_1"], name
        # Both kayak turns are within the top 4: all gold found.
        assert groups["cat_1"]["R@4"] == 1.0, name
    # Without a cut-off every turn is within the top 4; with it, "Thanks!" is not relevant to
    # "Unanswerable adversarial?" and is left out.
    for name in ("project_no_cutoff", "bm25", "dense"):
        assert result[name]["cat_5"]["R@4"] == 1.0, name
    assert result["project"]["cat_5"]["R@4"] == 0.0
    # The tiny conversation has no hand-written no-answer questions.
    assert result["no_answer"]["questions"] == 0


def test_locomo_candidates_embed_a_turn_with_the_previous_turn_of_its_session(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(SAMPLE))
    texts = locomo_candidates._context_texts(path)["tiny"]
    assert texts["plain"]["D1:2"] == "Melanie: Thanks!"
    assert texts["prev"]["D1:1"] == "Caroline: I keep my red kayak in the garage."
    assert texts["prev"]["D1:2"] == (
        "Caroline: I keep my red kayak in the garage.\nMelanie: Thanks!"
    )
    assert texts["title_date_prev"]["D1:1"] == (
        "Conversation between Caroline and Melanie, 1:56 pm on 8 May, 2023\n"
        "Caroline: I keep my red kayak in the garage."
    )


def test_locomo_candidates_score_the_shipped_search_as_bench_locomo_does(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(SAMPLE))
    shipped = locomo.evaluate(locomo.load(path), ks=[10])["project"]["all_1_4"]["R@10"]
    convs = locomo_candidates.collect(path)
    assert locomo_candidates.evaluate(convs)["R@10"] == shipped
    # A context share of 0 is the turn's own vector: the same ranking as the shipped search.
    mixed = locomo_candidates.evaluate(convs, locomo_candidates.context_cosines("prev", 0.0))
    assert mixed["R@10"] == shipped


def test_a_question_as_a_statement_loses_its_question_words() -> None:
    assert locomo_candidates.as_statement("What did Caroline research?") == "Caroline research"
    assert locomo_candidates.as_statement("When is the party?") == "the party"
    assert locomo_candidates.as_statement("Caroline's hobbies?") == "Caroline's hobbies"


def test_recall_at_k_is_the_share_of_gold_in_the_top_k() -> None:
    assert locomo.recall_at(["a", "b", "c"], {"b", "z"}, 1) == 0.0
    assert locomo.recall_at(["a", "b", "c"], {"b", "z"}, 2) == 0.5
    assert locomo.recall_at(["a", "b"], {"a", "b"}, 10) == 1.0


def test_shortqueries_reports_recall_at_5_per_split_through_the_search_service() -> None:
    memories = {
        "daughter": "My daughter Mila is 6 and goes to a bilingual school.",
        "manager": "My manager is called Priya and we have 1:1s on Tuesdays.",
        "bike": "My commuter bike is a Brompton that folds into the train.",
        "tea": "I drink green tea in the afternoon.",
    }
    queries = [
        shortqueries.ShortQuery("kids", "daughter", "dev"),
        shortqueries.ShortQuery("tea", "tea", "dev"),
        shortqueries.ShortQuery("boss", "manager", "held_out"),
        shortqueries.ShortQuery("xyzzy qwerty", None, "dev"),
    ]
    result = shortqueries.evaluate(memories, queries)
    assert result["dev"]["queries"] == 2 and result["held_out"]["queries"] == 1
    assert result["dev"]["R@5"] == 1.0 and result["held_out"]["R@5"] == 1.0
    assert result["dev"]["no_answer_queries"] == 1 and result["dev"]["false_hit_rate"] == 0.0
    assert result["dev_misses"] == []
    # The whole set loads, every target is a memory, and a third (by target) is held out.
    _, asked = shortqueries.load()
    answerable = [q for q in asked if q.target is not None]
    held = {q.target for q in answerable if q.split == "held_out"}
    assert len(answerable) >= 150
    assert 0.25 < len(held) / len({q.target for q in answerable}) < 0.42


@pytest.mark.slow
def test_move_reports_both_directions_and_mid_move_searches_equal_to_the_exact_search(
    settings: SettingsWrapper,
) -> None:
    from argparse import Namespace

    from bench import move

    settings.EMBEDDING_MODEL, settings.AUTO_CATEGORIZE = move.MINILM, True  # restored after
    figures = move.run(Namespace(memories=24, users=3, locomo=None))
    for key, model in (("to_e5", move.E5), ("back_to_minilm", move.MINILM)):
        assert figures[key]["model"] == model and figures[key]["done"]
        assert figures[key]["memories"] == 24 and figures[key]["users_switched"] == 3
        assert figures[key]["memories_per_s"] > 0 and figures[key]["raw_passages_per_s"] > 0
    mid = figures["mid_move_searches"]
    assert mid["searches"] == 9 and mid["equal_to_exact"] == 9
    assert set(mid["users_by_model"]) == {move.MINILM, move.E5}  # really half way


def test_multilingual_reports_same_and_cross_language_recall_per_split_and_language() -> None:
    stores = {
        "zh": {
            "zh-a": "我对花生过敏，吃了会起疹子。",  # noqa: RUF001
            "zh-b": "我在一家银行的总部做软件工程师。",
            "zh-c": "我们家养了一只叫豆豆的柯基犬。",
        },
        "de": {
            "de-a": "Wir haben einen Dackel namens Bruno.",
            "de-b": "Ich fahre jeden Tag mit dem Fahrrad zur Arbeit.",
        },
        "ja": {"ja-a": "毎朝、駅までバスで通っています。", "ja-b": "趣味は週末の登山です。"},
    }
    queries = [
        multilingual.Query("q1", "花生过敏", "zh-a", "zh", multilingual.SAME, "dev"),
        multilingual.Query("q2", "dog", "zh-c", "zh", multilingual.CROSS, "heldout"),
        multilingual.Query("q3", "Hund", "de-a", "de", multilingual.SAME, "heldout"),
        multilingual.Query("q4", "dachshund", "de-a", "de", multilingual.CROSS, "dev"),
        multilingual.Query("q5", "山登り", "ja-b", "ja", multilingual.SAME, "dev"),
        multilingual.Query("q6", "xyzzy qwerty", None, "ja", "no_answer", "dev"),
    ]
    result = multilingual.evaluate(stores, queries)
    dev, held = result["dev"], result["heldout"]
    assert dev["same"]["queries"] == 2 and held["same"]["queries"] == 1
    assert dev["cross"]["queries"] == 1 and held["cross"]["queries"] == 1
    assert dev["same"]["per_language"].keys() == {"zh", "ja"}
    # Each store is searched alone: a target is always within the first five without a cut-off.
    for part in (dev, held):
        for group in ("same", "cross"):
            assert part[group]["R@5_no_cutoff"] == 1.0
    # A no-answer query counts once, in its own store, as a hit or not (the model decides which).
    assert dev["no_answer"]["queries"] == 1
    assert dev["no_answer"]["per_language"].keys() == {"ja"}
    assert dev["no_answer"]["false_hit_rate"] in (0.0, 1.0)
    assert result["gap"]["same"] == dev["same"]["R@5"] - held["same"]["R@5"]
    assert len(result["dev_misses"]) == round(
        (1 - dev["same"]["R@5"]) * 2 + (1 - dev["cross"]["R@5"]) * 1
    )
    # The whole set loads: every query's store is its target's language, a third held out.
    loaded, asked = multilingual.load()
    assert {"zh", "ja", "de", "es", "fr", "pt", "ru"} <= loaded.keys()
    answerable = [q for q in asked if q.target is not None]
    assert all(q.target in loaded[q.store] for q in answerable)
    assert 0.25 < sum(q.split == "heldout" for q in answerable) / len(answerable) < 0.42
    # Cross-language no-answer queries come from the dev split only, each asked of another
    # language's store, English on one side.
    crossed = [q for q in asked if q.group == multilingual.NO_ANSWER_CROSS]
    assert crossed and all(q.split == "dev" for q in crossed)
    own = {q.text: q.store for q in asked if q.group == multilingual.NO_ANSWER}
    assert all(own[q.text] != q.store and "en" in (own[q.text], q.store) for q in crossed)


def test_multilingual_pads_each_store_with_other_memories_in_its_language() -> None:
    stores, _ = multilingual.load()
    grown = multilingual.padded(stores, 40)
    for lang, memories in stores.items():
        added = {k: v for k, v in grown[lang].items() if k not in memories}
        assert len(added) == 40, lang  # every claimed language has more than enough
        assert memories.items() <= grown[lang].items()  # the targets untouched
        assert not set(added.values()) & set(memories.values())  # no text twice
        assert len(set(added.values())) == len(added)
        assert all(k.startswith(f"pad-{lang}-") for k in added), lang
