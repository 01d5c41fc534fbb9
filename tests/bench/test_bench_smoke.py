"""The LoCoMo benchmark's recall arithmetic, on a tiny conversation through the real code path."""

import json
from pathlib import Path

import pytest

from bench import locomo

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
    assert set(result) == {*locomo.RETRIEVERS, "no_answer"}
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


def test_recall_at_k_is_the_share_of_gold_in_the_top_k() -> None:
    assert locomo.recall_at(["a", "b", "c"], {"b", "z"}, 1) == 0.0
    assert locomo.recall_at(["a", "b", "c"], {"b", "z"}, 2) == 0.5
    assert locomo.recall_at(["a", "b"], {"a", "b"}, 10) == 1.0
