"""The embedding models' own speed, side by side: one search query's latency and batch throughput.

    uv run python -m bench embed [--queries 60] [--passages 256] [--rounds 3]

Both shipped models (all-MiniLM-L6-v2 through fastembed, multilingual-e5-small through its
engine), each with EMBEDDING_THREADS 1 and 0 (0: every core), loaded side by side in this
process; and e5 as it was before it embedded one text on one thread (`e5 threads=0 before`: a
single query on every core). Each round times every variant in turn, so load from other
processes falls on all of them alike: `--queries` distinct questions one at a time (p50 and p95
of one query's embedding, as a search pays it; the query cache is off) and `--passages`
distinct memory texts as one batch (texts per second, as an import or a batch add pays it).
Medians over the rounds. The benchmark's database is not used.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench.environment import add_common, emit
from bench.texts import memory_texts, queries


def _variants() -> dict[str, Any]:
    from django.conf import settings

    from memories.search.embeddings import E5_MODEL, MINILM_MODEL, Embedder

    out = {}
    for model, short in ((MINILM_MODEL, "minilm"), (E5_MODEL, "e5")):
        for threads in (1, 0):
            settings.EMBEDDING_THREADS = threads  # read once, when the model loads
            embedder = Embedder(model)
            embedder.embed(["load the model"])
            out[f"{short} threads={threads}"] = embedder
    settings.EMBEDDING_THREADS = 0
    before = Embedder(E5_MODEL)
    engine = before._load().engine  # type: ignore[union-attr]
    every_core = engine._set_threads
    assert every_core is not None, "the engine was built without OpenMP"
    engine._set_threads = lambda _: every_core(engine._batch_threads)
    out["e5 threads=0 before"] = before
    return out


def measure(n_queries: int, n_passages: int, rounds: int) -> dict[str, Any]:
    from django.conf import settings

    settings.EMBEDDING_QUERY_CACHE = 0
    variants = _variants()
    asked = queries(n_queries)
    texts = memory_texts(n_passages)
    single: dict[str, list[float]] = {name: [] for name in variants}
    p95: dict[str, list[float]] = {name: [] for name in variants}
    rate: dict[str, list[float]] = {name: [] for name in variants}
    for r in range(rounds):
        for name, embedder in variants.items():
            times = []
            for q in asked:
                started = time.perf_counter()
                embedder.embed_query(f"{q} ({r})")
                times.append((time.perf_counter() - started) * 1000)
            single[name].append(statistics.median(times))
            p95[name].append(sorted(times)[int(0.95 * (len(times) - 1))])
            started = time.perf_counter()
            embedder.embed(texts)
            rate[name].append(len(texts) / (time.perf_counter() - started))
        print(f"round {r + 1} of {rounds} done", flush=True)
    return {
        name: {
            "query_p50_ms": round(statistics.median(single[name]), 2),
            "query_p95_ms": round(statistics.median(p95[name]), 2),
            "passages_per_s": round(statistics.median(rate[name]), 1),
        }
        for name in variants
    }


def run(args: Any) -> None:
    result = measure(args.queries, args.passages, args.rounds)
    for name, figures in result.items():
        print(
            f"{name:16s} one query p50 {figures['query_p50_ms']:7.2f} ms "
            f"(p95 {figures['query_p95_ms']:.2f}), batch {figures['passages_per_s']:.1f} passages/s"
        )
    emit(
        {
            "queries": args.queries,
            "passages": args.passages,
            "rounds": args.rounds,
            "models": result,
        }
    )


def register(sub: Any) -> None:
    parser = sub.add_parser("embed", help="The embedding models' query latency and throughput.")
    parser.add_argument("--queries", type=int, default=60, help="questions timed one at a time")
    parser.add_argument("--passages", type=int, default=256, help="texts embedded as one batch")
    parser.add_argument("--rounds", type=int, default=3)
    add_common(parser)
    parser.set_defaults(run=run)
