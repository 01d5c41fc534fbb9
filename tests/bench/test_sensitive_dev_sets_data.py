"""bench/data/sensitive_dev5.json, sensitive_dev6.json and sensitive_dev7.json (issue 36.3) keep
the shape and the split they were written with: each held-out third is fixed by each theme's
hash, the same theme in every language, so an edit that renames or relabels an item would
silently move text between what the rules were tuned on and what measures them. dev6's and dev7's
look-alikes use a sensitive category's words in an ordinary sense (a dog operated on, football as
a religion, owing a favour; a mechanic's diagnosis, a family vote on a film). The shipped
sensitive-label model is trained on none of them (branch sens36e went back to main's weights: the
retraining on dev5 cost a held-out hidden label; the seventh pass did not retrain). dev7 was
written before the eighth pass added training text, to measure that text on themes it avoids."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from bench.categories_languages import load
from memories import sensitive_model

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
LANGUAGES = ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")
CATEGORIES = ("health", "finance", "religion", "politics", "sexuality")
# Per set: ordinary facts, sensitive facts per category and look-alikes per category, per language.
SHAPES = {"sensitive_dev5": (40, 3, 8), "sensitive_dev6": (35, 5, 7), "sensitive_dev7": (35, 5, 7)}


@pytest.mark.parametrize("name", SHAPES)
def test_a_theme_is_held_out_by_its_hash_in_every_language(name: str) -> None:
    for memory in load(DATA / f"{name}.json"):
        lang, theme = memory["id"].split("-", 1)
        assert lang == memory["lang"]
        digest = int(hashlib.sha256(f"{name}:{theme}".encode()).hexdigest(), 16)
        assert memory["split"] == ("heldout" if digest % 3 == 0 else "dev"), memory["id"]


@pytest.mark.parametrize(("name", "shape"), SHAPES.items())
def test_each_language_has_its_look_alikes_and_facts_per_category(
    name: str, shape: tuple[int, int, int]
) -> None:
    ordinary, per_category, look_alike = shape
    memories = load(DATA / f"{name}.json")
    counts = Counter((m["lang"], m["sensitive"] or "ordinary") for m in memories)
    look_alikes = Counter((m["lang"], m["looks_like"]) for m in memories if m["looks_like"])
    for lang in LANGUAGES:
        assert counts[(lang, "ordinary")] == ordinary, lang
        assert all(counts[(lang, c)] == per_category for c in CATEGORIES), lang
        assert all(look_alikes[(lang, c)] == look_alike for c in CATEGORIES), lang


@pytest.mark.parametrize("name", ["sensitive_dev6", "sensitive_dev7"])
def test_every_theme_is_written_once_in_every_language(name: str) -> None:
    themes = Counter(m["id"].split("-", 1)[1] for m in load(DATA / f"{name}.json"))
    assert len(themes) == 60
    assert set(themes.values()) == {len(LANGUAGES)}


def test_the_shipped_model_is_not_trained_on_these_sets() -> None:
    # A short sentence another set's dev split holds too is in the training list by that set's name
    # (two of dev5's held-out third, counted, not read, on branch sens36e), never by these.
    sources = {e.source for e in sensitive_model.training_list()}
    assert not {"dev5", "dev6", "dev7"} & sources and "dev3" in sources
    texts = {e.text for e in sensitive_model.training_list()}
    assert not texts & {m["text"] for m in load(DATA / "sensitive_dev7.json")}
