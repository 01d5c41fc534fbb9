"""How memories/search/scoring.py's relevance score and cut-off were tuned on the LoCoMo dev set.

For every question (categories 1-4) and every hand-written no-answer question
(`bench/data/locomo_no_answer.json`), both arms score every turn of the conversation once per BM25
setting (k1, b) through the in-memory index, exactly as the app scores them. Then, in numpy:
1. the ranking: for every combination of the score's parameters
   (`memories.search.model_profiles.Weights`), the recall@10 of its ranking (categories 1-4, no
   cut-off); the best pooled setting is chosen;
2. the cut-off: for that ranking, for every unknown-query floor and cut-off, the recall@10 of what
   is left above the cut-off and the false-hit rate (the share of no-answer questions with any
   result left); chosen: the lowest false-hit rate whose recall is within `--tolerance` of the
   uncut recall.
For reference it also prints the fusion this score replaced (per-query min-max normalised arms,
dense share .4, depth 100: R@10 .696). Both choices are repeated leaving one conversation out
(choose on four, score the fifth), a guard against fitting five conversations.
"""

from __future__ import annotations

import itertools
import pickle
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.environment import add_common, emit
from bench.locomo import each_tenant, load, no_answer_questions

K1S = (0.9, 1.2, 1.6, 2.0)
BS = (0.3, 0.5)
COSINE_FULL = (0.75, 0.8, 0.85, 0.9)
KEYWORD_FULL = (1.0, 1.25, 1.5, 2.0)
SEMANTIC_WEIGHT = (0.4, 0.5, 0.6, 0.7, 0.8)
KEYWORD_WEIGHT = (1.4, 1.7, 2.0, 2.5)
UNKNOWN_FLOOR = (0.0, 0.25, 0.5, 0.75, 1.0)
CUTOFFS = tuple(round(float(x), 3) for x in np.arange(0.0, 0.701, 0.025))
CUTOFF = 10  # recall@10
DEPTH = 100  # the old fusion's arm depth


@dataclass
class Asked:
    """One question's arrays over its conversation's turns, per BM25 setting."""

    conv: str
    gold_rows: frozenset[int]  # empty for a no-answer question
    cosine: np.ndarray
    # (k1, b) -> (BM25 of every row, ideal, known): as `UserSearch.arrays` returns them
    bm25: dict[tuple[float, float], tuple[np.ndarray, float, float]]


def collect(path: Path, keep: Path | None = None) -> list[Asked]:
    """Every question's arrays; with `keep`, read from (or written to) that file."""
    if keep is not None and keep.exists():
        # Only the file this command wrote itself.
        return pickle.loads(keep.read_bytes())  # noqa: S301
    asked = _collect(path)
    if keep is not None:
        keep.write_bytes(pickle.dumps(asked))
    return asked


def _collect(path: Path) -> list[Asked]:
    from memories.search import scoring as search
    from memories.search.embeddings import get_embedder
    from memories.visibility import visible_sql

    conversations = load(path)
    unanswerable = no_answer_questions(conversations)
    embedder = get_embedder()
    asked: list[Asked] = []
    started = time.perf_counter()
    for tenant in each_tenant(conversations):
        visible, params = visible_sql(tenant.actor)
        texts = [(q.question, q.gold) for q in tenant.conv.questions if 1 <= q.category <= 4]
        texts += [(t, frozenset()) for t in unanswerable.get(tenant.conv.sample_id, [])]
        for text, gold in texts:
            s = search.UserSearch(
                tenant.user.pk, visible=visible, params=params, query=text, whole_store=True
            )
            assert s.index is not None, "the sweep scores through the in-memory index"
            gold_rows = frozenset(
                r for r in range(len(s.index)) if tenant.dia_of[s.index.memory_id(r)] in gold
            )
            qvec = embedder.embed_query(text)
            arrays = {}
            cosine = np.empty(0)
            for k1, b in itertools.product(K1S, BS):
                cosine, bm25, ideal, known, _ = s.arrays(qvec, k1=k1, b=b)
                arrays[(k1, b)] = (bm25, ideal, known)
            asked.append(Asked(tenant.conv.sample_id, gold_rows, cosine, arrays))
        elapsed = time.perf_counter() - started
        print(f"{tenant.conv.sample_id}: scored ({elapsed:.0f} s)", flush=True)
        started = time.perf_counter()
    return asked


