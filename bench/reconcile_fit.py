"""The pair scorer of local reconciliation (`memories/reconciliation/scorer.py`), fitted for the
configured embedding model (EMBEDDING_MODEL) on the dev splits of the `bench reconcile` sets only
(reconcile_pairs, lookalikes, dev2, dev3; a held-out pair is never read), on the pairs the judge's
rules leave beside each other for no hard reason (`judge.rules` says "different", no name or
number differs, no third person on one side only: `judge.scorer_may_ask`): the pairs the scorer
will be asked about. A logistic regression (L2, Newton's method), cross-validated in five folds
fixed by sha256(id) mod 5; the Review threshold is the
cross-validated probability that sends the most same-fact pairs (restate, update) to Review for
the fewest that must stay (distinct, complementary): each of those costs half a caught pair.
Prints the cross-validated figures and the `thresholds.Fitted` literal to copy into
`memories/reconciliation/thresholds.py`.

    uv run python -m bench reconcile-fit
    EMBEDDING_MODEL=intfloat/multilingual-e5-small-q4 uv run python -m bench reconcile-fit
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from typing import Any

import numpy as np

from bench.reconcile import DATASETS, cosines

SETS = ("pairs", "lookalikes", "dev2", "dev3")  # dev splits only
FOLDS = 5
L2 = 1.0
STAY_COST = 0.5  # a distinct or complementary pair sent to Review, against a same-fact pair caught


def fold_of(pair_id: str) -> int:
    """The cross-validation fold of a pair, fixed by its id (every bench that folds agrees)."""
    return int(hashlib.sha256(pair_id.encode()).hexdigest(), 16) % FOLDS


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float]:
    """Logistic regression by Newton's method, the bias not penalised."""
    xb = np.c_[x, np.ones(len(x))]
    penalty = np.diag(np.r_[np.full(x.shape[1], l2), 0.0])
    theta = np.zeros(xb.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(xb @ theta)))
        gradient = xb.T @ (p - y) + penalty @ theta
        hessian = xb.T @ (xb * (p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-9:
            break
    return theta[:-1], float(theta[-1])


def cross_validated(x: np.ndarray, y: np.ndarray, folds: np.ndarray) -> tuple[np.ndarray, float]:
    """Each pair's probability from the weights fitted on the other folds, and the Review band's
    start chosen on them: the probability from which same-fact pairs caught, less STAY_COST per
    distinct or complementary pair sent along, count most."""
    held = np.zeros(len(y))
    for k in range(FOLDS):
        w, b = fit(x[folds != k], y[folds != k])
        held[folds == k] = 1 / (1 + np.exp(-(x[folds == k] @ w + b)))
    best, review = -1.0, 1.0
    for t in sorted(set(np.round(held, 3))):
        chosen = held >= t
        value = float(y[chosen].sum() - STAY_COST * (1 - y)[chosen].sum())
        if value > best:
            best, review = value, float(t)
    return held, review


def residual(model: str) -> list[tuple[dict[str, Any], tuple[float, ...]]]:
    """The dev pairs the rules leave beside each other for no hard reason, with their features."""
    from memories.reconciliation.judge import DIFFERENT, rules, scorer_may_ask, slots
    from memories.reconciliation.scorer import features
    from memories.reconciliation.thresholds import for_model

    cut = for_model(model)
    out = []
    for name in SETS:
        pairs = json.loads(DATASETS[name].read_text(encoding="utf-8"))["items"]
        dev = [p for p in pairs if p["split"] == "dev"]
        for pair, cosine in zip(dev, cosines(model, dev), strict=True):
            new, old = pair["second"], pair["first"]
            if rules(new, old, cosine, cut).why != DIFFERENT or not scorer_may_ask(new, old):
                continue
            out.append((pair, features(new, old, cosine, cut, (slots(new), slots(old)))))
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench reconcile-fit", description=__doc__)
    parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    from memories.reconciliation.scorer import FEATURES
    from memories.search.embeddings import current_model

    model = current_model()
    rows = residual(model)
    x = np.array([f for _, f in rows])
    y = np.array([p["relation"] in ("restate", "update") for p, _ in rows], dtype=float)
    folds = np.array([fold_of(p["id"]) for p, _ in rows])
    held, review = cross_validated(x, y, folds)
    chosen = held >= review
    w, b = fit(x, y)
    print(f"model {model}: {len(y)} dev pairs left beside by the rules, {int(y.sum())} of one fact")
    print(
        f"cross-validated, from {review}: {int(y[chosen].sum())} of {int(y.sum())} same-fact pairs "
        f"to Review, {int((1 - y)[chosen].sum())} of {int((1 - y).sum())} distinct/complementary"
    )
    for name, weight in zip(FEATURES, w, strict=True):
        print(f"  {name:16} {weight:+.3f}")
    weights = ", ".join(f"{v:.3f}" for v in w)
    print(f"Fitted(weights=({weights}), bias={b:.3f}, review={review})")
    return 0
