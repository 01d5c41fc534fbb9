"""Local reconciliation (`memories/reconciliation/`) on bench/data/reconcile_pairs.json: each pair's
second text against its first, with the cosine of the configured model (EMBEDDING_MODEL), for the
dev and held-out splits apart. Reported per split: restatements merged, updates superseding,
distinct and complementary pairs wrongly merged or superseded (the bar: at most 1%), and how many
of each went to the owner's Review (unsure). No database: the pairs are embedded in memory.

    uv run python -m bench reconcile [--json] [--show dev]
                                     [--data lookalikes|dev2|dev3|fresh|fresh2]
    EMBEDDING_MODEL=intfloat/multilingual-e5-small-q4 uv run python -m bench reconcile

`--data lookalikes`: bench/data/reconcile_lookalikes.json, different people, roles and in-laws
that look alike (coach / team lead, flatmate / neighbour, mother / mother-in-law) in the eight
languages, written before the judge's subject guard; its split is fixed by a hash of the id.
`--data dev2`: bench/data/reconcile_dev2.json, 200 look-alikes (another person, a pro-drop verb's
person, Spanish "son", other numbers, names, pets), complementary pairs, restates and updates
(ages, schools, pets, plans) in the eight languages and xx-en, written before the rules it tests
(branch `reconcile38b`); its split is fixed by a hash of the id, as lookalikes'.
`--data dev3`: bench/data/reconcile_dev3.json, 179 pairs written before the rules of branch
`reconcile38c` (issue 38.1: generalisation): restates and updates said the way people say them
(other words, other order, shorter or longer, non-native English, the seven other languages and
xx-en), distinct look-alikes and complementary pairs as controls; split by the id's hash.
`--data fresh`: bench/data/reconcile_fresh.json, a second held-out set written by hand later by
someone who never read the judge (restate / update / distinct / complementary in the eight
languages and xx-en): every pair is evaluated as held-out whatever its split, and `--show` is
refused with it.
`--data fresh2`: bench/data/reconcile_fresh2.json, another author's 286 pairs (160 English, 18 in
each other language), written by the helper of branch `fresh3`, who never read the judge or any
rule; all held out, as `fresh`.
Held-out misses are never listed, only counted.
"""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent / "data"
DATASETS = {
    "pairs": DATA / "reconcile_pairs.json",
    "lookalikes": DATA / "reconcile_lookalikes.json",
    "dev2": DATA / "reconcile_dev2.json",
    "dev3": DATA / "reconcile_dev3.json",
    "fresh": DATA / "reconcile_fresh.json",
    "fresh2": DATA / "reconcile_fresh2.json",
}
ALL_HELDOUT = {"fresh", "fresh2"}  # sets nobody tuned on: every pair held out, none ever listed
SPLITS = ("dev", "heldout")
EXPECTED = {"restate": "restate", "update": "update"}  # distinct, complementary: both stay


def cosines(model: str, pairs: list[dict[str, Any]]) -> list[float]:
    from memories.search.embeddings import get_embedder

    embedder = get_embedder(model)
    first = embedder.embed([p["first"] for p in pairs])
    second = embedder.embed([p["second"] for p in pairs])
    return [
        float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
        for a, b in zip(first, second, strict=True)
    ]


def run(model: str, data: str = "pairs") -> dict[str, Any]:
    from memories.reconciliation.judge import RESTATE, UPDATE, judge
    from memories.reconciliation.thresholds import for_model

    pairs = json.loads(DATASETS[data].read_text(encoding="utf-8"))["items"]
    if data in ALL_HELDOUT:
        pairs = [{**p, "split": "heldout"} for p in pairs]
    cut = for_model(model)
    report: dict[str, Any] = {"model": model, "data": data, "cosines": asdict(cut)}
    verdicts = [
        judge(p["second"], p["first"], c, cut)
        for p, c in zip(pairs, cosines(model, pairs), strict=True)
    ]
    for split in SPLITS:
        counts: Counter[tuple[str, str]] = Counter()
        misses = []
        for pair, verdict in zip(pairs, verdicts, strict=True):
            if pair["split"] != split:
                continue
            counts[(pair["relation"], verdict.kind)] += 1
            if verdict.kind != EXPECTED.get(pair["relation"], "distinct"):
                misses.append(f"{pair['id']} {pair['relation']} -> {verdict.kind} ({verdict.why})")
        n = Counter[str]()
        for (relation, _), k in counts.items():
            n[relation] += k
        stay = n["distinct"] + n["complementary"]
        wrong = sum(
            k
            for (r, v), k in counts.items()
            if r in ("distinct", "complementary") and v in (RESTATE, UPDATE)
        )
        report[split] = {
            "pairs": sum(n.values()),
            "restates_merged": round(counts[("restate", RESTATE)] / max(n["restate"], 1), 3),
            "updates_superseding": round(counts[("update", UPDATE)] / max(n["update"], 1), 3),
            "wrong_merge_or_supersede": round(wrong / max(stay, 1), 3),
            "wrong_count": wrong,
            "to_review": {r: counts[(r, "unsure")] for r in sorted(n)},
            "per_relation": {
                r: {v: counts[(r, v)] for (rr, v) in counts if rr == r} for r in sorted(n)
            },
            "misses": misses if split == "dev" else [],  # held-out: counted, never listed
        }
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench reconcile", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    parser.add_argument("--show", choices=["dev"], help="list the dev split's misses")
    parser.add_argument("--data", choices=sorted(DATASETS), default="pairs", help="which set")
    args = parser.parse_args(argv)
    if args.show and args.data in ALL_HELDOUT:
        parser.error(f"--data {args.data} is held out: its misses are never listed")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    from memories.search.embeddings import current_model

    report = run(current_model(), args.data)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    print(f"model {report['model']}  data {report['data']}  cosines {report['cosines']}")
    for split in SPLITS:
        r = report[split]
        print(
            f"{split:8} n={r['pairs']}  restates merged {r['restates_merged']}  updates "
            f"superseding {r['updates_superseding']}  wrong merges/supersedes "
            f"of distinct+complementary {r['wrong_merge_or_supersede']} ({r['wrong_count']})  "
            f"to Review {r['to_review']}"
        )
        if args.show == split:
            print("\n".join("  " + m for m in r["misses"]))
    print(json.dumps({s: {k: v for k, v in report[s].items() if k != "misses"} for s in SPLITS}))
    return 0
