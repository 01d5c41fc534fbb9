"""`bench sensitive-head`'s measures: the softmax head learns what separates its classes, and the
rates count sensitive facts found and ordinary ones called sensitive per language."""

from __future__ import annotations

import numpy as np

from bench import sensitive_head


def test_the_head_separates_classes_that_lie_in_different_directions() -> None:
    rng = np.random.default_rng(0)
    centres = np.eye(3, 8) * 3
    y = np.repeat(np.arange(3), 40)
    x = centres[y] + 0.3 * rng.standard_normal((120, 8))
    weights = sensitive_head.fit(x, y, 3)
    assert (sensitive_head.probabilities(weights, x).argmax(axis=1) == y).mean() > 0.95


def test_a_head_on_noise_learns_nothing_it_can_use_on_new_texts() -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    weights = sensitive_head.fit(rng.standard_normal((200, 8)), y, 2)
    fresh = sensitive_head.probabilities(weights, rng.standard_normal((400, 8)))
    assert 0.35 < (fresh.argmax(axis=1) == rng.integers(0, 2, 400)).mean() < 0.65


def test_rates_count_found_sensitive_facts_and_ordinary_ones_called_sensitive_per_language() -> (
    None
):
    scores = np.array([0.9, 0.2, 0.8, 0.6, 0.1, 0.4])
    truth = [True, True, False, True, False, False]
    langs = ["zh", "zh", "zh", "de", "de", "de"]
    got = sensitive_head.rates(scores, truth, langs, 0.5)
    assert got["recall"] == round(2 / 3, 3) and got["false_positive"] == round(1 / 3, 3)
    assert got["per_language"]["zh"] == {"recall": 0.5, "false_positive": 1.0}
    assert got["per_language"]["de"] == {"recall": 1.0, "false_positive": 0.0}