@dataclass
class Group:
    """One conversation's questions stacked, for one BM25 setting."""

    conv: str
    cosine: np.ndarray  # (questions, turns)
    bm25: np.ndarray
    ideal: np.ndarray  # (questions,)
    known: np.ndarray
    gold: list[frozenset[int]]


def _groups(asked: list[Asked], setting: tuple[float, float]) -> list[Group]:
    by_conv: dict[str, list[Asked]] = {}
    for a in asked:
        by_conv.setdefault(a.conv, []).append(a)
    return [
        Group(
            conv,
            np.stack([a.cosine for a in qs]),
            np.stack([a.bm25[setting][0] for a in qs]),
            np.array([a.bm25[setting][1] for a in qs]),
            np.array([a.bm25[setting][2] for a in qs]),
            [a.gold_rows for a in qs],
        )
        for conv, qs in by_conv.items()
    ]


def _evidence(g: Group, w: Any) -> np.ndarray:
    """`memories.search.scoring.relevance` without the coverage factor, for a stack of questions."""
    semantic = np.nan_to_num(np.clip(g.cosine / w.cosine_full, 0.0, 1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        keyword = np.nan_to_num(np.clip(g.bm25 / (w.keyword_full * g.ideal[:, None]), 0.0, 1.0))
    return 1 - (1 - semantic) ** w.semantic_weight * (1 - keyword) ** w.keyword_weight


def _coverage(g: Group, floor: float) -> np.ndarray:
    """The factor for how much of each query the store knows (one number per question)."""
    from memories.search.model_profiles import STORE_FULL

    with np.errstate(divide="ignore", invalid="ignore"):
        absent = np.where(g.ideal > 0, 1 - g.known / g.ideal, 0.0)
    size = min(g.cosine.shape[1] / STORE_FULL, 1.0)
    return 1 - (1 - floor) * absent * size


def _top(score: np.ndarray) -> np.ndarray:
    """Row numbers of the best CUTOFF per question (ties by row, as the app breaks them by id)."""
    rows = np.arange(score.shape[1])
    return np.stack([np.lexsort((rows, -s))[:CUTOFF] for s in score])


def check_relevance_matches_the_app(asked: list[Asked]) -> None:
    """The vectorised score here must be the app's `relevance`, or the sweep tunes another."""
    from memories.search.model_profiles import current
    from memories.search.scoring import relevance

    shipped = current().search
    w = shipped.weights
    for a in asked[:: max(len(asked) // 20, 1)]:
        bm25, ideal, known = a.bm25[(shipped.bm25_k1, shipped.bm25_b)]
        g = Group(a.conv, a.cosine[None], bm25[None], np.array([ideal]), np.array([known]), [])
        ours = _evidence(g, w)[0] * _coverage(g, w.unknown_floor)[0]
        app = relevance(a.cosine, bm25, ideal, known, len(a.cosine), w)
        assert np.allclose(ours, app), "the sweep's score is not the app's"


@dataclass
class Ranked:
    """One ranking's top rows, their scores before the coverage factor, per group."""

    groups: list[Group]
    top: list[np.ndarray]
    evidence: list[np.ndarray]  # the top rows' scores before the coverage factor

    def recall(self, convs: set[str], floor: float = 1.0, cutoff: float = 0.0) -> float:
        total, n = self.recall_sum(convs, floor, cutoff)
        return total / n

    def recall_sum(
        self, convs: set[str], floor: float = 1.0, cutoff: float = 0.0
    ) -> tuple[float, int]:
        values = []
        for g, top, ev in zip(self.groups, self.top, self.evidence, strict=True):
            if g.conv not in convs:
                continue
            kept = (ev * _coverage(g, floor)[:, None]) >= cutoff
            for rows, keep, gold in zip(top, kept, g.gold, strict=True):
                if gold:
                    values.append(len(gold.intersection(rows[keep].tolist())) / len(gold))
        return float(sum(values)), len(values)

    def false_hits(self, convs: set[str], floor: float, cutoff: float) -> tuple[float, float]:
        """(share of no-answer questions with any result, mean results) at this cut-off."""
        counts = []
        for g, ev in zip(self.groups, self.evidence, strict=True):
            if g.conv not in convs:
                continue
            kept = (ev * _coverage(g, floor)[:, None]) >= cutoff
            counts += [int(k.sum()) for k, gold in zip(kept, g.gold, strict=True) if not gold]
        return float(np.mean([c > 0 for c in counts])), float(np.mean(counts))


def rank(asked: list[Asked], setting: tuple[float, float], w: Any) -> Ranked:
    groups = _groups(asked, setting)
    tops, evidence = [], []
    for g in groups:
        ev = _evidence(g, w)  # the coverage factor is one number per question: same ranking
        top = _top(ev)
        tops.append(top)
        evidence.append(np.take_along_axis(ev, top, axis=1))
    return Ranked(groups, tops, evidence)


def minmax_recall(asked: list[Asked], setting: tuple[float, float], share: float = 0.4) -> float:
    """The fusion this score replaced: each arm's best DEPTH, min-max normalised per query."""
    values = []
    for a in asked:
        if not a.gold_rows:
            continue
        cosine, bm25 = a.cosine, a.bm25[setting][0]
        n = len(cosine)
        rows = np.arange(n)
        dense = np.lexsort((rows, -np.nan_to_num(cosine, nan=-np.inf)))[:DEPTH]
        lex = np.flatnonzero(bm25 > 0)
        lex = lex[np.lexsort((lex, -bm25[lex]))][:DEPTH]
        score = np.full(n, -np.inf)
        score[np.union1d(dense, lex)] = 0.0
        hi, lo = cosine[dense[0]], cosine[dense[-1]]
        score[dense] += share * ((cosine[dense] - lo) / (hi - lo) if hi > lo else 1.0)
        if len(lex):
            hi, lo = bm25[lex[0]], (bm25[lex[-1]] if len(lex) >= DEPTH else 0.0)
            score[lex] += (1 - share) * ((bm25[lex] - lo) / (hi - lo) if hi > lo else 1.0)
        top = np.lexsort((rows, -score))[:CUTOFF]
        values.append(len(a.gold_rows.intersection(top.tolist())) / len(a.gold_rows))
    return float(np.mean(values))


def _choose_cutoff(
    ranked: Ranked, convs: set[str], tolerance: float
) -> tuple[float, float, float, float]:
    """(floor, cut-off, recall, false-hit rate): fewest false hits within the recall budget."""
    floor_ = tuple(UNKNOWN_FLOOR)
    uncut = ranked.recall(convs)
    options = []
    for floor, cutoff in itertools.product(floor_, CUTOFFS):
        r = ranked.recall(convs, floor, cutoff)
        if r >= uncut - tolerance:
            fh, mean = ranked.false_hits(convs, floor, cutoff)
            options.append((fh, mean, -cutoff, floor, r))
    fh, _, neg_cut, floor, r = min(options)
    return floor, -neg_cut, r, fh


def sweep(path: Path, tolerance: float, keep: Path | None = None) -> dict[str, Any]:
    from memories.search.model_profiles import Weights

    asked = collect(path, keep)
    check_relevance_matches_the_app(asked)
    convs = sorted({a.conv for a in asked})
    everything = set(convs)
    answerable = sum(1 for a in asked if a.gold_rows)
    print(f"{answerable} questions (categories 1-4), {len(asked) - answerable} no-answer questions")
    started = time.perf_counter()
    # Per setting, per conversation: (sum of recall@10, questions); rankings are rebuilt on demand.
    table: dict[tuple[Any, ...], dict[str, tuple[float, int]]] = {}
    for setting in itertools.product(K1S, BS):
        for cf, kf, sw, kw in itertools.product(
            COSINE_FULL, KEYWORD_FULL, SEMANTIC_WEIGHT, KEYWORD_WEIGHT
        ):
            # The unknown-query floor does not change a ranking: it is chosen with the cut-off.
            w = Weights(cf, kf, sw, kw, unknown_floor=0.0)
            ranked = rank(asked, setting, w)
            table[(setting, w)] = {c: ranked.recall_sum({c}) for c in convs}
    print(f"{len(table)} rankings in {time.perf_counter() - started:.0f} s")

    def recall(key: tuple[Any, ...], among: set[str]) -> float:
        total = sum(table[key][c][0] for c in among)
        return total / sum(table[key][c][1] for c in among)

    pooled = {key: recall(key, everything) for key in table}
    ranking = sorted(pooled, key=lambda key: -pooled[key])
    print(f"\nTop settings by pooled R@{CUTOFF}, no cut-off:")
    for key in ranking[:12]:
        print(f"  {pooled[key]:.4f}  {_label(key)}")
    reference = {
        f"k1={k1} b={b}": round(minmax_recall(asked, (k1, b)), 4)
        for k1, b in itertools.product(K1S, BS)
    }
    print(f"min-max fusion (before), dense share .4: {reference}")

    best = ranking[0]
    chosen = rank(asked, *best)
    floor, cutoff, r_cut, fh_cut = _choose_cutoff(chosen, everything, tolerance)
    print(f"\nChosen ranking: {_label(best)}; R@{CUTOFF} {pooled[best]:.4f} without a cut-off")
    curve = []
    for c in CUTOFFS:
        r = chosen.recall(everything, floor, c)
        fh, mean = chosen.false_hits(everything, floor, c)
        curve.append(
            {
                "cutoff": c,
                "R@10": round(r, 4),
                "false_hit_rate": round(fh, 4),
                "mean_results_no_answer": round(mean, 2),
            }
        )
        print(
            f"  floor {floor} cut-off {c:.3f}: R@10 {r:.4f}, false-hit rate {fh:.3f}, "
            f"mean results {mean:.2f}"
        )
    print(
        f"Chosen cut-off {cutoff} (unknown floor {floor}): R@10 {r_cut:.4f}, "
        f"false-hit rate {fh_cut:.3f}"
    )

    held_out = []
    for test in convs:
        train = everything - {test}
        key = max(table, key=lambda k: recall(k, train))
        ranked = rank(asked, *key)
        fl, c, _, _ = _choose_cutoff(ranked, train, tolerance)
        r_un = ranked.recall({test})
        r = ranked.recall({test}, fl, c)
        fh, _ = ranked.false_hits({test}, fl, c)
        n = sum(1 for a in asked if a.conv == test and a.gold_rows)
        held_out.append((test, key, fl, c, r_un, r, fh, n))
        print(
            f"  held out {test}: chosen on the rest {_label(key)}, floor {fl}, cut-off {c} -> "
            f"R@10 {r_un:.4f} uncut, {r:.4f} cut, false-hit rate {fh:.3f}"
        )
    total = sum(h[7] for h in held_out)
    cv_uncut = sum(h[4] * h[7] for h in held_out) / total
    cv_cut = sum(h[5] * h[7] for h in held_out) / total
    cv_fh = float(np.mean([h[6] for h in held_out]))
    print(
        f"Leave-one-conversation-out: R@{CUTOFF} {cv_uncut:.4f} uncut, {cv_cut:.4f} at the "
        f"cut-off; false-hit rate {cv_fh:.3f}"
    )
    return {
        "chosen": _label(best),
        "unknown_floor": floor,
        "cutoff": cutoff,
        "R@10_no_cutoff": round(pooled[best], 4),
        "R@10_at_cutoff": round(r_cut, 4),
        "false_hit_rate_at_cutoff": round(fh_cut, 4),
        "minmax_reference": reference,
        "top": [{"setting": _label(k), "R@10": round(pooled[k], 4)} for k in ranking[:12]],
        "curve": curve,
        "loco": {
            "R@10_no_cutoff": round(cv_uncut, 4),
            "R@10_at_cutoff": round(cv_cut, 4),
            "false_hit_rate": round(cv_fh, 4),
            "choices": [
                {"held_out": t, "setting": _label(k), "unknown_floor": fl, "cutoff": c}
                for t, k, fl, c, *_ in held_out
            ],
        },
    }


def _label(key: Sequence[Any]) -> str:
    (k1, b), w = key
    return (
        f"k1={k1} b={b} cosine_full={w.cosine_full} keyword_full={w.keyword_full} "
        f"semantic_weight={w.semantic_weight} keyword_weight={w.keyword_weight}"
    )


def run(args: Any) -> None:
    emit(sweep(Path(args.path), args.tolerance, Path(args.keep) if args.keep else None))


def register(sub: Any) -> None:
    parser = sub.add_parser("locomo-sweep", help="Tune the relevance score and cut-off on LoCoMo.")
    parser.add_argument("path", help="LoCoMo JSON file (e.g. locomo-dev.json).")
    parser.add_argument(
        "--tolerance", type=float, default=0.003, help="Recall@10 a cut-off may cost (.003)."
    )
    parser.add_argument(
        "--keep", default=None, help="Keep the scored arrays in this file and reuse them."
    )
    add_common(parser)
    parser.set_defaults(run=run)
