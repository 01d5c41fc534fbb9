"""The language identifiers compared before `memories/language.py` chose fastText, each alone on
bench/data/language_id.txt: its best guess as a claimed language or "other" (no threshold, no
script rules), per split, with its speed and the memory it adds. The candidates are not project
dependencies; `uv run --with` brings them for one run:

    uv run --with py3langid==0.4.0 --with langdetect==1.0.9 \
        --with lingua-language-detector==2.1.1 --with pycld2==0.42 --with cld3-py==3.1.0 \
        python -m bench language-candidates [--split dev|heldout]

A candidate that is not installed is skipped. The memory a candidate adds is measured in this
process, after the ones before it: `--only NAME` measures one alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import time
from collections.abc import Callable
from typing import Any

from bench.language import Example, load

Guess = Callable[[str], "tuple[str | None, float]"]
_CLAIMED = ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")


def _py3langid() -> Guess:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return lambda text: identifier.classify(text)


def _langdetect() -> Guess:
    from langdetect import DetectorFactory, detect_langs
    from langdetect.lang_detect_exception import LangDetectException

    DetectorFactory.seed = 0

    def guess(text: str) -> tuple[str | None, float]:
        try:
            best = detect_langs(text)[0]
        except LangDetectException:
            return None, 0.0
        return best.lang, best.prob

    return guess


def _lingua(low: bool) -> Guess:
    from lingua import LanguageDetectorBuilder

    builder = LanguageDetectorBuilder.from_all_languages()
    detector = (builder.with_low_accuracy_mode() if low else builder).build()

    def guess(text: str) -> tuple[str | None, float]:
        values = detector.compute_language_confidence_values(text)
        if not values:
            return None, 0.0
        return values[0].language.iso_code_639_1.name.lower(), values[0].value

    return guess


def _fasttext() -> Guess:
    from memories import language

    return language._identify


def _cld2() -> Guess:
    import pycld2

    def guess(text: str) -> tuple[str | None, float]:
        _, _, details = pycld2.detect(text)
        code = details[0][1]
        return (None if code == "un" else code), details[0][2] / 100

    return guess


def _cld3() -> Guess:
    import gcld3

    identifier = gcld3.NNetLanguageIdentifier(min_num_bytes=0, max_num_bytes=1000)

    def guess(text: str) -> tuple[str | None, float]:
        found = identifier.FindLanguage(text=text)
        return (None if found.language == "und" else found.language), found.probability

    return guess


CANDIDATES: dict[str, tuple[str, Callable[[], Guess]]] = {
    "fasttext lid.176.ftz": ("fasttext", _fasttext),
    "lingua (high accuracy)": ("lingua", lambda: _lingua(low=False)),
    "lingua (low accuracy)": ("lingua", lambda: _lingua(low=True)),
    "py3langid": ("py3langid", _py3langid),
    "cld3": ("gcld3", _cld3),
    "langdetect": ("langdetect", _langdetect),
    "cld2": ("pycld2", _cld2),
}


def _as_claimed(code: str | None) -> str:
    base = (code or "und").lower().replace("_", "-").split("-")[0]
    return base if base in _CLAIMED or base == "und" else "other"


def score(guess: Guess, examples: list[Example]) -> dict[str, Any]:
    claimed = [e for e in examples if e.language in _CLAIMED]
    lookalikes = [e for e in examples if e.language not in _CLAIMED]
    found = {e.text: _as_claimed(guess(e.text)[0]) for e in examples}
    words = [e for e in claimed if e.size == "w"]
    return {
        "claimed_right": f"{sum(found[e.text] == e.language for e in claimed)}/{len(claimed)}",
        "words_right": f"{sum(found[e.text] == e.language for e in words)}/{len(words)}",
        "lookalikes_claimed": f"{sum(found[e.text] in _CLAIMED for e in lookalikes)}"
        f"/{len(lookalikes)}",
    }


# The thresholds tried for fastText's probability (memories/language.py, CONFIDENT).
THRESHOLDS = (0.3, 0.5, 0.7)
_LATIN_TEXT = re.compile("[A-Za-z\u00c0-\u024f]")
_OTHER_SCRIPT = re.compile("[^\\W\\d_A-Za-z\u00c0-\u024f]")


def thresholds(examples: list[Example]) -> dict[str, dict[str, int]]:
    """fastText on the Latin-script dev texts at each threshold: claimed texts right, claimed
    texts taken for another claimed language, look-alikes claimed (of how many)."""
    from memories import language

    latin = [
        e
        for e in examples
        if e.split == "dev" and _LATIN_TEXT.search(e.text) and not _OTHER_SCRIPT.search(e.text)
    ]
    guesses = {e.text: language._identify(e.text) for e in latin}
    claimed = [e for e in latin if e.language in _CLAIMED]
    out = {}
    for threshold in THRESHOLDS:

        def found(e: Example, threshold: float = threshold) -> str:
            code, probability = guesses[e.text]
            return _as_claimed(code) if probability >= threshold else "und"

        out[str(threshold)] = {
            "claimed": len(claimed),
            "right": sum(found(e) == e.language for e in claimed),
            "another_claimed": sum(found(e) not in (e.language, "other", "und") for e in claimed),
            "lookalikes": len(latin) - len(claimed),
            "lookalikes_claimed": sum(
                found(e) in _CLAIMED for e in latin if e.language not in _CLAIMED
            ),
        }
    return out


def _resident_mb() -> float:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench language-candidates", description=__doc__
    )
    parser.add_argument("--split", choices=("dev", "heldout"), action="append")
    parser.add_argument(
        "--only", choices=tuple(CANDIDATES), help="one candidate (its memory measured alone)"
    )
    args = parser.parse_args(argv)
    examples = load()
    report: dict[str, Any] = {}
    for name, (module, make) in CANDIDATES.items():
        if args.only and name != args.only:
            continue
        if importlib.util.find_spec(module) is None:
            print(f"{name}: not installed, skipped")
            continue
        before = _resident_mb()
        guess = make()
        guess("warm up")
        added_mb = _resident_mb() - before
        start = time.perf_counter()
        for e in examples:
            guess(e.text)
        per_text = (time.perf_counter() - start) / len(examples) * 1e6
        row: dict[str, Any] = {"us_per_text": round(per_text), "memory_mb": round(added_mb)}
        for split in args.split or ("dev", "heldout"):
            row[split] = score(guess, [e for e in examples if e.split == split])
        report[name] = row
        print(f"{name}: {row}")
    report["fasttext_thresholds_latin_dev"] = thresholds(examples)
    print(json.dumps(report))
    return 0
