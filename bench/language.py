"""Language identification (`memories/language.py`) against bench/data/language_id.txt, for the
dev and held-out splits: how many texts in a claimed language come out as that language, as
another claimed one, or as not claimed ("other"/"und"), per size; how many look-alikes (Italian,
Dutch, Catalan, Ukrainian, Korean) come out as a claimed language (they must not). Speed: the
time per text beside the embedding model's on the same texts, in the same run (what a write
pays for both).

    uv run python -m bench language [--json] [--split dev|heldout] [--errors]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATASET = Path(__file__).resolve().parent / "data" / "language_id.txt"
# The split is fixed by the text's hash (see the data file's header).
_HELD_OUT_BELOW = 86


@dataclass(frozen=True)
class Example:
    language: str
    size: str
    text: str

    @property
    def split(self) -> str:
        first = hashlib.sha256(self.text.encode()).digest()[0]
        return "heldout" if first < _HELD_OUT_BELOW else "dev"


def load(path: Path = DATASET) -> list[Example]:
    examples = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            language, size, text = line.split(" ", 2)
            examples.append(Example(language, size, text))
    return examples


def evaluate(examples: Sequence[Example]) -> dict[str, Any]:
    from memories import language

    claimed = [e for e in examples if e.language in language.CLAIMED]
    lookalikes = [e for e in examples if e.language not in language.CLAIMED]
    found = {e.text: language.detect(e.text) for e in examples}
    right = [e for e in claimed if found[e.text].code == e.language]
    wrong = [e for e in claimed if found[e.text].claimed and found[e.text].code != e.language]
    false_claims = [e for e in lookalikes if found[e.text].claimed]
    sizes = sorted({e.size for e in claimed})
    return {
        "claimed": len(claimed),
        "right": len(right),
        "accuracy": round(len(right) / len(claimed), 3) if claimed else None,
        "another_claimed": len(wrong),
        "not_claimed": len(claimed) - len(right) - len(wrong),
        "by_size": {
            size: f"{sum(1 for e in right if e.size == size)}/"
            f"{sum(1 for e in claimed if e.size == size)}"
            for size in sizes
        },
        "lookalikes": len(lookalikes),
        "lookalikes_claimed": len(false_claims),
        "errors": [
            {"language": e.language, "found": found[e.text].code, "text": e.text}
            for e in examples
            if (e in claimed and e not in right) or e in false_claims
        ],
    }


def speed(examples: Sequence[Example], rounds: int = 5) -> dict[str, float]:
    """Microseconds per text for detection, and for embedding the same texts (batched, as a
    write embeds them): the write's floor."""
    from memories import language
    from memories.search.embeddings import get_embedder

    texts = [e.text for e in examples]
    language.detect("warm up")
    embedder = get_embedder()
    embedder.embed(texts[:8])
    detect_runs, embed_runs = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            language.detect(text)
        detect_runs.append((time.perf_counter() - start) / len(texts) * 1e6)
        start = time.perf_counter()
        embedder.embed(texts)
        embed_runs.append((time.perf_counter() - start) / len(texts) * 1e6)
    detect_us, embed_us = statistics.median(detect_runs), statistics.median(embed_runs)
    return {
        "detect_us_per_text": round(detect_us, 1),
        "embed_us_per_text": round(embed_us, 1),
        "detect_share_of_embedding": round(detect_us / embed_us, 4),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench language", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    parser.add_argument(
        "--split", choices=("dev", "heldout"), action="append", help="evaluate only this split"
    )
    parser.add_argument("--errors", action="store_true", help="list every miss")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    examples = load()
    splits = args.split or ("dev", "heldout")
    report: dict[str, Any] = {
        split: evaluate([e for e in examples if e.split == split]) for split in splits
    }
    report["speed"] = speed(examples)
    if not args.json:
        for split in splits:
            r = report[split]
            print(
                f"{split}: claimed {r['right']}/{r['claimed']} right ({r['accuracy']}), "
                f"{r['another_claimed']} as another claimed language, {r['not_claimed']} not "
                f"claimed; by size {r['by_size']}; look-alikes claimed "
                f"{r['lookalikes_claimed']}/{r['lookalikes']}"
            )
            if args.errors:
                for miss in r["errors"]:
                    print(f"    {miss['language']} -> {miss['found']}: {miss['text']}")
        s = report["speed"]
        print(
            f"speed: {s['detect_us_per_text']} us a text to detect, "
            f"{s['embed_us_per_text']} us to embed (ratio {s['detect_share_of_embedding']})"
        )
    for split in splits:
        report[split].pop("errors")
    print(json.dumps(report))
    return 0
