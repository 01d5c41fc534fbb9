"""A small parameter sweep for the hybrid search on LoCoMo (how memories/search.py was tuned).

Both arms are run once per question and setting (BM25 k1, b), then fused in Python with each fusion
candidate: weighted RRF (k, lexical weight) and a convex combination of min-max normalised scores
(`memories.search.fuse_scores`, dense share alpha).
Besides the pooled recall it prints a leave-one-conversation-out estimate (pick the best setting on
four conversations, score it on the fifth), a guard against fitting five conversations.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.environment import add_common, emit
from bench.locomo import each_tenant, load, recall_at

K1S = (0.9, 1.2, 1.6, 2.0)
BS = (0.3, 0.5, 0.75, 0.9)
RRF_KS = (5, 10, 20, 30, 60)
LEX_WEIGHTS = (0.75, 1.0, 1.25, 1.5, 2.0)
ALPHAS = (0.3, 0.4, 0.5, 0.6, 0.7)  # dense share in the convex combination
DEPTH = 100
CUTOFF = 10

Arm = list[tuple[uuid.UUID, float]]
Fusion = Callable[[Arm, Arm], list[uuid.UUID]]


def rrf(k: int, lexical_weight: float) -> Fusion:
    from memories.search import fuse

    def run(dense: Arm, lexical: Arm) -> list[uuid.UUID]:
        return [c.id for c in fuse(dense, lexical, k=k, lexical_weight=lexical_weight)]

    return run


def convex(alpha: float) -> Fusion:
    from memories.search import fuse_scores

    def run(dense: Arm, lexical: Arm) -> list[uuid.UUID]:
        return [c.id for c in fuse_scores(dense, lexical, depth=DEPTH, dense_share=alpha)]

    return run


def fusions() -> dict[str, Fusion]:
    out: dict[str, Fusion] = {}
    for k, w in itertools.product(RRF_KS, LEX_WEIGHTS):
        out[f"rrf k={k} wl={w}"] = rrf(k, w)
    for a in ALPHAS:
        out[f"convex a={a}"] = convex(a)
    out["dense only"] = lambda dense, lexical: [m for m, _ in dense]
    out["lexical only"] = lambda dense, lexical: [m for m, _ in lexical]
    return out


def sweep(path: Path) -> dict[str, Any]:
    from memories import search
    from memories.embeddings import get_embedder
    from memories.visibility import visible_sql

    conversations = load(path)
    table = fusions()
    # (setting, fusion) -> conversation -> list of recall@CUTOFF for questions of categories 1-4
    scores: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    started = time.perf_counter()
    for tenant in each_tenant(conversations):
        visible, params = visible_sql(tenant.actor)
        params = {**params, "category": None}
        for q in [q for q in tenant.conv.questions if 1 <= q.category <= 4]:
            qvec = get_embedder().embed_query(q.question)
            dense = search.dense_arm(qvec, visible=visible, params=params, depth=DEPTH)
            for k1, b in itertools.product(K1S, BS):
                lexical = search.lexical_arm(
                    q.question, visible=visible, params=params, depth=DEPTH, k1=k1, b=b
                )
                for name, fusion in table.items():
                    ranked = [tenant.dia_of[m] for m in fusion(dense, lexical)]
                    scores[(f"k1={k1} b={b}", name)][tenant.conv.sample_id].append(
                        recall_at(ranked, q.gold, CUTOFF)
                    )
        print(f"{tenant.conv.sample_id}: swept ({time.perf_counter() - started:.0f} s)", flush=True)
        started = time.perf_counter()
    return _report(scores, [c.sample_id for c in conversations])


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _report(
    scores: dict[tuple[str, str], dict[str, list[float]]], convs: list[str]
) -> dict[str, Any]:
    pooled = {key: _mean([x for c in convs for x in per[c]]) for key, per in scores.items()}
    ranking = sorted(pooled.items(), key=lambda kv: -kv[1])
    print(f"\nTop settings by pooled R@{CUTOFF} (categories 1-4):")
    for (setting, fusion), value in ranking[:15]:
        print(f"  {value:.4f}  {setting:18s} {fusion}")
    # Leave one conversation out: choose on four, score on the fifth.
    held_out = []
    for test in convs:
        train = [c for c in convs if c != test]
        best = max(
            scores,
            key=lambda key: _mean([x for c in train for x in scores[key][c]]),
        )
        held_out.append((test, best, _mean(scores[best][test]), len(scores[best][test])))
        print(f"  held out {test}: best on the rest {best} -> {held_out[-1][2]:.4f}")
    total = sum(n for *_, n in held_out)
    cv = sum(v * n for *_, v, n in held_out) / total
    print(f"Leave-one-conversation-out R@{CUTOFF}: {cv:.4f}")
    families = {
        "rrf": "rrf ",
        "convex": "convex ",
        "dense": "dense only",
        "lexical": "lexical only",
    }
    best_of = {
        family: max(
            ((key, v) for key, v in pooled.items() if key[1].startswith(prefix)),
            key=lambda kv: kv[1],
        )
        for family, prefix in families.items()
    }
    for family, ((setting, fusion), value) in best_of.items():
        print(f"best {family:8s} {value:.4f}  {setting} | {fusion}")
    return {
        "best_of_each": {
            family: {"setting": f"{s} | {f}", f"R@{CUTOFF}": round(v, 4)}
            for family, ((s, f), v) in best_of.items()
        },
        "top": [
            {"setting": s, "fusion": f, f"R@{CUTOFF}": round(v, 4)} for (s, f), v in ranking[:15]
        ],
        "reference": {
            f"{s} | {f}": round(v, 4)
            for (s, f), v in ranking
            if f in ("dense only", "lexical only", "rrf k=60 wl=1.0") and s == "k1=1.2 b=0.75"
        },
        "loco_cv": round(cv, 4),
        "loco_choices": [{"held_out": t, "chosen": " | ".join(b)} for t, b, _, _ in held_out],
    }


def run(args: Any) -> None:
    emit(sweep(Path(args.path)))


def register(sub: Any) -> None:
    parser = sub.add_parser("locomo-sweep", help="Sweep BM25 and fusion parameters on LoCoMo.")
    parser.add_argument("path", help="LoCoMo JSON file (e.g. locomo-dev.json).")
    add_common(parser)
    parser.set_defaults(run=run)
