"""The sensitive-label model (memories/sensitive_model.py): cross-validation on dev, training,
speed. No database: texts are labelled in memory, as `bench categories` does.

- `--cv`: the dev items (every set the model trains on, never a held-out split) in FOLDS folds,
  stratified by set, language and class; each fold is scored by a model trained on the others and
  the hand-written list. Reported per language over the multilingual, second and third dev sets,
  and for the English sets, for a sweep of (THRESHOLD, VETO): sensitive recall (hidden: any
  sensitive label), the share of hidden ones under a wrong category, and ordinary false
  positives, of the model alone, of the rules alone (signal words and embedding classifier) and
  of the labels a write gives (the real classifier, with the model's out-of-fold verdicts where
  it reads the language: not English); every group for the shipped pair, the pooled ones for the
  others. The signal
  words were written from these dev sets' misses, so the rules alone are near 1.0 here: the
  model's own out-of-fold recall is the honest figure of what it adds on unseen text, its false
  positives what it costs.
  For English, which the model does not read, a sweep of the embedding model's `english_veto`
  (the model dropping a label the embedding gave by nearness alone) on the English dev sets.
- `--train`: trains on all of it and writes memories/sensitive_model.json, printing its sha256
  (for `WEIGHTS_SHA256`).
- `--speed`: microseconds per text of the model (features and scoring) on the dev texts.

    uv run python -m bench sensitive-model --cv
    uv run python -m bench sensitive-model --train
    uv run python -m bench sensitive-model --speed
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

FOLDS = 5
# (THRESHOLD, VETO) pairs swept by `--cv`.
SETTINGS = tuple(
    (threshold, veto)
    for threshold in (0.65, 0.7, 0.75, 0.8, 0.85)
    for veto in (0.0, 0.2, 0.3, 0.4, 0.5, 0.6)
)
RULE_SETS = ("multilingual", "dev2", "dev3")
# `Thresholds.english_veto` values swept by `--cv` (English dev sets, the shipped pair).
ENGLISH_VETOES = (0.0, 0.02, 0.05, 0.08, 0.1, 0.15, 0.2)


def folds(examples: list[Any]) -> list[int]:
    seen: Counter[tuple[str, str, str]] = Counter()
    out = []
    for e in examples:
        key = (e.source, e.lang, e.label)
        out.append(seen[key] % FOLDS)
        seen[key] += 1
    return out


@contextmanager
def _model_as(
    verdicts: dict[str, tuple[float, str]] | None, threshold: float = 0.0, veto: float = 0.0
) -> Iterator[None]:
    """Labels as a write gives them with the model's verdicts on these texts taken from
    `verdicts` (out of fold) and its thresholds set; None: the model switched off (the labels
    a write gave before it)."""
    from memories import sensitive_model

    kept = sensitive_model.reads, sensitive_model.verdict, sensitive_model.THRESHOLD
    kept_veto = sensitive_model.VETO
    if verdicts is None:
        sensitive_model.reads = lambda code: False
    else:
        sensitive_model.verdict = lambda text, weights=None: verdicts[text]
    sensitive_model.THRESHOLD, sensitive_model.VETO = threshold, veto
    try:
        yield
    finally:
        sensitive_model.reads, sensitive_model.verdict, sensitive_model.THRESHOLD = kept
        sensitive_model.VETO = kept_veto


def labels_with(
    texts: list[str],
    vectors: list[Any],
    verdicts: dict[str, tuple[float, str]] | None,
    threshold: float = 0.0,
    veto: float = 0.0,
    english_veto: float | None = None,
) -> list[frozenset[str]]:
    """The sensitive labels a write gives each text (see `_model_as`); the embedding model's
    English veto (`Thresholds.english_veto`) as given, none without the model's verdicts."""
    from dataclasses import replace

    from memories.categories.vocabulary import DEFAULT_CATEGORIES, SENSITIVE
    from memories.classify import Classifier, classifier_for

    classifier = classifier_for()
    if verdicts is None:
        english_veto = 0.0
    if english_veto is not None:
        thresholds = replace(classifier.thresholds, english_veto=english_veto)
        classifier = Classifier(DEFAULT_CATEGORIES, thresholds)
    with _model_as(verdicts, threshold, veto):
        labels = classifier.label_memories(vectors, texts)
    return [SENSITIVE & set(cats) for cats in labels]


