"""`bench sensitive-head`'s measures: the rates count sensitive facts found and ordinary ones called
sensitive per language, and `--cv`'s rule picks the threshold that finds the most within the false
positive caps (the head's own fit is tested in tests/memories/test_sensitive_head.py)."""

from __future__ import annotations

import numpy as np

from bench import sensitive_head


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


def test_the_threshold_rule_picks_the_one_finding_most_within_both_false_positive_caps() -> None:
    # Twenty sensitive and forty ordinary texts (twenty German). One German false positive is
    # within the caps (1 of 20 German, 1 of 40 pooled); two are not.
    truth = [True] * 20 + [False] * 40
    langs = (["de"] * 10 + ["zh"] * 10) + (["de"] * 20 + ["zh"] * 20)
    found = np.linspace(0.96, 0.31, 20)  # the lower the threshold, the more are found
    ordinary = np.full(40, 0.1)

    def pick() -> float | None:
        return sensitive_head.pick_threshold(np.concatenate([found, ordinary]), truth, langs)[0]

    ordinary[0], ordinary[1] = 0.62, 0.52
    assert pick() == 0.55  # .5 has two German false positives
    ordinary[2] = 0.57
    assert pick() == 0.6
    ordinary[3] = 0.63
    assert pick() == 0.65
    _, table = sensitive_head.pick_threshold(np.concatenate([found, ordinary]), truth, langs)
    assert table["0.65"]["per_language"]["de"]["false_positive"] == 0.0
    assert table["0.6"]["per_language"]["de"]["false_positive"] == 0.1


def test_a_training_texts_fold_is_fixed_by_its_text() -> None:
    folds = [sensitive_head.fold_of(f"text {i}") for i in range(200)]
    assert folds == [sensitive_head.fold_of(f"text {i}") for i in range(200)]
    assert set(folds) == set(range(sensitive_head.FOLDS))
