"""bench/data/reconcile_dev2.json and reconcile_dev3.json keep the shape they were written with:
dev2 look-alikes and complementary pairs first, dev3 restates and updates said in other words
with controls, every language the product claims, and a held-out third fixed by a hash of the id
(so no edit can move a pair between the splits)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

BENCH_DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
LANGUAGES = {"en", "zh", "ja", "de", "es", "fr", "pt", "ru"}
RELATIONS = ("restate", "update", "distinct", "complementary")


def _items(name: str = "reconcile_dev2.json") -> list[dict[str, Any]]:
    data = json.loads((BENCH_DATA / name).read_text(encoding="utf-8"))
    assert "sha256(id) mod 3 == 0" in data["about"]
    items: list[dict[str, Any]] = data["items"]
    assert len({i["id"] for i in items}) == len(items)
    return items


def test_the_second_dev_set_is_mostly_look_alikes_in_every_language_and_xx_en() -> None:
    items = _items()
    assert len(items) >= 150
    for item in items:
        assert set(item) == {"id", "first", "second", "relation", "lang", "split", "note"}, item
        assert item["relation"] in RELATIONS and item["first"] != item["second"], item
        assert item["lang"] in LANGUAGES or (
            item["lang"].endswith("-en") and item["lang"][:2] in LANGUAGES - {"en"}
        ), item
    share = Counter(i["relation"] for i in items)
    assert share["distinct"] + share["complementary"] > len(items) / 2, share
    assert min(share.values()) >= 30, share
    for lang in LANGUAGES:
        assert {i["relation"] for i in items if i["lang"] == lang} == set(RELATIONS), lang
    assert {i["lang"][:2] for i in items if i["lang"].endswith("-en")} == LANGUAGES - {"en"}


def test_the_third_dev_set_is_restates_and_updates_in_every_language_with_controls() -> None:
    items = _items("reconcile_dev3.json")
    assert len(items) >= 150
    for item in items:
        assert set(item) == {"id", "first", "second", "relation", "lang", "split", "note"}, item
        assert item["relation"] in RELATIONS and item["first"] != item["second"], item
    share = Counter(i["relation"] for i in items)
    assert share["restate"] + share["update"] > len(items) / 2, share
    assert share["distinct"] + share["complementary"] >= len(items) / 4, share
    for lang in LANGUAGES:
        assert {"restate", "update"} <= {i["relation"] for i in items if i["lang"] == lang}, lang
    assert {i["lang"][:2] for i in items if i["lang"].endswith("-en")} == LANGUAGES - {"en"}


@pytest.mark.parametrize("name", ["reconcile_dev2.json", "reconcile_dev3.json"])
def test_a_dev_sets_held_out_third_is_the_hash_of_the_id(name: str) -> None:
    items = _items(name)
    for item in items:
        held = int(hashlib.sha256(item["id"].encode()).hexdigest(), 16) % 3 == 0
        assert item["split"] == ("heldout" if held else "dev"), item["id"]
    held_out = [i for i in items if i["split"] == "heldout"]
    assert len(items) / 4 <= len(held_out) <= len(items) / 2.5
    assert {i["relation"] for i in held_out} == set(RELATIONS)


@pytest.mark.parametrize("mine", ["reconcile_dev2.json", "reconcile_dev3.json"])
def test_a_dev_set_shares_no_pair_with_the_other_reconcile_sets(mine: str) -> None:
    def pairs(name: str) -> set[tuple[str, str]]:
        rows = json.loads((BENCH_DATA / name).read_text(encoding="utf-8"))["items"]
        return {(" ".join(r["first"].split()), " ".join(r["second"].split())) for r in rows}

    others = ("reconcile_pairs.json", "reconcile_lookalikes.json", "reconcile_fresh.json")
    for name in (*others, "reconcile_dev2.json"):
        if name != mine:
            shared = len(pairs(mine) & pairs(name))
            assert shared == 0, name  # counted, never printed: one side is held out
