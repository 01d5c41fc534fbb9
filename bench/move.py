"""`python -m bench move`: how fast a store moves to another embedding model, and back, against
the raw embedding rate of the same texts in the same run (issue 36 item 6).

A store of `--users` users (`--memories` in all, sizes from 1 to many, as a hosted server has them)
is written through the service layer with MiniLM; EMBEDDING_MODEL becomes multilingual-e5 and
`maintenance.move` (what the worker runs, slice by slice) embeds every memory again and switches
each user; then the setting goes back and the store moves back to MiniLM. The floor of each
direction is the model's own batched rate on the very texts the move embeds, in the move itself:
the time spent inside `Embedder.embed` (the engine's batches), so load from other processes falls
on both. Aim: the move at >= 0.8 x the floor (its own work: reading the texts, writing the staged
vectors, each user's switch). Also: the query embedding time of each model (a user not yet moved
searches with the old one), the resident memory each model adds to a process (a web worker holds
both during a move), and searches half way (MiniLM for users not yet moved) checked against the
exact search. Texts: LoCoMo turns (`--locomo PATH`, as
"speaker: text") or the generated memory-like sentences. Prints readable lines, then one JSON
object.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.environment import add_common, bench_user, drop_users, emit

E5 = "intfloat/multilingual-e5-small-q4"
MINILM = "sentence-transformers/all-MiniLM-L6-v2"


def _texts(args: argparse.Namespace) -> list[str]:
    if args.locomo:
        from bench.locomo import load

        turns = [t.text for c in load(Path(args.locomo)) for t in c.turns]
        return list(dict.fromkeys(turns))[: args.memories]
    from bench.texts import memory_texts

    return memory_texts(args.memories)


def _sizes(total: int, users: int) -> list[int]:
    """Store sizes growing geometrically (one big user, many small), summing to `total`."""
    weights = [1.6**i for i in range(users)]
    sizes = [max(1, int(total * w / sum(weights))) for w in weights]
    sizes[-1] += total - sum(sizes)
    return sizes


@contextmanager
def _embedding_time() -> Iterator[list[float]]:
    """Seconds spent inside `Embedder.embed` (every model) within the block, and texts embedded."""
    from memories.search.embeddings import Embedder

    spent = [0.0, 0.0]
    original = Embedder.embed

    def timed(self: Embedder, texts: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(self, texts)
        finally:
            spent[0] += time.perf_counter() - started
            spent[1] += len(texts)

    Embedder.embed = timed  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        Embedder.embed = original  # type: ignore[method-assign]


def _query_ms(model: str, queries: list[str]) -> float:
    from memories.search.embeddings import get_embedder

    embedder = get_embedder(model)
    samples = []
    for query in queries:
        started = time.perf_counter()
        embedder.embed_query(query)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def _rss_mb() -> float:
    """This process's resident memory now (VmRSS)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _move(model: str) -> dict[str, Any]:
    """One direction: the move, and its ratio to the time its embedding took."""
    from django.conf import settings

    from memories.services import maintenance

    settings.EMBEDDING_MODEL = model
    started = time.perf_counter()
    with _embedding_time() as spent:
        report = maintenance.move()
    seconds = time.perf_counter() - started
    embedding, texts = spent
    return {
        "model": model,
        "memories": report.embedded,
        "users_switched": report.users_switched,
        "seconds": round(seconds, 2),
        "memories_per_s": round(report.embedded / seconds, 1),
        "raw_passages_per_s": round(texts / embedding, 1),
        "embedding_seconds": round(embedding, 2),
        "longest_switch_seconds": round(report.longest_switch, 3),
        "ratio": round(embedding / seconds, 3),
        "done": report.done,
    }


