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
from bench.locomo import FALSE_HIT_BUDGET, each_tenant, load, no_answer_questions

K1S = (0.9, 1.2, 1.6, 2.0)
BS = (0.3, 0.5)


@dataclass(frozen=True)
class Grid:
    """The values each parameter of the score is tried at, for one embedding model's space."""

    cosine_zero: tuple[float, ...]
    cosine_full: tuple[float, ...]
    keyword_full: tuple[float, ...]
    semantic_weight: tuple[float, ...]
    keyword_weight: tuple[float, ...]
    cutoffs: tuple[float, ...]
    unknown_floor: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
    # None: the fewest false hits within `--tolerance` of the uncut recall (how MiniLM's was
    # chosen); a number: the highest recall whose false-hit rate is at most this.
    false_hit_budget: float | None = None


def _steps(top: float) -> tuple[float, ...]:
    return tuple(round(float(x), 3) for x in np.arange(0.0, top + 0.001, 0.025))


GRIDS = {
    # all-MiniLM-L6-v2: cosines of unrelated texts near 0, no baseline.
    "sentence-transformers/all-MiniLM-L6-v2": Grid(
        cosine_zero=(0.0,),
        cosine_full=(0.75, 0.8, 0.85, 0.9),
        keyword_full=(1.0, 1.25, 1.5, 2.0),
        semantic_weight=(0.4, 0.5, 0.6, 0.7, 0.8),
        keyword_weight=(1.4, 1.7, 2.0, 2.5),
        cutoffs=_steps(0.7),
    ),
    # multilingual-e5-small: unrelated texts near .75, a translation .83-.95. The baseline is
    # not tuned: .75 is where a query meets the memories of a store that are not about it (the
    # median cosine of every LoCoMo question with every turn is .78, of the multilingual dev
    # set's queries with the other memories .79); the ranking is the same for any baseline up
    # to there (docs/benchmarks.md). The cut-off may cost recall to keep no-answer questions
    # from answering more often than MiniLM's (.456).
    "intfloat/multilingual-e5-small-q4": Grid(
        cosine_zero=(0.75,),
        cosine_full=(0.9, 0.95, 1.0),
        keyword_full=(1.0, 1.25, 1.5, 2.0),
        semantic_weight=(0.7, 1.0, 1.5, 2.0),
        keyword_weight=(1.4, 2.0, 2.5),
        cutoffs=_steps(0.8),
        # Words no memory holds may be words of another language whose meaning the store holds
        # (an English question of a German store): absent words never zero a meaning out.
        unknown_floor=(0.25, 0.5, 0.75, 1.0),
        false_hit_budget=FALSE_HIT_BUDGET["intfloat/multilingual-e5-small-q4"],
    ),
}


def grid_for(model: str) -> Grid:
    return GRIDS.get(model, GRIDS["sentence-transformers/all-MiniLM-L6-v2"])


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
    from memories.search import scoring
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
            s = scoring.UserSearch(
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
    """`memories.search.relevance.relevance` without the coverage factor, for a stack of
    questions."""
    semantic = np.nan_to_num(np.clip((g.cosine - w.cosine_zero) / w.cosine_span, 0.0, 1.0))
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
    from memories.search.relevance import relevance

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
    ranked: Ranked, convs: set[str], tolerance: float, grid: Grid
) -> tuple[float, float, float, float]:
    """(floor, cut-off, recall, false-hit rate): the fewest false hits within the recall
    budget, or (with the grid's false-hit budget) the most recall within it."""
    uncut = ranked.recall(convs)
    options = []  # (preference, floor, cut-off, recall, false-hit rate): the least is chosen
    for floor, cutoff in itertools.product(grid.unknown_floor, grid.cutoffs):
        r = ranked.recall(convs, floor, cutoff)
        fh, mean = ranked.false_hits(convs, floor, cutoff)
        if grid.false_hit_budget is None:
            if r >= uncut - tolerance:
                options.append(((fh, mean, -cutoff, floor), floor, cutoff, r, fh))
        elif fh <= grid.false_hit_budget:
            options.append(((-r, fh, -cutoff, floor), floor, cutoff, r, fh))
    _, floor, cutoff, r, fh = min(options, key=lambda option: option[0])
    return floor, cutoff, r, fh


def sweep(path: Path, tolerance: float, keep: Path | None = None) -> dict[str, Any]:
    from django.conf import settings

    from memories.search.model_profiles import Weights

    grid = grid_for(str(settings.EMBEDDING_MODEL))
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
        for cz, cf, kf, sw, kw in itertools.product(
            grid.cosine_zero,
            grid.cosine_full,
            grid.keyword_full,
            grid.semantic_weight,
            grid.keyword_weight,
        ):
            # The unknown-query floor does not change a ranking: it is chosen with the cut-off.
            w = Weights(cf, kf, sw, kw, unknown_floor=0.0, cosine_zero=cz)
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
    floor, cutoff, r_cut, fh_cut = _choose_cutoff(chosen, everything, tolerance, grid)
    print(f"\nChosen ranking: {_label(best)}; R@{CUTOFF} {pooled[best]:.4f} without a cut-off")
    curve = []
    for c in grid.cutoffs:
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
        fl, c, _, _ = _choose_cutoff(ranked, train, tolerance, grid)
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
        f"k1={k1} b={b} cosine_zero={w.cosine_zero} cosine_full={w.cosine_full} "
        f"keyword_full={w.keyword_full} "
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
