"""`bench reconcile-signal`'s measures: what they count, that a cut is judged on folds it was not
chosen on, that only dev pairs are read, and that a candidate's weights are read as data."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

from bench import reconcile_signal


def test_auc_counts_a_tie_as_half_and_recall_at_zero_only_what_clears_every_look_alike() -> None:
    restates = np.array([0.9, 0.8, 0.5])
    stays = np.array([0.5, 0.7])
    # pairs above: 0.9 > both, 0.8 > both, 0.5 ties 0.5 (half) and is below 0.7
    assert reconcile_signal.auc(restates, stays) == round(4.5 / 6, 3)
    assert reconcile_signal.recall_at_zero(restates, stays) == round(2 / 3, 3)


def test_a_cut_is_judged_on_the_fold_it_was_not_chosen_on() -> None:
    # Fold 0 holds the only look-alike above .6; chosen without it, the cut lets it merge.
    signal = np.array([0.95, 0.9, 0.6, 0.65, 0.5, 0.55, 0.4, 0.3, 0.2, 0.1])
    stay = np.array([False, True, True, False, True, False, True, False, True, False])
    folds = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
    gate = np.ones(len(signal), bool)
    merged = reconcile_signal._cut_cv(signal, gate, stay, folds)
    assert merged[1] and stay[1]  # the wrong merge an in-sample cut (above .9) would hide
    assert merged[0] and not merged[3]  # fold 1's cut is above fold 0's .9
    assert not reconcile_signal._cut_cv(signal, np.zeros(len(signal), bool), stay, folds).any()


def test_the_signals_are_measured_on_dev_pairs_only() -> None:
    pairs = reconcile_signal.dev_pairs()
    assert {p["split"] for p in pairs} == {"dev"}
    assert {p["set"] for p in pairs} == set(reconcile_signal.SETS)
    assert not any("fresh" in name for name in reconcile_signal.SETS)
    assert len(pairs) == 538  # the dev splits of pairs, lookalikes, dev2, dev3 as written


def test_a_candidates_safetensors_are_read_as_data(tmp_path: Path) -> None:
    weight = np.arange(6, dtype="<f4").reshape(2, 3)
    header = {
        "__metadata__": {"format": "pt"},
        "ids": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]},
        "w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [8, 32]},
    }
    encoded = json.dumps(header).encode()
    path = tmp_path / "model.safetensors"
    path.write_bytes(struct.pack("<Q", len(encoded)) + encoded + bytes(8) + weight.tobytes())
    tensors = reconcile_signal._safetensors(path)
    assert set(tensors) == {"w"}  # float32 only
    assert np.array_equal(tensors["w"], weight)


def test_a_candidate_that_is_not_installed_is_left_out() -> None:
    assert reconcile_signal._installed("no-such-candidate-package", "model.onnx") is None
