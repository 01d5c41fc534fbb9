"""bench/data/sensitive_dev3.json (issue 36.3) keeps the shape and the split it was written with:
its held-out third is fixed by writing order, and its dev items train the sensitive-label model,
so an edit that reorders or relabels an item would silently move text between what the model
learns from and what measures it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.categories_languages import load
from memories import sensitive_model

DATA = Path(__file__).resolve().parents[2] / "bench" / "data" / "sensitive_dev3.json"
LANGUAGES = ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")
CATEGORIES = ("health", "finance", "religion", "politics", "sexuality")


def test_every_third_memory_of_a_language_and_stratum_is_held_out_in_writing_order() -> None:
    seen: Counter[tuple[str, str]] = Counter()
    for memory in load(DATA):
        stratum = memory["sensitive"] or "ordinary"
        seen[(memory["lang"], stratum)] += 1
        expected = "heldout" if seen[(memory["lang"], stratum)] % 3 == 0 else "dev"
        assert memory["split"] == expected, memory


def test_each_language_has_nine_facts_per_category_and_forty_five_ordinary_ones() -> None:
    counts = Counter((m["lang"], m["sensitive"] or "ordinary") for m in load(DATA))
    for lang in LANGUAGES:
        assert all(counts[(lang, c)] == 9 for c in CATEGORIES), lang
        assert counts[(lang, "ordinary")] == 45, lang
    look_alikes = Counter(m["lang"] for m in load(DATA) if m["looks_like"])
    assert set(look_alikes.values()) == {30}


def test_the_model_trains_on_the_dev_items_and_never_on_the_held_out_ones() -> None:
    trained = {e.text for e in sensitive_model.training_list()}
    for memory in load(DATA):
        assert (memory["text"] in trained) == (memory["split"] == "dev"), memory["id"]
