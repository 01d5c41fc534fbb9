"""The local extractor against hand-labelled chat messages, and its speed.

    uv run python -m bench extract [--split dev|heldout|dev2|outside|fresh-dev|fresh-heldout|
                                            ml-dev|ml-heldout|context-dev|context-heldout|
                                            recall-dev|recall-heldout|voices-dev|
                                            voices-heldout|threads-dev|threads-heldout|asides-dev|
                                            asides-heldout|ml2-dev|ml2-heldout|fresh2|fresh3]
                                   [--repeat 3] [--show] [--sweep] [--check-facts N] [--json]

Splits: dev, dev2, fresh-dev, ml-dev, context-dev, recall-dev, voices-dev, threads-dev,
asides-dev and ml2-dev are tuned on; heldout, outside, fresh-heldout, ml-heldout, context-heldout,
recall-heldout, voices-heldout, threads-heldout, asides-heldout, ml2-heldout, fresh2 and fresh3
are not (they
give aggregate figures only: `--show`, `--sweep` and `--check-facts` print nothing of them; all
but heldout run only when named). fresh-dev and
fresh-heldout are the two parts of bench/data/extraction_fresh.txt, chosen by each record's `dev` or
`heldout` tag (a conversation's records share one); fresh2 is bench/data/extraction_fresh2.txt, a
second fresh set written later by another author who never read the extractor, every record held
out; fresh3 is bench/data/extraction_fresh3.txt, a third, written by the helper of branch `fresh3`,
who never read the extractor or its rules, every record held out. A record may carry a
`%conversation <id> | <title>` line: records sharing an id are one conversation, fed to the
extractor in file order with their conversation and title, as an import feeds a conversation's
messages. It may also carry `%prev <role>: <text>` lines (role `assistant` or
`user`): the messages said just before it that are not records themselves, oldest first, which its
labels were completed from. The extractor is handed the person's messages, each with the assistant's
message just before it (the last %prev line when its role is `assistant`), as an import hands them:
it reads that message only to complete a short answer's subject.

Message level: a message is *kept* when the extractor makes at least one memory of it, and
*fact-bearing* when its label lists at least one lasting fact. Precision = kept and
fact-bearing / kept; recall = kept and fact-bearing / fact-bearing.

Fact level: a gold fact is *covered* when one of the memories made from its message matches it:
cosine similarity of the two embeddings >= FACT_COSINE (all-MiniLM-L6-v2's embeddings, whatever
model the extractor runs on, so that the measure does not move with the model), or at least
FACT_WORDS of the fact's content words (memories/extraction/repeats.content_words) appear in the
memory. Recall = covered facts / all facts. `--check-facts N` prints N decisions at random and N
near the thresholds (cosine 0.4-0.7 or words 0.3-0.7), to check the rule by hand.

By language: for each `lang-xx` tag, message precision, recall and fact recall.

Errors by type: for each tag, the fact-bearing messages it made nothing of (FN) and the messages
without facts it kept (FP).

Throughput: the extractor over every message of the split, against the raw embedding rate of
the same message texts, timed alternately in the same run (`--repeat` rounds; medians).
Prints readable lines, then one JSON object.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "memories" / "data"
BENCH_DATA = Path(__file__).resolve().parent / "data"
SPLITS = {
    "dev": DATA / "extraction_dev.txt",
    "heldout": DATA / "extraction_heldout.txt",
    "dev2": DATA / "extraction_dev2.txt",
    # Written by someone who never read the extractor; never tuned on (docs/benchmarks.md).
    "outside": BENCH_DATA / "extraction_outside.txt",
    # Written before the rules of issue 38 by an author who never read them: its dev part is
    # tuned on, its held-out part (fixed at writing, by a tag on each record) is not.
    "fresh-dev": BENCH_DATA / "extraction_fresh.txt",
    "fresh-heldout": BENCH_DATA / "extraction_fresh.txt",
    # Issue 36 (4): messages written in the seven other claimed languages by an author who never
    # read the rules; its held-out part (a tag fixed at writing) is not tuned on.
    "ml-dev": BENCH_DATA / "extraction_multilingual.txt",
    "ml-heldout": BENCH_DATA / "extraction_multilingual.txt",
    # Answers and fragments after the assistant's question (%prev), written before the rules
    # that read the question, by their author: its held-out part checks over-fitting only.
    "context-dev": DATA / "extraction_context.txt",
    "context-heldout": DATA / "extraction_context.txt",
    # A second fresh set by another author who never read the rules: all held out.
    "fresh2": BENCH_DATA / "extraction_fresh2.txt",
    # A third, by the helper of branch `fresh3`, who never read the rules: all held out.
    "fresh3": BENCH_DATA / "extraction_fresh3.txt",
    # The miss patterns left after the first pass of issue 38.3 (questions, announcements,
    # people, preferences in passing, fragments, non-English), written before their rules.
    "recall-dev": DATA / "extraction_recall.txt",
    "recall-heldout": DATA / "extraction_recall.txt",
    # Many authors' styles, non-native English, long messages, pro-drop first persons, in the
    # eight claimed languages; written before the rules of issue 38.3's third pass, a third held
    # out by sha256 of the conversation or record id, fixed before any rule.
    "voices-dev": DATA / "extraction_voices.txt",
    "voices-heldout": DATA / "extraction_voices.txt",
    # Facts said in passing inside requests, lists about oneself, long multi-topic messages,
    # fragments after the person's previous message or the assistant's question, in the eight
    # claimed languages; written before the rules of issue 38.3's fourth pass, a third held out
    # by sha256 of the conversation or record id, fixed before any rule.
    "threads-dev": DATA / "extraction_threads.txt",
    "threads-heldout": DATA / "extraction_threads.txt",
    # Preferences said in passing or in answer to the assistant, fragments after the person's
    # previous message, adverb-led sentences without a subject, German da/weil clauses, dropped
    # subjects and family words; written before the rules of issue 38.3's fifth pass, a third
    # held out by sha256 of the conversation or record id, fixed before any rule.
    "asides-dev": DATA / "extraction_asides.txt",
    "asides-heldout": DATA / "extraction_asides.txt",
    # Issue 36 (4) again: the seven other claimed languages, 31 messages each, in the shapes the
    # ml set's misses took (announcements, facts in questions, people, passing preferences,
    # fragments, answers to the assistant) and their negatives; written before the rules of
    # branch mlx36, a third held out by sha256 of the conversation or record id, fixed first.
    "ml2-dev": DATA / "extraction_ml2.txt",
    "ml2-heldout": DATA / "extraction_ml2.txt",
}
# The records of a split sharing a file
PART = {
    "fresh-dev": "dev",
    "fresh-heldout": "heldout",
    "ml-dev": "dev",
    "ml-heldout": "heldout",
    "context-dev": "dev",
    "context-heldout": "heldout",
    "recall-dev": "dev",
    "recall-heldout": "heldout",
    "voices-dev": "dev",
    "voices-heldout": "heldout",
    "threads-dev": "dev",
    "threads-heldout": "heldout",
    "asides-dev": "dev",
    "asides-heldout": "heldout",
    "ml2-dev": "dev",
    "ml2-heldout": "heldout",
    "fresh2": "heldout",
    "fresh3": "heldout",
}
# Never tuned on: aggregate figures only, and not run unless named
NOT_SHOWN = frozenset(
    {
        "outside",
        "fresh-heldout",
        "ml-heldout",
        "context-heldout",
        "recall-heldout",
        "voices-heldout",
        "threads-heldout",
        "asides-heldout",
        "ml2-heldout",
        "fresh2",
        "fresh3",
    }
)
# Run by default, but never tuned on either: no wrong decision of it is printed
NO_ERRORS_SHOWN = NOT_SHOWN | {"heldout"}
PREVIOUS_ROLES = ("assistant", "user")
# Records of the tuned sets whose facts are sensitive, labelled by hand (`--sensitive`).
SENSITIVE = BENCH_DATA / "sensitive_extracted.txt"
# The measure is the same whichever model the extractor runs on: facts are matched with
# all-MiniLM-L6-v2's vectors, on which FACT_COSINE was checked by hand.
FACT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
FACT_COSINE = 0.55
FACT_WORDS = 0.5
# The thresholds `--sweep` tries, around each model's own (memories/search/model_profiles.py).
SWEEP_STEPS = {
    "sentence-transformers/all-MiniLM-L6-v2": (-0.1, -0.05, 0.0, 0.05, 0.1, 0.15),
    "intfloat/multilingual-e5-small-q4": (-0.02, -0.01, -0.005, 0.0, 0.005, 0.01, 0.02),
}


@dataclass(frozen=True)
class Example:
    id: str
    tags: tuple[str, ...]
    text: str
    facts: tuple[str, ...]
    conversation: str | None = None  # records sharing it are one conversation, in file order
    title: str = ""  # that conversation's title
    previous: tuple[tuple[str, str], ...] = ()  # (role, text) said just before, not a record

    @property
    def fact_bearing(self) -> bool:
        return bool(self.facts)


def load(path: Path) -> list[Example]:
    """Read a labelled set (format: the header of tests/memories/data/extraction_dev.txt)."""
    examples: list[Example] = []
    current: dict[str, Any] | None = None

    def close() -> None:
        if current is None:
            return
        where = f"{path.name}: {current['id']}"
        if not current["none"] and not current["facts"]:
            raise ValueError(f"{where} has no labels (%fact lines or %none)")
        if current["none"] and current["facts"]:
            raise ValueError(f"{where} has both %none and %fact lines")
        kind = "pos" if current["facts"] else "neg"
        if kind not in current["tags"]:
            raise ValueError(f"{where} is tagged {current['tags']} but its labels make it {kind}")
        text = "\n".join(current["lines"]).strip()
        if not text:
            raise ValueError(f"{where} has no message")
        examples.append(
            Example(
                current["id"],
                current["tags"],
                text,
                tuple(current["facts"]),
                current["conversation"],
                current["title"],
                tuple(current["previous"]),
            )
        )

    for line in path.read_text().split("\n"):
        if line.startswith("%% "):
            close()
            head = line[3:].split()
            current = {"id": head[0], "tags": tuple(head[1:]), "lines": [], "facts": []}
            current.update(none=False, conversation=None, title="", previous=[])
        elif current is None:
            continue
        elif line.startswith("%conversation ") and not current["lines"]:
            conversation, _, title = line[len("%conversation ") :].partition("|")
            current["conversation"], current["title"] = conversation.strip(), title.strip()
        elif line.startswith("%prev ") and not current["lines"]:
            role, _, said = line[len("%prev ") :].partition(":")
            if role.strip() not in PREVIOUS_ROLES or not said.strip():
                raise ValueError(f"{path.name}: {current['id']} has a bad %prev line: {line!r}")
            current["previous"].append((role.strip(), said.strip()))
        elif line.startswith("%fact "):
            current["facts"].append(line[len("%fact ") :].strip())
        elif line.strip() == "%none":
            current["none"] = True
        elif current["facts"] or current["none"]:
            if line.strip():
                raise ValueError(f"{path.name}: {current['id']} has text after its labels")
        else:
            current["lines"].append(line)
    close()
    ids = [e.id for e in examples]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{path.name}: duplicate ids")
    return examples


def load_split(split: str) -> list[Example]:
    """A split's examples: a whole file, or the records of a file tagged with the split's part."""
    examples = load(SPLITS[split])
    part = PART.get(split)
    return examples if part is None else [e for e in examples if part in e.tags]


def message_scores(gold: Sequence[bool], kept: Sequence[bool]) -> dict[str, Any]:
    tp = sum(1 for g, k in zip(gold, kept, strict=True) if g and k)
    fp = sum(1 for g, k in zip(gold, kept, strict=True) if k and not g)
    fn = sum(1 for g, k in zip(gold, kept, strict=True) if g and not k)
    return {
        "precision": round(tp / (tp + fp), 3) if tp + fp else 0.0,
        "recall": round(tp / (tp + fn), 3) if tp + fn else 0.0,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": len(gold) - tp - fp - fn,
    }


@dataclass(frozen=True)
class FactMatch:
    example: str
    fact: str
    memory: str  # the best memory of the message ('' when it made none)
    cosine: float
    words: float
    covered: bool


def match_facts(examples: Sequence[Example], memories: Sequence[Sequence[str]]) -> list[FactMatch]:
    """Each gold fact against the memories made from its own message."""
    import numpy as np

    from memories.extraction.repeats import content_words
    from memories.search.embeddings import get_embedder

    facts = [(e, f) for e in examples for f in e.facts]
    texts = sorted({f for _, f in facts} | {m for ms in memories for m in ms})
    vectors = dict(zip(texts, get_embedder(FACT_MODEL).embed(texts), strict=True))

    def unit(text: str) -> Any:
        v = vectors[text]
        return v / max(float(np.linalg.norm(v)), 1e-12)

    by_id = {e.id: list(ms) for e, ms in zip(examples, memories, strict=True)}
    out: list[FactMatch] = []
    for example, fact in facts:
        want = content_words(fact)
        best: FactMatch | None = None
        for memory in by_id[example.id]:
            cosine = float(unit(fact) @ unit(memory))
            words = len(want & content_words(memory)) / len(want) if want else 0.0
            covered = cosine >= FACT_COSINE or words >= FACT_WORDS
            candidate = FactMatch(example.id, fact, memory, cosine, words, covered)
            if best is None or (candidate.covered, cosine + words) > (
                best.covered,
                best.cosine + best.words,
            ):
                best = candidate
        out.append(best or FactMatch(example.id, fact, "", 0.0, 0.0, False))
    return out


def memory_precision(
    examples: Sequence[Example], memories: Sequence[Sequence[str]], facts: Sequence[FactMatch]
) -> float:
    """Share of memories that are the best match of a gold fact of their message (or match one
    by the same rule): a memory that states no labelled fact counts against it."""
    import numpy as np

    from memories.extraction.repeats import content_words
    from memories.search.embeddings import get_embedder

    best = {(f.example, f.memory) for f in facts if f.covered}
    flat = [(e, m) for e, ms in zip(examples, memories, strict=True) for m in ms]
    if not flat:
        return 0.0
    texts = sorted({m for _, m in flat} | {f for e, _ in flat for f in e.facts})
    vectors = dict(zip(texts, get_embedder(FACT_MODEL).embed(texts), strict=True))

    def cos(a: str, b: str) -> float:
        va, vb = vectors[a], vectors[b]
        return float(va @ vb / max(float(np.linalg.norm(va) * np.linalg.norm(vb)), 1e-12))

    def states_a_fact(example: Example, memory: str) -> bool:
        if (example.id, memory) in best:
            return True
        for fact in example.facts:
            want = content_words(fact)
            words = len(want & content_words(memory)) / len(want) if want else 0.0
            if cos(fact, memory) >= FACT_COSINE or words >= FACT_WORDS:
                return True
        return False

    return round(sum(states_a_fact(e, m) for e, m in flat) / len(flat), 3)


def by_tag(examples: Sequence[Example], kept: Sequence[bool]) -> dict[str, dict[str, int]]:
    """Per tag: right decisions (keep a fact-bearing message, drop the others), and the errors
    by kind: fp (kept, states no fact), fn (states a fact, nothing kept)."""
    out: dict[str, dict[str, int]] = {}
    for example, k in zip(examples, kept, strict=True):
        for tag in example.tags:
            row = out.setdefault(tag, {"n": 0, "right": 0, "fp": 0, "fn": 0})
            row["n"] += 1
            row["right"] += int(k == example.fact_bearing)
            row["fp"] += int(k and not example.fact_bearing)
            row["fn"] += int(example.fact_bearing and not k)
    return dict(sorted(out.items()))


def by_language(
    examples: Sequence[Example], kept: Sequence[bool], facts: Sequence[FactMatch]
) -> dict[str, dict[str, Any]]:
    """Per `lang-xx` tag: message precision and recall, and fact recall (aggregates, so they
    are printed for held-out splits too)."""
    out: dict[str, dict[str, Any]] = {}
    covered = [(f.example, f.covered) for f in facts]
    for tag in sorted({t for e in examples for t in e.tags if t.startswith("lang-")}):
        ids = {e.id for e in examples if tag in e.tags}
        pairs = [(e.fact_bearing, k) for e, k in zip(examples, kept, strict=True) if e.id in ids]
        mine = [c for example, c in covered if example in ids]
        out[tag[5:]] = {
            "n": len(pairs),
            **message_scores([g for g, _ in pairs], [k for _, k in pairs]),
            "fact_recall": round(sum(mine) / len(mine), 3) if mine else 0.0,
        }
    return out


def turns(examples: Sequence[Example]) -> list[Any]:
    """The messages as an import hands them over: each with its conversation and title (a
    record without a %conversation line is a conversation of its own)."""
    from memories.extraction.local import Turn

    return [
        Turn(e.text, e.conversation or f"#{e.id}", e.title, asked(e.previous)) for e in examples
    ]


def asked(previous: Sequence[tuple[str, str]]) -> str:
    """The assistant's message just before a record, when its last %prev line is one."""
    return previous[-1][1] if previous and previous[-1][0] == "assistant" else ""


