"""Local category classification against the labelled set: per-category precision and recall,
macro-F1 and recall on sensitive categories, for the dev and held-out halves.

    uv run python -m bench categories [--json] [--split dev|heldout]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATASET = (
    Path(__file__).resolve().parent.parent
    / "tests"
    / "memories"
    / "data"
    / "categories_labelled.json"
)


@dataclass(frozen=True)
class Example:
    text: str
    categories: frozenset[str]
    split: str


def load(path: Path = DATASET) -> list[Example]:
    doc = json.loads(path.read_text())
    return [
        Example(item["text"], frozenset(item["categories"]), item["split"]) for item in doc["items"]
    ]


def evaluate(
    gold: Sequence[frozenset[str]], predicted: Sequence[Sequence[str]], sensitive: frozenset[str]
) -> dict[str, Any]:
    """Per-category precision/recall/F1 over the categories that occur in `gold`."""
    labels = sorted(set().union(*gold))
    per: dict[str, dict[str, float]] = {}
    for label in labels:
        tp = sum(1 for g, p in zip(gold, predicted, strict=True) if label in g and label in p)
        fp = sum(1 for g, p in zip(gold, predicted, strict=True) if label not in g and label in p)
        fn = sum(1 for g, p in zip(gold, predicted, strict=True) if label in g and label not in p)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per[label] = {
            "precision": round(precision, 3),
            "recall": round(recall, 3),
            "f1": round(f1, 3),
            "support": tp + fn,
        }
    sens_total = sum(len(g & sensitive) for g in gold)
    sens_hit = sum(len(g & sensitive & set(p)) for g, p in zip(gold, predicted, strict=True))
    return {
        "n": len(gold),
        "macro_f1": round(sum(v["f1"] for v in per.values()) / len(per), 3) if per else 0.0,
        "sensitive_recall": round(sens_hit / sens_total, 3) if sens_total else 1.0,
        "per_category": per,
    }


def run(splits: Sequence[str] = ("dev", "heldout")) -> dict[str, Any]:
    from memories.categories import SENSITIVE
    from memories.classify import classifier_for
    from memories.embeddings import get_embedder

    examples = load()
    classifier = classifier_for()
    report: dict[str, Any] = {"model": get_embedder().model_name}
    for split in splits:
        chosen = [e for e in examples if e.split == split]
        vectors = get_embedder().embed([e.text for e in chosen])
        predicted = classifier.classify(vectors)
        report[split] = evaluate([e.categories for e in chosen], predicted, SENSITIVE)
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench categories", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    parser.add_argument(
        "--split", choices=("dev", "heldout"), action="append", help="evaluate only this half"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    report = run(args.split or ("dev", "heldout"))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for split in args.split or ("dev", "heldout"):
        r = report[split]
        print(
            f"\n{split}: n={r['n']}  macro-F1={r['macro_f1']}  "
            f"sensitive recall={r['sensitive_recall']}"
        )
        print(f"  {'category':<14}{'P':>7}{'R':>7}{'F1':>7}{'n':>5}")
        for label, v in r["per_category"].items():
            print(f"  {label:<14}{v['precision']:>7}{v['recall']:>7}{v['f1']:>7}{v['support']:>5}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