def _rate(hits: int, n: int) -> float | None:
    return round(hits / n, 3) if n else None


def out_of_fold(examples: list[Any]) -> dict[str, tuple[float, str]]:
    """Each dev text's verdict from a model trained without its fold."""
    from memories import sensitive_model as sm

    fold_of = folds(examples)
    verdicts: dict[str, tuple[float, str]] = {}
    for fold in range(FOLDS):
        kept = [e for e, f in zip(examples, fold_of, strict=True) if f != fold]
        weights = sm.fit(sm.training_list(kept))
        for e, f in zip(examples, fold_of, strict=True):
            if f == fold:
                verdicts[e.text] = sm.verdict(e.text, weights)
    return verdicts


def _group(e: Any) -> tuple[str, str]:
    if e.source in RULE_SETS:
        return e.lang, "languages" if e.lang != "en" else "english"
    return f"en:{e.source}", "english"


def english_veto_sweep(
    examples: list[Any],
    texts: list[str],
    vectors: list[Any],
    verdicts: dict[str, tuple[float, str]],
    rules: list[frozenset[str]],
) -> dict[str, Any]:
    """Per `ENGLISH_VETOES` value, on the English dev texts at the shipped (THRESHOLD, VETO):
    hidden recall, ordinary false positives, and the sensitive texts the rules hid and the veto
    let through."""
    from memories import sensitive_model as sm

    out: dict[str, Any] = {}
    for english_veto in ENGLISH_VETOES:
        labels = labels_with(texts, vectors, verdicts, sm.THRESHOLD, sm.VETO, english_veto)
        counts: Counter[str] = Counter()
        lost = []
        for e, r, b in zip(examples, rules, labels, strict=True):
            if e.lang != "en":
                continue
            kind = "s" if e.label != sm.ORDINARY_CLASS else "o"
            counts[kind] += 1
            counts[f"{kind}_both"] += bool(b)
            if kind == "s" and r and not b:
                lost.append(e.text)
        out[str(english_veto)] = {
            "recall": _rate(counts["s_both"], counts["s"]),
            "fp": _rate(counts["o_both"], counts["o"]),
            "n": f"{counts['s']}/{counts['o']}",
            "lost_to_veto": lost,
        }
    return out


def cross_validate() -> dict[str, Any]:
    from memories import sensitive_model as sm
    from memories.search.embeddings import get_embedder

    examples = sm.dev_examples()
    verdicts = out_of_fold(examples)
    texts = [e.text for e in examples]
    vectors = get_embedder().embed(texts)
    rules = labels_with(texts, vectors, None)
    table: dict[str, Any] = {}
    for threshold, veto in SETTINGS:
        both = labels_with(texts, vectors, verdicts, threshold, veto)
        groups: dict[str, Counter[str]] = defaultdict(Counter)
        for e, r, b in zip(examples, rules, both, strict=True):
            group, pooled = _group(e)
            kind = "s" if e.label != sm.ORDINARY_CLASS else "o"
            for c in (groups[group], groups[f"all:{pooled}"]):
                c[kind] += 1
                c[f"{kind}_model"] += verdicts[e.text][0] >= threshold
                c[f"{kind}_rules"] += bool(r)
                c[f"{kind}_both"] += bool(b)
                c["wrong"] += kind == "s" and bool(b) and e.label not in b
        table[f"{threshold}/{veto}"] = {
            g: {
                "recall_model": _rate(c["s_model"], c["s"]),
                "recall_rules": _rate(c["s_rules"], c["s"]),
                "recall": _rate(c["s_both"], c["s"]),
                "wrong_category": _rate(c["wrong"], c["s_both"]),
                "fp_model": _rate(c["o_model"], c["o"]),
                "fp_rules": _rate(c["o_rules"], c["o"]),
                "fp": _rate(c["o_both"], c["o"]),
                "n": f"{c['s']}/{c['o']}",
            }
            for g, c in sorted(groups.items())
        }
    by_english_veto = english_veto_sweep(examples, texts, vectors, verdicts, rules)
    return {
        "folds": FOLDS,
        "texts": len(examples),
        "by_setting": table,
        "by_english_veto": by_english_veto,
    }


