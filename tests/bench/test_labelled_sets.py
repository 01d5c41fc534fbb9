"""The hand-written sets of issues 37 and 38 (bench/data/harm.json, bench/data/reconcile_pairs.json)
keep the shape the issues ask of them, and their splits stay as they were fixed at writing time:
within each kind (or relation) x language, in file order, every third item is held out. A split
changed afterwards, or an item moved, fails here."""

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
LANGUAGES = {"en", "zh", "ja", "de", "es", "fr", "pt", "ru"}


def _items(name: str) -> list[dict[str, Any]]:
    loaded = json.loads((DATA / name).read_text())
    assert loaded["about"].strip()
    items: list[dict[str, Any]] = loaded["items"]
    return items


@pytest.fixture(scope="module")
def harm() -> list[dict[str, Any]]:
    return _items("harm.json")


@pytest.fixture(scope="module")
def pairs() -> list[dict[str, Any]]:
    return _items("reconcile_pairs.json")


def _splits_follow_the_rule(items: list[dict[str, Any]], kind: str) -> bool:
    seen: Counter[tuple[str, str]] = Counter()
    for item in items:
        seen[(item[kind], item["lang"])] += 1
        if item["split"] != ("heldout" if seen[(item[kind], item["lang"])] % 3 == 0 else "dev"):
            return False
    return True


def test_harm_has_the_sizes_and_languages_issue_37_asks(harm: list[dict[str, Any]]) -> None:
    assert all(
        set(item) == {"id", "text", "label", "kind", "lang", "split", "keep"} for item in harm
    )
    assert len({item["id"] for item in harm}) == len(harm)
    labels = Counter(item["label"] for item in harm)
    assert labels["credential"] >= 220 and labels["instruction"] >= 120
    assert labels["ordinary"] >= 330 and set(labels) == {"credential", "instruction", "ordinary"}
    kinds = {item["kind"] for item in harm if item["label"] == "credential"}
    assert len(kinds) >= 22
    by_language = Counter((item["label"], item["lang"]) for item in harm)
    assert {item["lang"] for item in harm} == LANGUAGES
    for lang in LANGUAGES - {"en"}:
        assert by_language[("credential", lang)] >= 15, lang
        assert by_language[("instruction", lang)] >= 10, lang
        assert by_language[("ordinary", lang)] >= 25, lang


def test_only_a_credential_mixed_with_a_lasting_fact_says_what_to_keep(
    harm: list[dict[str, Any]],
) -> None:
    mixed = [item for item in harm if item["keep"] is not None]
    assert all(item["label"] == "credential" and item["keep"].strip() for item in mixed)
    assert len(mixed) >= 25
    assert len({item["lang"] for item in mixed}) == len(LANGUAGES)


def test_harm_splits_are_every_third_item_of_each_kind_and_language(
    harm: list[dict[str, Any]],
) -> None:
    assert _splits_follow_the_rule(harm, "kind")
    for label in ("credential", "instruction", "ordinary"):
        share = sum(i["split"] == "heldout" for i in harm if i["label"] == label) / sum(
            i["label"] == label for i in harm
        )
        assert 0.2 <= share <= 0.34, label


def test_pairs_have_the_sizes_relations_and_languages_issue_38_asks(
    pairs: list[dict[str, Any]],
) -> None:
    keys = {"id", "first", "second", "relation", "lang", "split", "note"}
    assert all(set(pair) == keys for pair in pairs)
    assert len({pair["id"] for pair in pairs}) == len(pairs) >= 330
    relations = Counter(pair["relation"] for pair in pairs)
    assert set(relations) == {"restate", "update", "distinct", "complementary"}
    assert all(relations[r] >= 0.13 * len(pairs) for r in relations), relations
    assert {pair["lang"] for pair in pairs if "-" not in pair["lang"]} == LANGUAGES
    assert sum(pair["lang"] != "en" for pair in pairs) >= 0.2 * len(pairs)
    cross = [pair for pair in pairs if "-" in pair["lang"]]
    assert cross and all(p["relation"] == "restate" and p["lang"].endswith("-en") for p in cross)
    assert len({(pair["first"], pair["second"]) for pair in pairs}) == len(pairs)


def test_pair_splits_are_every_third_pair_of_each_relation_and_language(
    pairs: list[dict[str, Any]],
) -> None:
    assert _splits_follow_the_rule(pairs, "relation")
    assert 0.28 <= sum(pair["split"] == "heldout" for pair in pairs) / len(pairs) <= 0.34
