"""`python -m bench inprocess`: `memory_search` as an app calls it, against the floor (real texts).

One user of `--size` LoCoMo texts (written once through `memory_create_many` and kept in
`--home`), searched by a client token's actor (the consent fragment, the grant, the final check,
the access event) with LoCoMo's questions, in the process layout of a gunicorn worker (one
OpenBLAS and one onnxruntime thread). The floor, in the same process and alternating blocks: the
query's embedding plus an exact numpy scan of the user's vectors and their top 10. Wall p50 and
process CPU per call of both, and the embedding's thread CPU on each path (inside the search it
should cost what it costs alone); CPU is what a loaded machine inflates least, and what the MCP
door adds on top is `bench mcp --server-cpu`'s. The gap between the two is the search's own work.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.environment import add_common, emit, percentile, read_client
from contextlayer.process import GUNICORN, describe


def _user(size: int, locomo: Path) -> Any:
    from accounts.actors import owner_actor
    from accounts.models import User
    from bench import real_texts
    from memories.services.adding import NewMemory, memory_create_many

    email = f"bench-inprocess-{size}@example.invalid"
    user = User.objects.filter(email=email).first()
    if user is None:
        user = User.objects.create_user(email)
        texts = real_texts.texts(locomo)[:size]
        for start in range(0, len(texts), 500):
            batch = [NewMemory(text=t) for t in texts[start : start + 500]]
            memory_create_many(actor=owner_actor(user), items=batch)
    return user


def run(args: argparse.Namespace) -> None:
    from bench import real_texts
    from memories.models import Memory
    from memories.search.embeddings import get_embedder
    from memories.selectors.memories import memory_search

    locomo = Path(args.locomo)
    user = _user(args.size, locomo)
    _, actor = read_client(user, f"bench-{time.time_ns()}")
    asked = real_texts.questions(locomo)[: args.queries]
    embedder = get_embedder()
    stored = Memory.objects.filter(owner=user, state="active").values_list("embedding", flat=True)
    matrix = np.asarray([np.asarray(v, dtype=np.float32) for v in stored], dtype=np.float32)

    # The embedding's thread CPU on either path: inside the search as alone (its own speed?).
    embedding_cpu = {"floor": 0.0, "search": 0.0}
    path = ["floor"]
    embed_query = embedder.embed_query

    def timed(text: str) -> np.ndarray:
        started = time.thread_time()
        try:
            return embed_query(text)
        finally:
            embedding_cpu[path[0]] += time.thread_time() - started

    embedder.embed_query = timed  # type: ignore[method-assign]

    def floor(query: str) -> None:
        scores = matrix @ embedder.embed_query(query)
        np.argpartition(-scores, 10)[:10]

    def search(query: str) -> None:
        memory_search(actor=actor, query=query, limit=10)

    for query in asked[:20]:  # warm-up: the model, the user's index, the caches
        search(query)
    wall: dict[str, list[float]] = {"floor": [], "search": []}
    cpu = {"floor": 0.0, "search": 0.0}
    embedding_cpu.update(floor=0.0, search=0.0)  # not the warm-up
    for _ in range(args.blocks):
        for name, call in (("floor", floor), ("search", search)):
            path[0] = name
            started = time.process_time()
            for query in asked:
                t = time.perf_counter()
                call(query)
                wall[name].append((time.perf_counter() - t) * 1000)
            cpu[name] += time.process_time() - started
    calls = args.blocks * len(asked)
    p50 = {k: round(percentile(v, 50), 2) for k, v in wall.items()}
    cpu_ms = {k: round(v / calls * 1000, 2) for k, v in cpu.items()}
    print(
        f"{len(matrix)} memories: floor p50 {p50['floor']} ms ({cpu_ms['floor']} ms CPU), "
        f"memory_search p50 {p50['search']} ms ({cpu_ms['search']} ms CPU)"
    )
    emit(
        {
            "bench": "inprocess",
            "memories": len(matrix),
            "calls_per_path": calls,
            "p50_ms": p50,
            "p50_over_floor": round(p50["search"] / p50["floor"], 2),
            "cpu_ms_per_call": cpu_ms,
            "cpu_over_floor": round(cpu_ms["search"] / cpu_ms["floor"], 2),
            "embedding_cpu_ms": {k: round(v / calls * 1000, 2) for k, v in embedding_cpu.items()},
            "process": describe(GUNICORN),
        }
    )


def register(sub: Any) -> None:
    parser = sub.add_parser("inprocess", help=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=int, default=2000, help="The user's memories.")
    parser.add_argument("--home", default=None, help="Keep (and reuse) the store in this folder.")
    parser.add_argument(
        "--locomo",
        default="/work/shared/data/locomo/locomo-dev.json",
        help="The LoCoMo file whose texts and questions are used.",
    )
    parser.add_argument("--queries", type=int, default=50, help="Questions per block.")
    parser.add_argument("--blocks", type=int, default=4, help="Alternating blocks per path.")
    add_common(parser)
    parser.set_defaults(run=run, layout=GUNICORN)
