"""`bench use-arm`'s fusion of the shipped search's ranking with USE's cosines: the order each
fusion gives, that it never answers more (or less) than the shipped answer held, and which
queries the arm touches."""

from __future__ import annotations

import pytest

from bench.use_arm import CLAIMED, ENGLISH, RRF_K, SWEEP, UNSURE, Fusion, aggregate, fuse, gate

SHIPPED = [("a", 0.6), ("b", 0.5), ("c", 0.4)]


def test_rrf_adds_each_rankings_reciprocal_rank_weighted() -> None:
    # USE ranks c, a, b: a = 1/61 + 1/62, c = 1/63 + 1/61, b = 1/62 + 1/63.
    use = {"c": 0.9, "a": 0.5, "b": 0.1}
    assert fuse(SHIPPED, use, Fusion("rrf", 1.0), 3) == ["a", "c", "b"]


def test_rrf_with_a_heavier_use_weight_follows_use() -> None:
    # Weight 2: c = 1/63 + 2/61 beats a = 1/61 + 2/62.
    use = {"c": 0.9, "a": 0.5, "b": 0.1}
    assert 1 / (RRF_K + 3) + 2 / (RRF_K + 1) > 1 / (RRF_K + 1) + 2 / (RRF_K + 2)
    assert fuse(SHIPPED, use, Fusion("rrf", 2.0), 3) == ["c", "a", "b"]


def test_score_sum_adds_the_weighted_use_cosine_to_the_relevance() -> None:
    use = {"a": 0.1, "b": 0.3, "c": 0.0}
    # Weight 1: a .6 + .1 = .7, b .5 + .3 = .8; weight .25: a .625, b .575.
    assert fuse(SHIPPED, use, Fusion("score-sum", 1.0), 2) == ["b", "a"]
    assert fuse(SHIPPED, use, Fusion("score-sum", 0.25), 2) == ["a", "b"]


def test_a_tie_goes_to_the_shipped_ranking_not_to_the_name() -> None:
    # "z" and "a" both score .55 (.5 + .05, .45 + .1): the shipped search ranked z first.
    shipped = [("z", 0.5), ("a", 0.45)]
    assert fuse(shipped, {"z": 0.1, "a": 0.2}, Fusion("score-sum", 0.5), 2) == ["z", "a"]


def test_a_memory_outside_the_shipped_ranking_is_reached_by_use_alone() -> None:
    shipped = [("a", 0.3)]
    assert fuse(shipped, {"a": 0.0, "far": 0.9}, Fusion("score-sum", 0.5), 1) == ["far"]
    # far: w/61 from USE alone, against a: 1/61 + w/62 when a has a USE vector, 1/61 when not.
    assert fuse(shipped, {"a": 0.0, "far": 0.9}, Fusion("rrf", 2.0), 1) == ["a"]
    assert fuse(shipped, {"far": 0.9}, Fusion("rrf", 2.0), 1) == ["far"]
    assert fuse(shipped, {"far": 0.9}, Fusion("rrf", 0.5), 1) == ["a"]


def test_a_memory_without_a_use_vector_keeps_its_shipped_part_only() -> None:
    # Only c has a USE vector (the non-English memories): a and b keep their shipped order.
    assert fuse(SHIPPED, {"c": 0.9}, Fusion("score-sum", 1.0), 3) == ["c", "a", "b"]
    assert fuse(SHIPPED, {"c": 0.9}, Fusion("score-sum", 0.1), 3) == ["a", "b", "c"]
    assert fuse(SHIPPED, {"c": 0.9}, Fusion("rrf", 0.5), 3) == ["c", "a", "b"]


@pytest.mark.parametrize("fusion", SWEEP, ids=str)
def test_the_answer_holds_as_many_memories_as_the_shipped_one(fusion: Fusion) -> None:
    use = {"a": 0.2, "b": 0.9, "c": 0.5, "d": 0.7}
    assert fuse(SHIPPED, use, fusion, 0) == []
    assert len(fuse(SHIPPED, use, fusion, 2)) == 2
    assert sorted(fuse(SHIPPED, use, fusion, 10)) == ["a", "b", "c", "d"]


def test_an_unknown_fusion_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown fusion"):
        fuse(SHIPPED, {"a": 0.1}, Fusion("max", 1.0), 1)


def test_a_query_is_called_english_a_claimed_language_or_unsure() -> None:
    assert gate("Where does my sister live these days?") == ENGLISH
    assert gate("Wo wohnt meine Schwester jetzt?") == CLAIMED
    assert gate("我妹妹住在哪里") == CLAIMED
    assert gate("42") == UNSURE


def test_the_held_out_third_is_aggregated_without_its_languages() -> None:
    tally: dict[tuple[str, str, str, str], list[int]] = {
        ("shipped", "dev", "same", "de"): [3, 4],
        ("shipped", "dev", "same", "fr"): [1, 4],
        ("shipped", "heldout", "same", "de"): [2, 2],
        ("shipped", "heldout", "same", "fr"): [0, 2],
    }
    out = aggregate(tally)["shipped"]
    assert out["dev"]["same"] == {
        "queries": 8,
        "found": 4,
        "rate": 0.5,
        "per_language": {"de": 0.75, "fr": 0.25},
    }
    assert out["heldout"]["same"] == {"queries": 4, "found": 2, "rate": 0.5}
