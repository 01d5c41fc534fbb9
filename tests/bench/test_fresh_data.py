"""The fresh held-out sets (bench/data/harm_fresh.json, sensitive_fresh.json, sensitive_fresh2.json,
sensitive_fresh3.json, reconcile_fresh.json, reconcile_fresh2.json, extraction_fresh2.txt,
extraction_fresh3.txt) keep the shape and coverage they were written with, all
held out, none sharing a text with a set tuned on, and their identifiers stay valid: an
edit that breaks a check digit would turn a credential into a look-alike and move the figure."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from stdnum import iban, luhn

BENCH_DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
LANGUAGES = {"en", "zh", "ja", "de", "es", "fr", "pt", "ru"}
CATEGORIES = ("health", "finance", "religion", "politics", "sexuality")
DIGIT_RUN = re.compile(r"\d[\d ]{11,22}\d")


def _items(name: str, key: str) -> list[dict[str, Any]]:
    data = json.loads((BENCH_DATA / name).read_text(encoding="utf-8"))
    assert data["about"]
    items: list[dict[str, Any]] = data[key]
    assert len({i["id"] for i in items}) == len(items)
    assert {i["split"] for i in items} == {"heldout"}
    return items


def test_the_fresh_harm_set_covers_each_label_in_every_language_all_held_out() -> None:
    items = _items("harm_fresh.json", "items")
    by_label: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        assert set(item) == {"id", "text", "label", "kind", "lang", "split", "keep"}, item
        assert item["keep"] is None or item["label"] == "credential", item
        by_label.setdefault(item["label"], []).append(item)
    assert set(by_label) == {"credential", "instruction", "ordinary"}
    assert len(by_label["credential"]) >= 80
    assert len({i["kind"] for i in by_label["credential"]}) >= 20
    assert len(by_label["instruction"]) >= 50 and len(by_label["ordinary"]) >= 120
    for label, rows in by_label.items():
        assert {i["lang"] for i in rows} == LANGUAGES, label


def test_the_fresh_harm_sets_cards_and_ibans_are_valid_and_its_look_alikes_fail_luhn() -> None:
    items = _items("harm_fresh.json", "items")
    kinds = Counter[str]()
    for item in items:
        if item["kind"] == "card":
            match = DIGIT_RUN.search(item["text"])
            assert match and luhn.is_valid(match.group().replace(" ", "")), item["id"]
            kinds["card"] += 1
        elif item["kind"] == "iban":
            match = re.search(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4})+(?: ?[A-Z0-9]{1,3})?", item["text"])
            assert match and iban.is_valid(match.group()), item["id"]
            kinds["iban"] += 1
        elif item["label"] == "ordinary":
            for run in DIGIT_RUN.findall(item["text"]):
                digits = run.replace(" ", "")
                assert not (13 <= len(digits) <= 19 and luhn.is_valid(digits)), item["id"]
    assert kinds["card"] >= 5 and kinds["iban"] >= 5


def test_the_fresh_sensitive_set_has_each_category_and_look_alikes_in_every_language() -> None:
    memories = _items("sensitive_fresh.json", "memories")
    assert {m["lang"] for m in memories} == LANGUAGES
    for lang in LANGUAGES:
        store = [m for m in memories if m["lang"] == lang]
        per_category = Counter(m["sensitive"] for m in store if m["sensitive"])
        ordinary = [m for m in store if m["sensitive"] is None]
        assert set(per_category) == set(CATEGORIES), lang
        assert all(n >= 5 for n in per_category.values()), (lang, per_category)
        assert sum(per_category.values()) >= 30 and len(ordinary) >= 30, lang
        assert sum(1 for m in ordinary if m["looks_like"]) >= len(ordinary) // 2, lang
    for memory in memories:
        assert memory["id"].startswith(memory["lang"] + "-f"), memory
        assert memory["looks_like"] in (*CATEGORIES, None), memory
        assert memory["sensitive"] is None or memory["looks_like"] is None, memory


RELATIONS = ("restate", "update", "distinct", "complementary")


def _texts(name: str, key: str, fields: tuple[str, ...]) -> set[str]:
    items = json.loads((BENCH_DATA / name).read_text(encoding="utf-8"))[key]
    return {" ".join(item[f].split()).casefold() for item in items for f in fields}


@pytest.mark.parametrize("name", ["reconcile_fresh.json", "reconcile_fresh2.json"])
def test_the_fresh_reconcile_pairs_cover_each_relation_and_language_all_held_out(name: str) -> None:
    items = _items(name, "items")
    assert len(items) >= 200
    for item in items:
        assert set(item) == {"id", "first", "second", "relation", "lang", "split", "note"}, item
        assert item["relation"] in RELATIONS and item["first"] != item["second"], item
        assert item["lang"] in LANGUAGES or (
            item["lang"].endswith("-en") and item["lang"][:2] in LANGUAGES - {"en"}
        ), item
        assert not item["lang"].endswith("-en") or item["relation"] == "restate", item
    share = Counter(i["relation"] for i in items)
    for relation, low, high in (("restate", 25, 35), ("update", 25, 35), ("distinct", 20, 30)):
        assert low <= 100 * share[relation] / len(items) <= high, share
    assert 10 <= 100 * share["complementary"] / len(items) <= 20, share
    langs = Counter(i["lang"] for i in items)
    assert langs["en"] >= 90 and all(langs[lang] >= 12 for lang in LANGUAGES - {"en"}), langs
    assert sum(n for lang, n in langs.items() if lang.endswith("-en")) >= 5, langs
    for lang in LANGUAGES:
        assert {i["relation"] for i in items if i["lang"] == lang} == set(RELATIONS), lang


@pytest.mark.parametrize(
    ("name", "others"),
    [
        ("reconcile_fresh.json", ("reconcile_pairs.json", "reconcile_lookalikes.json")),
        (
            "reconcile_fresh2.json",
            (
                "reconcile_pairs.json",
                "reconcile_lookalikes.json",
                "reconcile_dev2.json",
                "reconcile_dev3.json",
                "reconcile_fresh.json",
            ),
        ),
    ],
)
def test_the_fresh_reconcile_pairs_share_no_text_with_the_other_sets(
    name: str, others: tuple[str, ...]
) -> None:
    fresh = _texts(name, "items", ("first", "second"))
    for other in others:
        shared = len(fresh & _texts(other, "items", ("first", "second")))
        assert shared == 0, other  # counted, never printed: one side is held out


@pytest.mark.parametrize(
    ("name", "mark"), [("sensitive_fresh2.json", "g"), ("sensitive_fresh3.json", "h")]
)
def test_the_later_fresh_sensitive_sets_have_six_per_category_and_thirty_ordinary(
    name: str, mark: str
) -> None:
    memories = _items(name, "memories")
    assert {m["lang"] for m in memories} == LANGUAGES
    for lang in LANGUAGES:
        store = [m for m in memories if m["lang"] == lang]
        per_category = Counter(m["sensitive"] for m in store if m["sensitive"])
        ordinary = [m for m in store if m["sensitive"] is None]
        assert per_category == dict.fromkeys(CATEGORIES, 6), (lang, per_category)
        assert len(ordinary) == 30, lang
        looks = Counter(m["looks_like"] for m in ordinary if m["looks_like"])
        assert sum(looks.values()) >= 15 and set(looks) == set(CATEGORIES), (lang, looks)
        # One store per language: a text written twice would be merged, not scored.
        assert len({" ".join(m["text"].split()).casefold() for m in store}) == len(store), lang
    for memory in memories:
        assert set(memory) == {"id", "lang", "text", "sensitive", "topic", "looks_like", "split"}
        assert memory["id"].startswith(f"{memory['lang']}-{mark}"), memory["id"]
        assert memory["looks_like"] in (*CATEGORIES, None), memory["id"]
        assert memory["sensitive"] is None or memory["looks_like"] is None, memory["id"]


@pytest.mark.parametrize(
    ("name", "others"),
    [
        (
            "sensitive_fresh2.json",
            ("multilingual.json", "sensitive_dev2.json", "sensitive_fresh.json"),
        ),
        (
            "sensitive_fresh3.json",
            (
                "multilingual.json",
                "sensitive_train.json",
                "sensitive_dev2.json",
                "sensitive_dev3.json",
                "sensitive_dev4.json",
                "sensitive_fresh.json",
                "sensitive_fresh2.json",
            ),
        ),
    ],
)
def test_the_later_fresh_sensitive_sets_share_no_text_with_the_other_sensitive_sets(
    name: str, others: tuple[str, ...]
) -> None:
    fresh = _texts(name, "memories", ("text",))
    for other in others:
        shared = len(fresh & _texts(other, "memories", ("text",)))
        assert shared == 0, other  # counted, never printed: one side is held out


@pytest.mark.parametrize("name", ["sensitive_fresh2.json", "sensitive_fresh3.json"])
def test_the_categories_bench_reads_a_later_fresh_set_whole_as_held_out(name: str) -> None:
    from bench.categories_languages import load

    loaded = load(BENCH_DATA / name, all_heldout=True)
    assert len(loaded) == 8 * 60 and {m["split"] for m in loaded} == {"heldout"}
    assert all(m["text"] and m["lang"] in LANGUAGES for m in loaded)


@pytest.mark.parametrize("split", ["fresh2", "fresh3"])
def test_the_later_fresh_extraction_sets_are_held_out_a_quarter_in_other_languages(
    split: str,
) -> None:
    from bench.extract import NOT_SHOWN, SPLITS, load, load_split

    records = load(SPLITS[split])
    assert len(records) >= 150
    assert all(r.tags[-1] == "heldout" and "dev" not in r.tags for r in records)
    assert [r.id for r in load_split(split)] == [r.id for r in records]
    assert split in NOT_SHOWN  # aggregate figures only, never a record's text
    langs = Counter(next((t for t in r.tags if t.startswith("lang-")), "en") for r in records)
    assert set(langs) == {"en"} | {f"lang-{lang}" for lang in LANGUAGES - {"en"}}, langs
    assert 0.2 <= 1 - langs["en"] / len(records) <= 0.35, langs
    kinds = Counter(t for r in records for t in r.tags)
    for hard in ("question-fact", "announcement", "people", "preference", "fragment", "multi"):
        assert kinds[hard] >= 5, (hard, kinds[hard])
    assert kinds["non-native"] >= 5 and kinds["neg"] >= len(records) // 4, kinds
    assert any(r.previous for r in records) and any(r.conversation for r in records)


@pytest.mark.parametrize("split", ["fresh2", "fresh3"])
def test_the_later_fresh_extraction_sets_share_no_message_with_the_other_sets(split: str) -> None:
    from bench.extract import SPLITS, load

    def texts(path: Path) -> set[str]:
        return {" ".join(r.text.split()).casefold() for r in load(path)}

    fresh = texts(SPLITS[split])
    for name, path in SPLITS.items():
        if path != SPLITS[split] and path.exists():
            shared = len(fresh & texts(path))
            assert shared == 0, name  # counted, never printed: one side is held out
