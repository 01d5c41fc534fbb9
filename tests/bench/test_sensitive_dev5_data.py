"""bench/data/sensitive_dev5.json (issue 36.3) keeps the shape and the split it was written with:
its held-out third is fixed by each theme's hash, the same theme in every language, so an edit that
renames or relabels an item would silently move text between what the rules were tuned on and what
measures them. The shipped sensitive-label model is not trained on it (branch sens36e went back to
main's weights: the retraining on it cost a held-out hidden label)."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

from bench.categories_languages import load
from memories import sensitive_model

DATA = Path(__file__).resolve().parents[2] / "bench" / "data" / "sensitive_dev5.json"
LANGUAGES = ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")
CATEGORIES = ("health", "finance", "religion", "politics", "sexuality")


def test_a_theme_is_held_out_by_its_hash_in_every_language() -> None:
    for memory in load(DATA):
        lang, theme = memory["id"].split("-", 1)
        assert lang == memory["lang"]
        digest = int(hashlib.sha256(f"sensitive_dev5:{theme}".encode()).hexdigest(), 16)
        assert memory["split"] == ("heldout" if digest % 3 == 0 else "dev"), memory["id"]


def test_each_language_has_forty_look_alikes_and_three_facts_per_category() -> None:
    counts = Counter((m["lang"], m["sensitive"] or "ordinary") for m in load(DATA))
    look_alikes = Counter((m["lang"], m["looks_like"]) for m in load(DATA) if m["looks_like"])
    for lang in LANGUAGES:
        assert counts[(lang, "ordinary")] == 40, lang
        assert all(counts[(lang, c)] == 3 for c in CATEGORIES), lang
        assert all(look_alikes[(lang, c)] == 8 for c in CATEGORIES), lang


def test_the_shipped_model_is_not_trained_on_this_set() -> None:
    # A short sentence another set's dev split holds too is in the training list by that set's name
    # (two of the held-out third, counted, not read, on branch sens36e), never by this one's.
    sources = {e.source for e in sensitive_model.training_list()}
    assert "dev5" not in sources and "dev3" in sources
