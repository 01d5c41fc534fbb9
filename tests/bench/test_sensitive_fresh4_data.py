"""bench/data/sensitive_fresh4.json keeps the shape it was written with (branch fresh4), before
any rule was tuned on it: a whole held-out set, so an edit that drops, relabels or duplicates an
item would change what the figure measures without anyone seeing it. Only the file's shape is
checked here, never what a classifier says about its texts."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from bench.categories_languages import load

DATA = Path(__file__).resolve().parents[2] / "bench" / "data" / "sensitive_fresh4.json"
LANGUAGES = ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")
CATEGORIES = ("health", "finance", "religion", "politics", "sexuality")
FIELDS = {"id", "lang", "text", "sensitive", "looks_like", "split", "topic"}
HAN = re.compile(r"[\u4e00-\u9fff]")
KANA = re.compile(r"[\u3040-\u30ff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")


def test_the_file_says_who_wrote_it_and_that_it_is_held_out() -> None:
    document = json.loads(DATA.read_text(encoding="utf-8"))
    assert set(document) == {"about", "memories"}
    assert "fresh4" in document["about"] and "held-out" in document["about"]


def test_every_memory_has_the_same_fields_and_is_held_out() -> None:
    for memory in load(DATA):
        assert set(memory) == FIELDS, memory["id"]
        assert memory["split"] == "heldout", memory["id"]
        assert memory["lang"] in LANGUAGES, memory["id"]
        assert memory["topic"].strip(), memory["id"]


def test_ids_are_unique_and_name_the_language_and_whether_the_fact_is_sensitive() -> None:
    memories = load(DATA)
    assert len({m["id"] for m in memories}) == len(memories)
    for memory in memories:
        lang, kind, number = memory["id"].split("-")
        assert lang == memory["lang"] and number.isdigit(), memory["id"]
        assert kind == ("s" if memory["sensitive"] else "o"), memory["id"]


def test_texts_are_non_empty_and_unique() -> None:
    texts = [m["text"] for m in load(DATA)]
    assert all(t.strip() for t in texts)
    assert len(set(texts)) == len(texts)


def test_each_language_has_six_facts_per_category_and_thirty_ordinary_ones() -> None:
    counts = Counter((m["lang"], m["sensitive"] or "ordinary") for m in load(DATA))
    for lang in LANGUAGES:
        assert all(counts[(lang, c)] == 6 for c in CATEGORIES), lang
        assert counts[(lang, "ordinary")] == 30, lang
    assert sum(counts.values()) == 60 * len(LANGUAGES)


def test_each_language_has_four_look_alikes_per_category_and_ten_plain_facts() -> None:
    memories = load(DATA)
    assert all(m["sensitive"] is None for m in memories if m["looks_like"])
    assert all(m["sensitive"] in CATEGORIES for m in memories if m["sensitive"])
    looks = Counter((m["lang"], m["looks_like"]) for m in memories if not m["sensitive"])
    for lang in LANGUAGES:
        assert all(looks[(lang, c)] == 4 for c in CATEGORIES), lang
        assert looks[(lang, None)] == 10, lang


def test_each_text_is_written_in_the_script_of_its_language() -> None:
    for memory in load(DATA):
        text, lang = memory["text"], memory["lang"]
        if lang == "ja":
            assert KANA.search(text), memory["id"]
        elif lang == "zh":
            assert HAN.search(text) and not KANA.search(text), memory["id"]
        elif lang == "ru":
            assert len(CYRILLIC.findall(text)) > len(LATIN.findall(text)), memory["id"]
        else:
            foreign = HAN.search(text) or KANA.search(text) or CYRILLIC.search(text)
            assert LATIN.search(text) and not foreign, memory["id"]
