"""A head learned on the frozen vectors of both shipped models, for local reconciliation's
restatements and updates (issue 38.1): the last route the paraphrase candidates left
(`bench reconcile-signal`), measured on the dev splits of the `bench reconcile` sets only
(reconcile_pairs, lookalikes, dev2, dev3; a held-out pair is never read), not wired.

Per pair, with u and v the unit vectors of its two texts under a model: the cosine alone, or the
features [u*v, |u-v|] (768 per model) into a logistic regression (`reconcile_fit.fit`, L2), for
all-MiniLM-L6-v2, multilingual-e5-small, and both side by side. Five folds fixed by sha256(id)
mod 5 (`reconcile_fit.fold_of`): fitted on four, the cut is the score of the highest pair that
must stay (distinct or complementary) among them, applied to the fifth. Reported: the
cross-validated AUC of one relation against the pairs that must stay, the pairs of that relation
above the cut ("caught") and the pairs that must stay above it ("wrong").

With `--heldout` (read once, aggregates only): fitted on every dev pair, the head scores the
pairs nobody tuned on (the held-out splits of those sets, `reconcile_fresh`, `reconcile_fresh2`):
AUC, and the pairs caught at the best cut with at most 1% of those that must stay above it —
a cut chosen on the held-out pairs themselves, so an upper bound of what the head could do.

    uv run python -m bench reconcile-head [--heldout]
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import numpy as np

from bench.reconcile import ALL_HELDOUT, DATASETS
from bench.reconcile_fit import FOLDS, SETS, fit, fold_of
from bench.reconcile_signal import auc, dev_pairs

STAY = ("distinct", "complementary")
PENALTIES = (0.01, 0.1, 1.0, 10.0)


def heldout_pairs() -> list[dict[str, Any]]:
    """Every pair nobody tuned on: the held-out splits of `SETS`, and the fresh sets whole."""
    pairs = []
    for name in (*SETS, *sorted(ALL_HELDOUT)):
        items = json.loads(DATASETS[name].read_text(encoding="utf-8"))["items"]
        if name in ALL_HELDOUT:
            pairs += [{**p, "split": "heldout"} for p in items]
        else:
            pairs += [p for p in items if p["split"] == "heldout"]
    return pairs


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _pair_features(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    return np.hstack([first * second, np.abs(first - second)])


def _row(area: float, caught: int, wrong: int, y: np.ndarray) -> dict[str, float]:
    """AUC, pairs of the relation above the cut of how many, pairs that must stay above it."""
    return {
        "auc": area,
        "caught": caught,
        "of": int(y.sum()),
        "wrong": wrong,
        "stay": int((1 - y).sum()),
    }


def _measure(x: np.ndarray, y: np.ndarray, folds: np.ndarray, l2: float) -> dict[str, float]:
    held = np.zeros(len(y))
    caught = wrong = 0
    for k in range(FOLDS):
        train, test = folds != k, folds == k
        w, bias = fit(x[train], y[train], l2)
        cut = float((x[train] @ w + bias)[y[train] == 0].max())
        held[test] = x[test] @ w + bias
        caught += int(((held[test] > cut) & (y[test] == 1)).sum())
        wrong += int(((held[test] > cut) & (y[test] == 0)).sum())
    return _row(auc(held[y == 1], held[y == 0]), caught, wrong, y)


def _upper_bound(scores: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """AUC, and the most positives above a cut with at most 1% of the negatives above it."""
    negatives = np.sort(scores[y == 0])[::-1]
    allowed = int(0.01 * len(negatives))
    cut = float(negatives[allowed]) if allowed < len(negatives) else -np.inf
    above = scores > cut
    return _row(
        auc(scores[y == 1], scores[y == 0]), int(above[y == 1].sum()), int(above[y == 0].sum()), y
    )


def _heldout(vectors: dict[str, Any], pairs: list[dict[str, Any]], report: list[Any]) -> None:
    """Fit on every dev pair, score the held-out ones (`vectors` holds both, dev first)."""
    dev = np.array([p["split"] == "dev" for p in pairs])
    relation = np.array([p["relation"] for p in pairs])
    for target in ("restate", "update"):
        keep = np.isin(relation, [target, *STAY])
        y = (relation == target).astype(float)
        for label, models in (("e5", ["e5"]), ("both", ["minilm", "e5"])):
            x = np.hstack([_pair_features(*vectors[m]) for m in models])
            for l2 in PENALTIES:
                w, bias = fit(x[keep & dev], y[keep & dev], l2)
                test = keep & ~dev
                got = _upper_bound(x[test] @ w + bias, y[test])
                report.append(
                    {
                        "on": "held-out",
                        "relation": target,
                        "models": label,
                        "signal": f"head l2={l2:g}",
                        **got,
                    }
                )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench reconcile-head", description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--heldout", action="store_true", help="score the held-out pairs once")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    from memories.search.embeddings import E5_MODEL, MINILM_MODEL, get_embedder

    dev = dev_pairs()
    pairs = dev + (heldout_pairs() if args.heldout else [])
    vectors = {}
    for label, model in (("minilm", MINILM_MODEL), ("e5", E5_MODEL)):
        embedder = get_embedder(model)
        first = _unit(np.array(embedder.embed([p["first"] for p in pairs])))
        second = _unit(np.array(embedder.embed([p["second"] for p in pairs])))
        vectors[label] = (first, second)
    report: list[dict[str, Any]] = []
    if args.heldout:
        _heldout(vectors, pairs, report)
        pairs = dev
        vectors = {k: (a[: len(dev)], b[: len(dev)]) for k, (a, b) in vectors.items()}
    relation = np.array([p["relation"] for p in pairs])
    folds = np.array([fold_of(p["id"]) for p in pairs])
    for target in ("restate", "update"):
        keep = np.isin(relation, [target, *STAY])
        y = (relation[keep] == target).astype(float)
        for label, models in (("minilm", ["minilm"]), ("e5", ["e5"]), ("both", ["minilm", "e5"])):
            cosine = np.stack([(vectors[m][0] * vectors[m][1]).sum(1)[keep] for m in models], 1)
            head = np.hstack(
                [
                    np.hstack(
                        [vectors[m][0] * vectors[m][1], np.abs(vectors[m][0] - vectors[m][1])]
                    )
                    for m in models
                ]
            )[keep]
            rows = [("cosine", cosine, 1e-3)] + [(f"head l2={p:g}", head, p) for p in PENALTIES]
            for name, x, l2 in rows:
                got = _measure(x, y, folds[keep], l2)
                report.append(
                    {"on": "dev CV", "relation": target, "models": label, "signal": name, **got}
                )
    if args.json:
        print(json.dumps(report))
        return 0
    stay = int(np.isin(relation, STAY).sum())
    print(f"{len(pairs)} dev pairs; each relation against the {stay} that must stay")
    for r in report:
        print(
            f"{r['on']:8} {r['relation']:8} {r['models']:6} {r['signal']:12} AUC {r['auc']:.3f}  "
            f"caught {r['caught']}/{r['of']} ({r['caught'] / r['of']:.3f})  "
            f"wrong {r['wrong']}/{r['stay']}"
        )
    return 0
