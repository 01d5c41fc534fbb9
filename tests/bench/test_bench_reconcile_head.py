"""`bench reconcile-head`'s measures: a cut on the training folds only, the held-out upper bound
at 1% wrong, and held-out pairs that are never dev pairs."""

from __future__ import annotations

import numpy as np

from bench import reconcile_head
from bench.reconcile_fit import FOLDS
from bench.reconcile_signal import dev_pairs


def test_the_upper_bound_lets_at_most_one_in_a_hundred_pairs_that_must_stay_through() -> None:
    stays = np.linspace(0.0, 0.9, 200)  # two may pass (.9, .895): the cut is the third, .891
    positives = np.array([0.99, 0.95, 0.8925, 0.5])
    got = reconcile_head._upper_bound(np.r_[positives, stays], np.r_[np.ones(4), np.zeros(200)])
    assert got["wrong"] == 2 and got["stay"] == 200
    assert got["caught"] == 3 and got["of"] == 4
    assert 0.5 < got["auc"] < 1


def test_a_separating_feature_is_caught_on_every_fold_without_a_wrong_merge() -> None:
    y = np.array([1.0, 0.0] * 20)
    x = np.c_[y * (1 + np.linspace(0, 0.1, 40)) * 2 - 1]  # every pair that must stay at -1
    folds = np.arange(40) % FOLDS
    got = reconcile_head._measure(x, y, folds, 0.01)
    assert got == {"auc": 1.0, "caught": 20, "of": 20, "wrong": 0, "stay": 20}


def test_a_noise_feature_catches_little_and_ranks_at_chance() -> None:
    rng = np.random.default_rng(0)
    y = np.array([1.0, 0.0] * 100)
    got = reconcile_head._measure(rng.normal(size=(200, 3)), y, np.arange(200) % FOLDS, 1.0)
    assert 0.3 < got["auc"] < 0.7 and got["caught"] < 30


def test_the_held_out_pairs_are_never_dev_pairs_and_hold_the_fresh_sets_whole() -> None:
    held = reconcile_head.heldout_pairs()
    assert {p["split"] for p in held} == {"heldout"}
    assert not {p["id"] for p in held} & {p["id"] for p in dev_pairs()}
    assert len(held) > 201 + 286  # reconcile_fresh and reconcile_fresh2, and the held-out splits