def speed(rounds: int = 5) -> dict[str, float]:
    """The model's cost per text beside its floor in the same run: embedding the same texts,
    which every write does anyway (in batches of 32, as an import does)."""
    from memories import sensitive_model as sm
    from memories.search.embeddings import get_embedder

    texts = [e.text for e in sm.dev_examples()]
    sm.category("warm up")
    embedder = get_embedder()
    embedder.embed(texts[:32])

    def timed(run: Callable[[], object], times: int) -> float:
        spent = []
        for _ in range(times):
            start = time.perf_counter()
            run()
            spent.append((time.perf_counter() - start) / len(texts))
        return statistics.median(spent)

    model = timed(lambda: [sm.category(t) for t in texts], rounds)
    embedding = timed(
        lambda: [embedder.embed(texts[i : i + 32]) for i in range(0, len(texts), 32)], 1
    )
    return {
        "texts": len(texts),
        "model_us_per_text": round(model * 1e6, 1),
        "embedding_us_per_text": round(embedding * 1e6, 1),
        "model_share_of_embedding": round(model / embedding, 4),
    }


def write_weights() -> dict[str, Any]:
    from memories import sensitive_model as sm

    data = sm.train()
    sm.WEIGHTS.write_text(json.dumps(data, indent=0) + "\n")
    return {
        "written": str(sm.WEIGHTS),
        "sha256": hashlib.sha256(sm.WEIGHTS.read_bytes()).hexdigest(),
        "training": data["training"],
        "texts": len(sm.training_list()),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench sensitive-model", description=__doc__)
    parser.add_argument("--cv", action="store_true", help="cross-validate on dev folds")
    parser.add_argument("--train", action="store_true", help="write memories/sensitive_model.json")
    parser.add_argument("--speed", action="store_true", help="microseconds per text")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    result: dict[str, Any] = {}
    if args.train:
        result["train"] = write_weights()
        print(f"wrote {result['train']}")
    if args.cv:
        result["cv"] = cv = cross_validate()
        print(f"{cv['texts']} dev texts, {cv['folds']} folds (model out of fold)")
        print(
            f"  {'thr/veto':10}{'group':16}{'n s/o':>9}{'recall':>8}{'model':>7}{'rules':>7}"
            f"{'wrong':>7}{'fp':>7}{'model':>7}{'rules':>7}"
        )
        from memories import sensitive_model as sm

        shipped = f"{sm.THRESHOLD}/{sm.VETO}"
        for setting, groups in cv["by_setting"].items():
            for g, r in groups.items():
                if setting != shipped and not g.startswith("all:"):
                    continue  # every group for the shipped setting, the pooled ones for others
                print(
                    f"  {setting:10}{g:16}{r['n']:>9}{r['recall']!s:>8}{r['recall_model']!s:>7}"
                    f"{r['recall_rules']!s:>7}{r['wrong_category']!s:>7}{r['fp']!s:>7}"
                    f"{r['fp_model']!s:>7}{r['fp_rules']!s:>7}"
                )
        for english_veto, r in cv["by_english_veto"].items():
            print(
                f"  English veto {english_veto:5}: recall {r['recall']} false+ {r['fp']}"
                f" (n {r['n']}), lost to the veto: {r['lost_to_veto']}"
            )
    if args.speed:
        result["speed"] = speed()
        print(f"speed: {result['speed']}")
    print(json.dumps(result))
    return 0