def _throughput(examples: Sequence[Example], repeat: int) -> dict[str, Any]:
    from memories.extraction.local import local_extractor
    from memories.search.embeddings import get_embedder

    embedder, extractor = get_embedder(), local_extractor()
    texts, said = [e.text for e in examples], turns(examples)
    raw: list[float] = []
    local: list[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        embedder.embed(texts)
        raw.append(len(texts) / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        extractor.extract(said)
        local.append(len(texts) / (time.perf_counter() - t0))
    raw_rate, local_rate = statistics.median(raw), statistics.median(local)
    return {
        "messages": len(texts),
        "raw_embed_messages_per_s": round(raw_rate, 1),
        "local_messages_per_s": round(local_rate, 1),
        "ratio": round(local_rate / raw_rate, 2),
        "rounds": repeat,
    }


def evaluate(examples: Sequence[Example], threshold: float | None = None) -> dict[str, Any]:
    from memories.extraction.local import local_extractor

    extractor = local_extractor()
    shipped = extractor.thresholds
    if threshold is not None:
        extractor.thresholds = replace(shipped, threshold=threshold)
    try:
        kept = extractor.extract(turns(examples))
    finally:
        extractor.thresholds = shipped
    memories = [[k.text for k in ks] for ks in kept]
    gold = [e.fact_bearing for e in examples]
    decided = [bool(ms) for ms in memories]
    facts = match_facts(examples, memories)
    return {
        "n": len(examples),
        "fact_bearing": sum(gold),
        "without_facts_share": round(1 - sum(gold) / len(gold), 3),
        "message": message_scores(gold, decided),
        "fact_recall": round(sum(f.covered for f in facts) / len(facts), 3) if facts else 0.0,
        "facts": len(facts),
        "memories": sum(len(ms) for ms in memories),
        "memory_precision": memory_precision(examples, memories, facts),
        "by_tag": by_tag(examples, decided),
        "by_language": by_language(examples, decided, facts),
        "_memories": memories,
        "_facts": facts,
    }


def sensitive_labels(path: Path = SENSITIVE) -> dict[str, Any]:
    """Per part of `path` (dev, heldout), and per set and part: how many records' gold facts,
    typed as memories, carry their sensitive category, how many records' extracted memories do,
    and how many are labelled alike both ways (`same`; issue 38, item 4)."""
    from memories.classify import classifier_for
    from memories.extraction.local import local_extractor
    from memories.search.embeddings import get_embedder

    rows = [line.split() for line in path.read_text().splitlines() if line and line[0] != "#"]
    examples: dict[tuple[str, str], Example] = {}
    extracted_from: dict[tuple[str, str], list[Any]] = {}
    classifier, embedder = classifier_for(), get_embedder()
    report: dict[str, Any] = {}
    for split in dict.fromkeys(row[0] for row in rows):
        loaded = load_split(split)
        kept = local_extractor().extract(turns(loaded))
        for example, memories in zip(loaded, kept, strict=True):
            examples[(split, example.id)] = example
            extracted_from[(split, example.id)] = memories
    for split, record, category, part in rows:
        example = examples[(split, record)]
        memories = extracted_from[(split, record)]
        typed = classifier.classify(embedder.embed(list(example.facts)), list(example.facts))
        extracted = classifier.classify([k.vector for k in memories], [k.text for k in memories])
        typed_has = any(category in labels for labels in typed)
        extracted_has = any(category in labels for labels in extracted)
        # per part, and per part of each set (which split the record comes from)
        for key in (part, f"{split}/{part}"):
            counts = report.setdefault(
                key, {"n": 0, "typed": 0, "extracted": 0, "kept": 0, "same": 0}
            )
            counts["n"] += 1
            counts["typed"] += typed_has
            counts["kept"] += bool(memories)
            counts["extracted"] += extracted_has
            counts["same"] += typed_has == extracted_has  # labelled as the standalone fact is
        if not any(category in labels for labels in extracted) and part == "dev":
            print(f"  unlabelled {split} {record} {category}: {[k.text for k in memories]}")
    return report


def _temporary_home() -> None:
    """Like every benchmark: a throwaway CONTEXT_LAYER_HOME (the model folder goes there)."""
    home = tempfile.mkdtemp(prefix="contextlayer-bench-")
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    os.environ["CONTEXT_LAYER_HOME"] = home
    os.environ["DJANGO_SETTINGS_MODULE"] = "contextlayer.settings"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def _print_errors(examples: Sequence[Example], result: dict[str, Any]) -> None:
    """Every wrong decision, then the gold facts a kept message's memories do not cover."""
    for example, memories in zip(examples, result["_memories"], strict=True):
        if bool(memories) != example.fact_bearing:
            kind = "FP" if memories else "FN"
            print(f"  {kind} {example.id} {' '.join(example.tags)}: {example.text[:100]!r}")
            for memory in memories:
                print(f"       kept: {memory!r}")
    kept = {e.id: ms for e, ms in zip(examples, result["_memories"], strict=True)}
    for fact in result["_facts"]:
        if kept[fact.example] and not fact.covered:
            print(f"  fact missed {fact.example}: {fact.fact!r} (kept {kept[fact.example]!r})")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench extract", description=__doc__)
    parser.add_argument("--split", choices=tuple(SPLITS), action="append")
    parser.add_argument("--repeat", type=int, default=3, help="throughput rounds (median)")
    parser.add_argument("--show", action="store_true", help="print every wrong decision")
    parser.add_argument("--sweep", action="store_true", help="precision/recall per threshold")
    parser.add_argument("--check-facts", type=int, default=0, metavar="N")
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    parser.add_argument(
        "--sensitive", action="store_true", help="sensitive labels, typed against extracted"
    )
    args = parser.parse_args(argv)
    _temporary_home()
    if args.sensitive:
        print(json.dumps(sensitive_labels(), indent=2 if args.json else None), flush=True)
        return 0
    from memories.extraction.local import local_extractor
    from memories.search.embeddings import get_embedder

    local_extractor()  # model loaded and prototypes embedded before anything is timed
    splits = args.split or [s for s in SPLITS if s not in NOT_SHOWN and SPLITS[s].exists()]
    report: dict[str, Any] = {"benchmark": "extract", "model": get_embedder().model_name}
    for split in splits:
        examples = load_split(split)
        result = evaluate(examples)
        result["throughput"] = _throughput(examples, args.repeat)
        if args.sweep and split not in NO_ERRORS_SHOWN:
            shipped = local_extractor().thresholds.threshold
            steps = SWEEP_STEPS.get(get_embedder().model_name, SWEEP_STEPS[FACT_MODEL])
            result["sweep"] = {
                str(round(shipped + step, 4)): evaluate(examples, shipped + step)["message"]
                for step in steps
            }
        if not args.json:
            m, tp = result["message"], result["throughput"]
            print(
                f"\n{split}: {result['n']} messages ({result['fact_bearing']} fact-bearing, "
                f"{result['without_facts_share']:.0%} without facts), {result['memories']} memories"
            )
            print(
                f"  message precision {m['precision']}  recall {m['recall']}  "
                f"(tp {m['tp']} fp {m['fp']} fn {m['fn']} tn {m['tn']})"
            )
            print(
                f"  fact recall {result['fact_recall']} of {result['facts']} facts; "
                f"{result['memory_precision']:.0%} of memories state a labelled fact"
            )
            print(
                f"  throughput {tp['local_messages_per_s']} messages/s against raw embedding "
                f"{tp['raw_embed_messages_per_s']} messages/s: ratio {tp['ratio']}"
            )
            tags = ", ".join(f"{t} {v['right']}/{v['n']}" for t, v in result["by_tag"].items())
            print(f"  right decisions by tag: {tags}")
            languages = ", ".join(
                f"{code} {v['precision']}/{v['recall']}/{v['fact_recall']}"
                for code, v in result["by_language"].items()
            )
            if languages:
                print(f"  by language (precision/recall/fact recall): {languages}")
            errors = ", ".join(
                f"{t} fp {v['fp']} fn {v['fn']}"
                for t, v in result["by_tag"].items()
                if v["fp"] or v["fn"]
            )
            print(f"  errors by tag: {errors or 'none'}")
            for t, s in result.get("sweep", {}).items():
                print(f"  threshold {t}: precision {s['precision']} recall {s['recall']}")
            if args.show and split not in NO_ERRORS_SHOWN:
                _print_errors(examples, result)
            if args.check_facts and split not in NO_ERRORS_SHOWN:
                facts = result["_facts"]
                rng = random.Random(17)
                near = [f for f in facts if 0.4 <= f.cosine < 0.7 or 0.3 <= f.words < 0.7]
                sample = rng.sample(facts, min(args.check_facts, len(facts)))
                sample += rng.sample(near, min(args.check_facts, len(near)))
                for f in sample:
                    print(
                        f"  check {f.example} covered={f.covered} cos={f.cosine:.2f} "
                        f"words={f.words:.2f}: {f.fact!r} <- {f.memory!r}"
                    )
        report[split] = {k: v for k, v in result.items() if not k.startswith("_")}
    print(json.dumps(report, indent=2 if args.json else None), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
