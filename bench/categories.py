"""Local category classification against the labelled sets, for the dev and held-out halves:

Every set is labelled as a write labels it (`Classifier.label_memories`: each text's language
decides its signal words, and a text in a language the classifier is not validated for fails
closed).

- the general set: per-category precision and recall, macro-F1 and recall on sensitive categories;
- the sensitive set: sensitive statements written in varied ways (pregnancy, therapy, medication,
  debts, court cases, sexuality, religion, politics) and non-sensitive distractors. Reported:
  how many sensitive statements get a sensitive label (any: what keeps them from a default-grant
  app; right: the one they belong in), per topic, and how many distractors are wrongly labelled
  sensitive (the false-sensitive rate);
- the ordinary set (bench/data/ordinary_facts.json): everyday facts that belong in no sensitive
  category, many close to one's vocabulary (a payments team, a hobby's budget). Reported: the
  false-positive rate of each sensitive category (how often it hides an ordinary fact from a
  default-grant app) and of any sensitive label, overall and per topic.

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

DATA = Path(__file__).resolve().parent.parent / "tests" / "memories" / "data"
DATASET = DATA / "categories_labelled.json"
SENSITIVE_SET = DATA / "sensitive_labelled.json"
ORDINARY_SET = Path(__file__).resolve().parent / "data" / "ordinary_facts.json"


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


@dataclass(frozen=True)
class Statement:
    text: str
    category: str | None  # the sensitive category it belongs in; None for a distractor
    topic: str
    split: str


def load_sensitive(path: Path = SENSITIVE_SET) -> list[Statement]:
    doc = json.loads(path.read_text())
    return [
        Statement(item["text"], item["sensitive"], item["topic"], item["split"])
        for item in doc["items"]
    ]


def evaluate_sensitive(
    statements: Sequence[Statement], predicted: Sequence[Sequence[str]], sensitive: frozenset[str]
) -> dict[str, Any]:
    """Recall of sensitive labels on sensitive statements, and false-sensitive rate."""
    hits = [bool(sensitive & set(p)) for p in predicted]
    pos = [i for i, s in enumerate(statements) if s.category]
    neg = [i for i, s in enumerate(statements) if not s.category]
    topics: dict[str, list[int]] = {}
    for i in pos:
        topics.setdefault(statements[i].topic, []).append(i)

    def rate(part: list[int], ok: Any) -> float:
        return round(sum(1 for i in part if ok(i)) / len(part), 3) if part else 0.0

    return {
        "sensitive": len(pos),
        "distractors": len(neg),
        "recall_any": rate(pos, lambda i: hits[i]),
        "recall_right": rate(pos, lambda i: statements[i].category in predicted[i]),
        "false_sensitive": rate(neg, lambda i: hits[i]),
        "per_topic": {t: rate(ids, lambda i: hits[i]) for t, ids in topics.items()},
        "missed": [statements[i].text for i in pos if not hits[i]],
        "false_alarms": [statements[i].text for i in neg if hits[i]],
    }


@dataclass(frozen=True)
class Ordinary:
    text: str
    topic: str
    split: str


def load_ordinary(path: Path = ORDINARY_SET) -> list[Ordinary]:
    doc = json.loads(path.read_text())
    return [Ordinary(item["text"], item["topic"], item["split"]) for item in doc["items"]]


def evaluate_ordinary(
    facts: Sequence[Ordinary], predicted: Sequence[Sequence[str]], sensitive: frozenset[str]
) -> dict[str, Any]:
    """False-positive rate of each sensitive category (and of any) on facts in none of them."""
    n = len(facts)

    def rate(hits: int, total: int) -> float:
        return round(hits / total, 3) if total else 0.0

    per = {c: rate(sum(1 for p in predicted if c in p), n) for c in sorted(sensitive)}
    flagged = [bool(sensitive & set(p)) for p in predicted]
    topics: dict[str, list[int]] = {}
    for i, fact in enumerate(facts):
        topics.setdefault(fact.topic, []).append(i)
    return {
        "n": n,
        "false_positive": per,
        "false_positive_any": rate(sum(flagged), n),
        "per_topic": {t: rate(sum(flagged[i] for i in ids), len(ids)) for t, ids in topics.items()},
        "false_alarms": [
            f"{facts[i].text} [{', '.join(sorted(sensitive & set(predicted[i])))}]"
            for i in range(n)
            if flagged[i]
        ],
    }


def run(splits: Sequence[str] = ("dev", "heldout")) -> dict[str, Any]:
    from memories.categories.vocabulary import SENSITIVE
    from memories.classify import classifier_for
    from memories.search.embeddings import get_embedder

    examples = load()
    statements = load_sensitive()
    ordinary = load_ordinary()
    classifier = classifier_for()
    embedder = get_embedder()
    report: dict[str, Any] = {"model": embedder.model_name}
    for split in splits:
        chosen = [e for e in examples if e.split == split]
        texts = [e.text for e in chosen]
        predicted = classifier.label_memories(embedder.embed(texts), texts)
        report[split] = evaluate([e.categories for e in chosen], predicted, SENSITIVE)
        picked = [s for s in statements if s.split == split]
        texts = [s.text for s in picked]
        predicted = classifier.label_memories(embedder.embed(texts), texts)
        report[split]["sensitive_set"] = evaluate_sensitive(picked, predicted, SENSITIVE)
        facts = [f for f in ordinary if f.split == split]
        texts = [f.text for f in facts]
        predicted = classifier.label_memories(embedder.embed(texts), texts)
        report[split]["ordinary_set"] = evaluate_ordinary(facts, predicted, SENSITIVE)
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
        t = r["sensitive_set"]
        print(
            f"  sensitive set: {t['sensitive']} sensitive statements, recall (any sensitive "
            f"label)={t['recall_any']}, right category={t['recall_right']}; "
            f"{t['distractors']} distractors, false-sensitive={t['false_sensitive']}"
        )
        print("  per topic: " + ", ".join(f"{k} {v}" for k, v in t["per_topic"].items()))
        o = r["ordinary_set"]
        print(
            f"  ordinary set: {o['n']} ordinary facts, false-positive rate per sensitive "
            "category: "
            + ", ".join(f"{k} {v}" for k, v in o["false_positive"].items())
            + f"; any sensitive label {o['false_positive_any']}"
        )
        print("  per topic: " + ", ".join(f"{k} {v}" for k, v in o["per_topic"].items()))
        if split == "dev":  # the held-out half's texts stay out of sight while tuning
            print(f"  missed: {'; '.join(t['missed']) or '-'}")
            print(f"  false alarms: {'; '.join(t['false_alarms']) or '-'}")
            print(f"  ordinary false alarms: {'; '.join(o['false_alarms']) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
