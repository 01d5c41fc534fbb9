"""`python -m bench backfill`: import throughput of a generated Claude export (`none` mode by
default), against the raw embedding throughput of the same texts in the same run.

Embedding is the floor: parsing, provenance, the manifest and the per-conversation transactions
should hide behind it (the import embeds the next window in a worker thread while it writes the
current one). Aim: memories/s >= 0.7 x raw texts/s. `--extractor local` reports user messages
examined per second against the same floor instead (the local extractor embeds only the clauses
its rules keep). The classifier is built before the import is timed (its category prototypes
are embedded once per install and model; `classifier_build_seconds`). Prints readable lines, then
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench.environment import setup_django

_SUBJECTS = ["I", "My partner", "My team", "My sister", "Our dog", "My manager", "My landlord"]
_VERBS = ["prefer", "am learning", "keep forgetting", "want to try", "recently bought", "dislike"]
_OBJECTS = [
    "sourdough baking on weekends",
    "the Rust borrow checker",
    "a trip to Hokkaido in February",
    "oat milk in my coffee",
    "running the Berlin half marathon",
    "keeping a paper journal",
    "Postgres logical replication",
    "learning the cello from scratch",
]


def make_claude_export(conversations: int, user_messages: int = 4, seed: int = 7) -> list[Any]:
    """A Claude `conversations.json` with unique user texts (so none is deduplicated away)."""
    rng = random.Random(seed)
    out = []
    for c in range(conversations):
        messages = []
        for m in range(user_messages):
            text = (
                f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}; "
                f"note {c}-{m}: {rng.choice(_OBJECTS)} matters because of {rng.choice(_OBJECTS)}."
            )
            for sender, body in (("human", text), ("assistant", f"Understood ({c}-{m}).")):
                messages.append(
                    {
                        "uuid": str(uuid.UUID(int=rng.getrandbits(128))),
                        "sender": sender,
                        "created_at": "2024-05-01T12:00:00Z",
                        "content": [{"type": "text", "text": body}],
                    }
                )
        out.append(
            {
                "uuid": str(uuid.UUID(int=rng.getrandbits(128))),
                "name": f"Conversation {c}",
                "created_at": "2024-05-01T12:00:00Z",
                "chat_messages": messages,
            }
        )
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    from accounts.actors import owner_actor
    from accounts.models import User
    from memories.classify import classifier_for
    from memories.ingest.detect import load_export
    from memories.search.embeddings import get_embedder
    from memories.services.imports import import_execute

    folder = Path(tempfile.mkdtemp(prefix="bench-backfill-"))
    try:
        path = folder / "conversations.json"
        path.write_text(json.dumps(make_claude_export(args.conversations, args.messages)))
        user = User.objects.create_user(f"bench-{uuid.uuid4().hex[:8]}@example.invalid")
        embedder = get_embedder()
        embedder.embed(["warm up the model"] * 8)
        # The classifier's category prototypes are embedded once per install and model (a file
        # in CONTEXT_LAYER_HOME) and the classifier built once per process: in this bench's new
        # home that would fall inside the import. Built here, and its time reported apart.
        t0 = time.perf_counter()
        classifier_for()
        classifier_seconds = time.perf_counter() - t0

        started = time.perf_counter()
        export = load_export(path)
        parsed = time.perf_counter() - started
        texts = [m.text for c in export.conversations for m in c.messages if m.role == "user"]

        def raw_rate() -> float:
            t0 = time.perf_counter()
            embedder.embed(texts)
            return len(texts) / (time.perf_counter() - t0)

        raw_before = raw_rate()
        t0, cpu0 = time.perf_counter(), time.thread_time()
        result = import_execute(actor=owner_actor(user), export=export, extractor=args.extractor)
        elapsed = time.perf_counter() - t0 + parsed
        # The import's own work in this process, the model's aside (it runs in a worker thread
        # in `none` mode): less swayed by the machine's load than the ratio.
        writer_cpu = time.thread_time() - cpu0
        raw_after = raw_rate()
        raw = (raw_before + raw_after) / 2
        memories_per_s = result.memories_created / elapsed
        messages_per_s = len(texts) / elapsed
        rate = memories_per_s if args.extractor == "none" else messages_per_s
        figures = {
            "benchmark": "backfill",
            "mode": args.extractor,
            "conversations": len(export.conversations),
            "memories": result.memories_created,
            "seconds": round(elapsed, 2),
            "parse_seconds": round(parsed, 3),
            "conversations_per_s": round(len(export.conversations) / elapsed, 1),
            "memories_per_s": round(memories_per_s, 1),
            "messages_per_s": round(messages_per_s, 1),
            "raw_embed_texts_per_s": round(raw, 1),
            "raw_embed_before_after": [round(raw_before, 1), round(raw_after, 1)],
            "ratio": round(rate / raw, 3),
            "classifier_build_seconds": round(classifier_seconds, 2),
            "writer_cpu_ms_per_memory": round(1000 * writer_cpu / max(len(texts), 1), 2),
            "target_ratio": 0.7,
        }
        User.objects.filter(pk=user.pk).delete()
        return figures
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _report(figures: dict[str, Any]) -> None:
    print(
        f"backfill ({figures['mode']}): {figures['conversations']} conversations, "
        f"{figures['memories']} memories in {figures['seconds']} s"
    )
    rate = (
        f"{figures['memories_per_s']} memories/s"
        if figures["mode"] == "none"
        else f"{figures['messages_per_s']} messages examined/s"
    )
    print(
        f"  {figures['conversations_per_s']} conversations/s, {rate}; raw embedding "
        f"{figures['raw_embed_texts_per_s']} texts/s; ratio {figures['ratio']} (aim >= 0.7)"
    )
    print(json.dumps(figures), flush=True)


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--conversations", type=int, default=1000, help="Conversations to import.")
    parser.add_argument("--messages", type=int, default=4, help="User messages per conversation.")
    parser.add_argument(
        "--extractor", choices=("none", "local"), default="none", help="How the import extracts."
    )
    if not any(a.dest == "database_url" for a in parser._actions):
        parser.add_argument("--database-url", default=None, help="Use this PostgreSQL instead.")


def register(sub: Any) -> None:
    """For a `python -m bench` dispatcher that sets Django up and then calls `args.run(args)`."""
    parser = sub.add_parser("backfill", help=__doc__.splitlines()[0] if __doc__ else None)
    _arguments(parser)
    parser.set_defaults(run=lambda args: _report(run(args)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench backfill", description=__doc__)
    _arguments(parser)
    args = parser.parse_args(argv)
    setup_django(args.database_url)
    _report(run(args))


if __name__ == "__main__":
    main()
