"""Real conversational texts for the benchmarks that must not run on generated sentences.

The texts are LoCoMo's (`--locomo`, e.g. /work/shared/data/locomo/locomo-dev.json): every dialog
turn ("Speaker: text", with the shared image's caption), each sentence of a turn long enough to
stand alone, every observation, every event summary and every sentence of the session
summaries, each kept once (texts equal after `memories.text.normalise` are one). The queries are
LoCoMo's questions. Nothing here is tuned: these benchmarks measure time, not recall.

`write_user` stores texts for one user through `memory_create_many` (classification, the batch
insert, the audit event: the real write path), with the model's vectors of the texts computed
once by `vectors` and kept in a file for the next run. `copy_rows` then fills the table with
other users' rows made from those stored rows in one INSERT ... SELECT: real texts with their
real vectors, each other user a different sample, so building a large table takes seconds
rather than an hour of embedding.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_SESSION = re.compile(r"session_\d+")
MIN_SENTENCE = 25  # characters: shorter sentences ("Thanks!") do not stand alone as memories


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text) if len(s) >= MIN_SENTENCE]


def texts(path: Path, seed: int = 7) -> list[str]:
    """Every distinct text of the file, in a fixed shuffled order."""
    from memories.text import normalise

    found: list[str] = []
    for sample in json.loads(path.read_text()):
        conv = sample["conversation"]
        for key, turns in conv.items():
            if not (_SESSION.fullmatch(key) and isinstance(turns, list)):
                continue
            for turn in turns:
                said = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    said += f" [shares {turn['blip_caption']}]"
                found.append(said)
                found.extend(_sentences(turn["text"]))
        for session in sample.get("observation", {}).values():
            for facts in session.values():
                found.extend(str(fact[0]) for fact in facts if fact)
        for session in sample.get("event_summary", {}).values():
            for events in session.values():
                if isinstance(events, list):
                    found.extend(str(e) for e in events)
        for summary in sample.get("session_summary", {}).values():
            found.extend(_sentences(str(summary)))
    unique = list({normalise(t): t for t in found if t.strip()}.values())
    order = np.random.default_rng(seed).permutation(len(unique))
    return [unique[i] for i in order]


def questions(path: Path, seed: int = 11) -> list[str]:
    """LoCoMo's questions (every category), in a fixed shuffled order."""
    asked = [str(qa["question"]) for sample in json.loads(path.read_text()) for qa in sample["qa"]]
    order = np.random.default_rng(seed).permutation(len(asked))
    return [asked[i] for i in order]


def vectors(items: list[str], path: Path) -> dict[str, np.ndarray]:
    """The model's embedding of every text, each computed once and kept in `path` (an .npz, per
    model) for the next run and the other benchmarks: embedding LoCoMo takes minutes."""
    from memories.search.embeddings import get_embedder

    embedder = get_embedder()
    known: dict[str, np.ndarray] = {}
    if path.exists():
        stored = np.load(path, allow_pickle=False)
        if str(stored["model"]) == embedder.model_name:
            known = dict(zip(stored["texts"].tolist(), stored["vectors"], strict=True))
    missing = [t for t in items if t not in known]
    if missing:
        started = time.perf_counter()
        known.update(zip(missing, embedder.embed(missing), strict=True))
        print(f"embedded {len(missing)} texts in {time.perf_counter() - started:.0f} s", flush=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        texts_kept = list(known)
        np.savez(
            path,
            model=np.asarray(embedder.model_name),
            texts=np.asarray(texts_kept),
            vectors=np.stack([known[t] for t in texts_kept]),
        )
    return known


def write_user(
    user: Any, items: list[str], embedded: dict[str, np.ndarray], batch: int = 250
) -> None:
    """The user's memories, written through memory_create_many as the owner's command line
    writes them; the model's vectors for the texts come from `embedded` (computed once by
    `vectors`), everything else (classification, the insert, the audit event) runs as always."""
    from accounts.actors import owner_actor
    from accounts.models import ConnectedApp
    from memories.search.embeddings import get_embedder
    from memories.services.adding import NewMemory, memory_create_many
    from memories.text import clean_text

    embedder = get_embedder()
    actor = owner_actor(user, ConnectedApp.CLI)

    by_clean = {clean_text(t): v for t, v in embedded.items()}  # the service embeds clean text

    model = embedder.embed

    def remembered(texts: Sequence[str]) -> list[np.ndarray]:
        if all(t in by_clean for t in texts):
            return [by_clean[t] for t in texts]
        return model(texts)  # anything else (the classifier's prototypes): the model itself

    embedder.embed = remembered  # type: ignore[method-assign]
    try:
        for start in range(0, len(items), batch):
            chunk = [NewMemory(text=t) for t in items[start : start + batch]]
            memory_create_many(actor=actor, items=chunk, max_items=batch)
    finally:
        del embedder.embed


_COPY_SQL = """
INSERT INTO memories_memory (id, owner_id, text, text_key, embedding, embedding_model, tsv,
    state, categories, categories_set_by_user, is_private, hidden_from, origin, origin_app_name,
    provenance, metadata, created_at, updated_at)
SELECT gen_random_uuid(), o.owner, p.text, md5(p.text || ':' || g), p.embedding,
       p.embedding_model, p.tsv, 'active', p.categories, false, false, '{}', 'import',
       'ChatGPT import', jsonb_build_object('app', 'ChatGPT import', 'conversation', md5(g::text)),
       '{}', now() - make_interval(mins => g %% 500000), now()
FROM unnest(%(owners)s::bigint[], %(counts)s::int[]) AS o(owner, n)
CROSS JOIN LATERAL generate_series(0, o.n - 1) g
JOIN bench_pool p ON p.n = ((g::bigint * 7919 + o.owner * 104729) %% %(pool)s)
"""


def copy_rows(source_owner: int, counts: dict[int, int]) -> None:
    """`counts[owner]` memories for each owner, each a stored row of `source_owner` (text,
    vector, categories, lexemes) under a new id and text key: an owner's rows are distinct texts
    up to the pool's size (7919 is prime), then repeat. About 50,000 rows per statement."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS bench_pool")
        cur.execute(
            "CREATE TEMP TABLE bench_pool AS SELECT (row_number() OVER (ORDER BY id)) - 1 AS n, "
            "text, embedding, embedding_model, tsv, categories FROM memories_memory "
            "WHERE owner_id = %s AND state = 'active'",
            [source_owner],
        )
        cur.execute("CREATE INDEX ON bench_pool (n)")
        cur.execute("SELECT count(*) FROM bench_pool")
        (pool,) = cur.fetchone()
        batch: list[tuple[int, int]] = []
        for owner, count in [*counts.items(), (0, 0)]:
            if owner and count:
                batch.append((owner, count))
            if batch and (not owner or sum(n for _, n in batch) >= 50_000):
                owners, ns = zip(*batch, strict=True)
                cur.execute(_COPY_SQL, {"owners": list(owners), "counts": list(ns), "pool": pool})
                batch = []
        cur.execute("DROP TABLE bench_pool")
