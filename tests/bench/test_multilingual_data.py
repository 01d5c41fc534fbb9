"""The multilingual sets (bench/data/multilingual.json for search and sensitive labels,
bench/data/extraction_multilingual.txt for the local extractor) keep the shape and the splits they
were written with: the held-out third is fixed by writing order, so an edit that reorders,
relabels or retargets an item shows here instead of silently moving data between dev and
held-out."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench.extract import load

BENCH_DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
DATA = BENCH_DATA / "multilingual.json"
EXTRACTION = BENCH_DATA / "extraction_multilingual.txt"
LANGUAGES = ("zh", "ja", "de", "es", "fr", "pt", "ru")
CATEGORIES = ("health", "finance", "religion", "politics", "sexuality", "legal")
KINDS = ("word", "question", "cross")


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


def _memories() -> dict[str, dict[str, Any]]:
    return {m["id"]: m for m in _data()["memories"]}


def test_every_third_memory_of_a_language_and_stratum_is_held_out_in_writing_order() -> None:
    seen: Counter[tuple[str, str]] = Counter()
    for memory in _data()["memories"]:
        stratum = memory["sensitive"] or "ordinary"
        seen[(memory["lang"], stratum)] += 1
        expected = "heldout" if seen[(memory["lang"], stratum)] % 3 == 0 else "dev"
        assert memory["split"] == expected, memory


def test_a_query_has_one_target_in_the_set_and_inherits_its_split() -> None:
    memories = _memories()
    for query in _data()["queries"]:
        target = memories[query["target"]]
        assert query["split"] == target["split"], query
        assert query["kind"] in KINDS, query
        assert query["id"].startswith(target["lang"] + "-q"), query


def test_only_cross_queries_are_written_in_another_language_than_their_target() -> None:
    memories = _memories()
    for query in _data()["queries"]:
        other = query["lang"] != memories[query["target"]]["lang"]
        assert other == (query["kind"] == "cross"), query


def test_labels_are_the_six_sensitive_categories_and_look_alikes_are_ordinary() -> None:
    ids = [m["id"] for m in _data()["memories"]]
    assert len(ids) == len(set(ids))
    for memory in _data()["memories"]:
        assert memory["sensitive"] in (*CATEGORIES, None), memory
        assert memory["looks_like"] in (*CATEGORIES, None), memory
        assert memory["sensitive"] is None or memory["looks_like"] is None, memory
        assert memory["id"].startswith(memory["lang"] + "-m"), memory


def test_each_language_has_the_memories_and_queries_the_evaluation_needs() -> None:
    data, memories = _data(), _memories()
    by_lang: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for memory in data["memories"]:
        by_lang[memory["lang"]].append(memory)
    kinds = Counter((memories[q["target"]]["lang"], q["kind"]) for q in data["queries"])
    for lang in LANGUAGES:
        store = by_lang[lang]
        ordinary = [m for m in store if m["sensitive"] is None]
        per_category = Counter(m["sensitive"] for m in store if m["sensitive"])
        assert len(store) >= 60 and len(store) - len(ordinary) >= 24, lang
        assert all(per_category[c] >= 3 for c in CATEGORIES), (lang, per_category)
        assert len(ordinary) >= 36, lang
        assert 2 * sum(m["looks_like"] is not None for m in ordinary) >= len(ordinary), lang
        assert all(kinds[(lang, kind)] >= 15 for kind in KINDS), (lang, kinds)
    assert len(by_lang["en"]) >= 30


def test_every_third_query_without_an_answer_of_a_language_is_held_out() -> None:
    seen: Counter[str] = Counter()
    for query in _data()["no_answer"]:
        seen[query["lang"]] += 1
        assert query["split"] == ("heldout" if seen[query["lang"]] % 3 == 0 else "dev"), query
    assert all(seen[lang] >= 10 for lang in (*LANGUAGES, "en")), seen


def test_every_third_extraction_record_of_a_language_and_class_is_held_out() -> None:
    seen: Counter[tuple[str, str]] = Counter()
    for example in load(EXTRACTION):
        kind, *_, lang, split = example.tags
        seen[(lang, kind)] += 1
        assert split == ("heldout" if seen[(lang, kind)] % 3 == 0 else "dev"), example.id
    for lang in LANGUAGES:
        assert seen[(f"lang-{lang}", "pos")] + seen[(f"lang-{lang}", "neg")] >= 40, lang
        assert seen[(f"lang-{lang}", "pos")] >= 15 and seen[(f"lang-{lang}", "neg")] >= 15, lang


def test_the_messages_of_an_extraction_conversation_share_one_split() -> None:
    splits: dict[str, set[str]] = defaultdict(set)
    for example in load(EXTRACTION):
        if example.conversation is not None:
            splits[example.conversation].add(example.tags[-1])
    assert splits and all(len(s) == 1 for s in splits.values()), splits