def _searches_mid_move(users: list[Any], queries: list[str]) -> dict[str, Any]:
    """Each user's search (`memory_search`, through this process's index) against the exact
    search in PostgreSQL with the query embedded in the model of that user's vectors."""
    from accounts.actors import owner_actor
    from memories.models import SearchModel
    from memories.search import scoring
    from memories.selectors.memories import MemoryFilters, memory_search, search_scope

    compared = same = 0
    models: dict[str, int] = {}
    for user in users:
        actor = owner_actor(user)
        model = SearchModel.objects.get(owner=user).model
        models[model] = models.get(model, 0) + 1
        visible, params, whole = search_scope(actor, MemoryFilters())
        for query in queries[:3]:
            hits = memory_search(actor=actor, query=query, limit=5, record=False)
            exact = scoring.UserSearch(
                user.pk,
                visible=visible,
                params=params,
                query=query,
                whole_store=whole,
                use_index=False,
            )
            expected = exact.best(exact.embed_query(), limit=5)
            compared += 1
            same += [h.memory.id for h in hits] == [c.id for c in expected] and all(
                abs(h.score - c.score) < 1e-9 for h, c in zip(hits, expected, strict=True)
            )
    return {"searches": compared, "equal_to_exact": same, "users_by_model": models}


def run(args: argparse.Namespace) -> dict[str, Any]:
    from django.conf import settings

    from accounts.actors import owner_actor
    from bench.texts import queries as make_queries
    from memories.search.embeddings import get_embedder
    from memories.services import adding, maintenance

    texts = _texts(args)
    queries = make_queries(50)
    settings.EMBEDDING_MODEL = MINILM
    settings.AUTO_CATEGORIZE = False  # the store's writing is not what is measured
    rss_start = _rss_mb()
    get_embedder(MINILM).embed(texts[:64])
    rss_minilm = _rss_mb()
    get_embedder(E5).embed(texts[:64])
    rss_both = _rss_mb()
    users = [bench_user(f"move{i}") for i in range(args.users)]
    try:
        at = 0
        for user, size in zip(users, _sizes(len(texts), args.users), strict=True):
            chunk = texts[at : at + size]
            at += size
            for start in range(0, len(chunk), 500):
                items = [adding.NewMemory(text=t) for t in chunk[start : start + 500]]
                adding.memory_create_many(actor=owner_actor(user), items=items, max_items=500)
        # A quarter of the memories moved (the smaller users switched), every search checked.
        settings.EMBEDDING_MODEL = E5
        maintenance.move(memories=len(texts) // 4)
        mid = _searches_mid_move(users, queries)
        settings.EMBEDDING_MODEL = MINILM
        maintenance.move()  # back to where it started (the mid-way users)
        forward = _move(E5)
        back = _move(MINILM)
        figures = {
            "benchmark": "move",
            "texts": "locomo" if args.locomo else "generated",
            "memories": len(texts),
            "users": args.users,
            "embedding_threads": settings.EMBEDDING_THREADS or "default",
            "to_e5": forward,
            "back_to_minilm": back,
            "query_ms_p50": {
                MINILM: round(_query_ms(MINILM, queries), 2),
                E5: round(_query_ms(E5, queries), 2),
            },
            "rss_mb": {
                "start": round(rss_start),
                "minilm_loaded": round(rss_minilm),
                "both_loaded": round(rss_both),
            },
            "mid_move_searches": mid,
            "target_ratio": 0.8,
        }
    finally:
        drop_users(users)
    return figures


def _report(figures: dict[str, Any]) -> None:
    print(f"move: {figures['memories']} memories ({figures['texts']}), {figures['users']} users")
    for key in ("to_e5", "back_to_minilm"):
        f = figures[key]
        print(
            f"  to {f['model']}: {f['memories_per_s']} memories/s ({f['seconds']} s), the model "
            f"alone {f['raw_passages_per_s']} passages/s; ratio {f['ratio']} (aim >= 0.8)"
        )
    q = figures["query_ms_p50"]
    print(f"  query embedding p50: MiniLM {q[MINILM]} ms, e5 {q[E5]} ms")
    r = figures["rss_mb"]
    print(
        f"  RSS: {r['start']} MB; MiniLM loaded {r['minilm_loaded']} MB; both {r['both_loaded']} MB"
    )
    m = figures["mid_move_searches"]
    print(
        f"  half way ({m['users_by_model']}): {m['equal_to_exact']} of {m['searches']} searches "
        "equal to the exact search"
    )
    emit(figures)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "move", help="A store moved to multilingual-e5 and back, against the raw embedding rate."
    )
    parser.add_argument("--memories", type=int, default=2000, help="Memories in the store (2000).")
    parser.add_argument("--users", type=int, default=8, help="Users they belong to (8).")
    parser.add_argument("--locomo", default=None, help="LoCoMo JSON: its turns as the texts.")
    add_common(parser)
    parser.set_defaults(run=lambda args: _report(run(args)))
