"""Credentials and instructions recognised in labelled texts (bench/data/harm.json, issue 37).

    uv run python -m bench harm [--split dev|heldout|all] [--show] [--json]

Each item is `credential`, `instruction` or `ordinary` (a look-alike that must flow as today),
with its kind, language and split (`dev`: tuned on; `heldout`: every third item of each kind and
language, never looked at while writing the rules; the file says how it was written). An item is
recognised as a credential when `memories.harm.screen` finds at least one, as an instruction when
it finds an instruction (whatever else); an ordinary item is a false positive when either is
found. Recall and false positives are given per label, per kind and per language; `--show` lists
the dev items the rules get wrong (held-out items are never shown).

What an app's write keeps: for credential items whose `keep` names a lasting fact, the share
whose remainder is not empty (a fact kept); for the others, the share whose remainder is empty
(nothing kept); and in every remainder and redacted text, no credential found again.

Speed: microseconds per text for `screen`, over the split's texts and over its ordinary ones (the
common case of a write), median of 5 rounds. Prints readable lines, then one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "harm.json"
LABELS = ("credential", "instruction", "ordinary")


def load(split: str) -> list[dict[str, Any]]:
    items = json.loads(DATA.read_text())["items"]
    return [i for i in items if split == "all" or i["split"] == split]


def evaluate(items: list[dict[str, Any]]) -> dict[str, Any]:
    from memories.harm.screen import screen

    per_kind: dict[tuple[str, str], Counter[str]] = {}
    per_lang: dict[tuple[str, str], Counter[str]] = {}
    misses: list[dict[str, Any]] = []
    keep = Counter[str]()
    for item in items:
        s = screen(item["text"])
        label = item["label"]
        if label == "credential":
            hit = s.has_credentials
        elif label == "instruction":
            hit = bool(s.instruction)
        else:
            hit = bool(s.has_credentials or s.instruction)
        for table, key in ((per_kind, (label, item["kind"])), (per_lang, (label, item["lang"]))):
            counts = table.setdefault(key, Counter())
            counts["n"] += 1
            counts["hit"] += hit
        if (label == "ordinary") == hit:
            misses.append({**item, "found": [f.kind for f in s.found], "why": s.instruction})
        if label == "credential" and s.has_credentials:
            keep["n"] += 1
            wanted = item["keep"] is not None
            keep["right"] += bool(s.remainder) == wanted
            keep["with_fact"] += wanted
            keep["fact_kept"] += wanted and bool(s.remainder)
            keep["leaked"] += bool(screen(s.remainder).found) or bool(screen(s.redacted).found)
    totals: dict[str, Counter[str]] = {label: Counter() for label in LABELS}
    for (label, _), counts in per_kind.items():
        totals[label].update(counts)
    return {
        "n": len(items),
        "credential_recall": _rate(totals["credential"]),
        "instruction_recall": _rate(totals["instruction"]),
        "ordinary_false_positive": _rate(totals["ordinary"]),
        "per_kind": {f"{label}/{kind}": _pair(c) for (label, kind), c in sorted(per_kind.items())},
        "per_lang": {f"{label}/{lang}": _pair(c) for (label, lang), c in sorted(per_lang.items())},
        "keep": {
            "right": _share(keep["right"], keep["n"]),
            "fact_kept": _share(keep["fact_kept"], keep["with_fact"]),
            "leaked": keep["leaked"],
        },
        "misses": misses,
    }


def _rate(c: Counter[str]) -> float:
    return round(c["hit"] / c["n"], 3) if c["n"] else 0.0


def _pair(c: Counter[str]) -> str:
    return f"{c['hit']}/{c['n']}"


def _share(a: int, b: int) -> float:
    return round(a / b, 3) if b else 0.0


def speed(items: list[dict[str, Any]], rounds: int = 5) -> dict[str, float]:
    from memories.harm.screen import screen

    def per_text(texts: list[str]) -> float:
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            for text in texts:
                screen(text)
            times.append((time.perf_counter() - start) / max(1, len(texts)))
        return round(statistics.median(times) * 1e6, 1)

    texts = [i["text"] for i in items]
    ordinary = [i["text"] for i in items if i["label"] == "ordinary"]
    return {"us_per_text": per_text(texts), "us_per_ordinary_text": per_text(ordinary)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench harm", description=__doc__)
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    parser.add_argument("--show", action="store_true", help="List the dev items got wrong.")
    parser.add_argument("--json", action="store_true", help="Only the JSON object.")
    args = parser.parse_args(argv)
    if args.show and args.split != "dev":
        parser.error("--show lists dev items only: held-out items are never looked at.")
    splits = ("dev", "heldout") if args.split == "all" else (args.split,)
    out: dict[str, Any] = {"bench": "harm"}
    for split in splits:
        items = load(split)
        result = evaluate(items)
        misses = result.pop("misses")
        result["speed"] = speed(items)
        out[split] = result
        if args.json:
            continue
        print(f"== {split}: {result['n']} texts")
        print(
            f"credential recall {result['credential_recall']}, instruction recall "
            f"{result['instruction_recall']}, ordinary false positives "
            f"{result['ordinary_false_positive']}"
        )
        for key, pair in result["per_kind"].items():
            print(f"  {key:40} {pair}")
        print(f"  keep: {result['keep']}  speed: {result['speed']}")
        if args.show:
            for m in misses:
                print(f"  MISS {m['label']}/{m['kind']} {m['lang']}: {m['text'][:150]!r}")
                print(f"       found {m['found']} {m['why']!r}")
    if len(splits) == 2:
        out["gap"] = {
            key: round(out["dev"][key] - out["heldout"][key], 3)
            for key in ("credential_recall", "instruction_recall", "ordinary_false_positive")
        }
        if not args.json:
            print(f"dev - held-out: {out['gap']}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
