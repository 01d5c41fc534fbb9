"""bench/data/sensitive_fresh5.json (issue 36.3) keeps the shape it was written with, before any
rule was tuned on it: per language 30 sensitive facts (6 per category) and 30 ordinary ones (4
look-alikes per category, 10 plain), every item held out, every text new. Only the file's shape is
checked here, never a label the classifier gives, and a failure names ids, never texts, so running
these tests reveals nothing of the held-out set to whoever tunes the rules."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
PATH = DATA / "sensitive_fresh5.json"
LANGUAGES = ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")
CATEGORIES = ("health", "finance", "religion", "politics", "sexuality")
KEYS = {"id", "lang", "text", "sensitive", "looks_like", "split", "topic"}
# Which scripts a text uses: Han ideographs, Japanese kana, Cyrillic, Latin letters.
SCRIPTS = {
    name: re.compile(pattern)
    for name, pattern in (
        ("han", r"[\u4e00-\u9fff]"),
        ("kana", r"[\u3040-\u30ff]"),
        ("cyrillic", r"[\u0400-\u04ff]"),
        ("latin", r"[A-Za-z]"),
    )
}
# The scripts a text of each language must use, and those it must not.
EXPECTED = {
    "zh": ({"han"}, {"kana", "cyrillic"}),
    "ja": ({"kana"}, {"cyrillic"}),
    "ru": ({"cyrillic"}, {"han", "kana"}),
}


def _memories() -> list[dict[str, Any]]:
    memories: list[dict[str, Any]] = json.loads(PATH.read_text(encoding="utf-8"))["memories"]
    return memories


def _strings(value: Any) -> list[str]:
    """Every string inside a parsed JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _script_fits(lang: str, text: str) -> bool:
    used = {name for name, pattern in SCRIPTS.items() if pattern.search(text)}
    needed, excluded = EXPECTED.get(lang, ({"latin"}, {"han", "kana", "cyrillic"}))
    return needed <= used and not excluded & used


def test_the_file_holds_an_about_and_memories_with_exactly_the_written_fields() -> None:
    data = json.loads(PATH.read_text(encoding="utf-8"))
    assert set(data) == {"about", "memories"}
    assert "held out" in data["about"].lower()
    assert [m["id"] for m in data["memories"] if set(m) != KEYS] == []


def test_each_language_has_six_sensitive_facts_per_category_and_thirty_ordinary_ones() -> None:
    counts = Counter((m["lang"], m["sensitive"] or "ordinary") for m in _memories())
    for lang in LANGUAGES:
        assert all(counts[(lang, c)] == 6 for c in CATEGORIES), lang
        assert counts[(lang, "ordinary")] == 30, lang
    assert sum(counts.values()) == 60 * len(LANGUAGES)


def test_each_language_has_four_look_alikes_per_category_and_ten_plain_facts() -> None:
    ordinary = [m for m in _memories() if m["sensitive"] is None]
    look_alikes = Counter((m["lang"], m["looks_like"]) for m in ordinary)
    for lang in LANGUAGES:
        assert all(look_alikes[(lang, c)] == 4 for c in CATEGORIES), lang
        assert look_alikes[(lang, None)] == 10, lang
    sensitive = [m for m in _memories() if m["sensitive"] is not None]
    assert [m["id"] for m in sensitive if m["looks_like"] is not None] == []


def test_ids_are_unique_and_name_their_language_and_kind() -> None:
    memories = _memories()
    ids = [m["id"] for m in memories]
    assert len(ids) == len(set(ids))
    for m in memories:
        kind = "o" if m["sensitive"] is None else "s"
        assert re.fullmatch(rf"{m['lang']}-{kind}-[1-9][0-9]?", m["id"]), m["id"]


def test_every_item_is_held_out_and_has_a_topic() -> None:
    memories = _memories()
    assert [m["id"] for m in memories if m["split"] != "heldout"] == []
    assert [m["id"] for m in memories if not m["topic"].strip()] == []


def test_every_text_is_non_empty_and_unique() -> None:
    memories = _memories()
    assert [m["id"] for m in memories if not m["text"].strip()] == []
    repeated = Counter(m["text"].strip().casefold() for m in memories)
    assert [m["id"] for m in memories if repeated[m["text"].strip().casefold()] > 1] == []


def test_no_text_appears_in_any_other_file_of_bench_data() -> None:
    # Compared in code only: the ids of shared texts are reported, never the texts.
    others = []
    for path in sorted(DATA.iterdir()):
        if path == PATH or not path.is_file():
            continue
        raw = path.read_text(encoding="utf-8")
        others.append("\n".join(_strings(json.loads(raw))) if path.suffix == ".json" else raw)
    blob = "\n".join(others).casefold()
    assert [m["id"] for m in _memories() if m["text"].strip().casefold() in blob] == []


def test_each_text_is_written_in_its_languages_script() -> None:
    assert [m["id"] for m in _memories() if not _script_fits(m["lang"], m["text"])] == []
