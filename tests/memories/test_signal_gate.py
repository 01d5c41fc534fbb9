"""The sensitive signal words tried only where they can match (memories/signal_gate.py): the same
answer as the whole pattern, found faster."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memories.categories.signals import signal_words, signals_pattern
from memories.categories.vocabulary import DEFAULT_CATEGORIES
from memories.language import CLAIMED
from memories.signal_gate import SignalGate, SignalGates, stems

ROOT = Path(__file__).resolve().parents[2]
SENSITIVE = [(i, c) for i, c in enumerate(DEFAULT_CATEGORIES) if c.sensitive]


def _labelled_texts() -> list[str]:
    """Every text of the project's labelled JSON sets (memories, queries, harm items), and the
    first of them in capitals and in title case (the patterns ignore case; the gate lowercases)."""
    texts: list[str] = []
    for path in sorted((ROOT / "bench" / "data").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key in ("items", "memories", "queries"):
            if isinstance(data, dict):
                texts += [
                    i["text"] for i in data.get(key, []) if isinstance(i, dict) and "text" in i
                ]
    return [*texts, *(t.upper() for t in texts[:800]), *(t.title() for t in texts[800:1600])]


@pytest.mark.parametrize("language", [*sorted(CLAIMED), "other", None])
def test_the_gate_finds_exactly_the_categories_the_whole_patterns_find(
    language: str | None,
) -> None:
    texts = _labelled_texts()
    assert len(texts) > 3000
    whole = [(i, signals_pattern(c, language)) for i, c in SENSITIVE if signal_words(c, language)]
    gates = SignalGates(
        [
            (i, SignalGate(signal_words(c, language)))
            for i, c in SENSITIVE
            if signal_words(c, language)
        ]
    )
    found = 0
    for text in texts:
        expected = {i for i, rx in whole if rx.search(text)}
        assert gates.matching(text) == expected, text
        found += bool(expected)
    assert found > 50  # the texts hold signal words: the comparison is not of empty sets


def test_an_expression_is_gated_by_the_literal_beginnings_of_its_matches() -> None:
    assert stems(r"\bpregnan\w*") == {"pre"}
    assert stems(r"\b(in)?fertil(e|ity)\b") == {"inf", "fer"}
    assert stems(r"\b(ante|pre|post)natal\b") == {"ant", "pre", "pos"}
    assert stems(r"(?-i:\bLent\b)") == {"len"}
    assert stems("糖尿病") == {"糖尿病"}
    assert stems(r"\bgyn(a)?ecolog") == {"gyn"}
    assert stems(r"\bi[vV]f\b") == {"ivf"}


def test_an_expression_whose_beginning_cannot_be_read_always_runs() -> None:
    assert stems(r"\w+itis\b") is None
    assert stems(r"\b[a-z]+ Party\b") is None
    gate = SignalGates([(0, SignalGate([r"\w+itis\b"])), (1, SignalGate([r"\bmortgage\b"]))])
    assert gate.matching("Mein Knie: Tendinitis seit Mai.") == {0}
    assert gate.matching("We paid off the MORTGAGE.") == {1}
    assert gate.matching("We went sailing.") == set()
    assert gate.matching("") == set()


def test_letters_that_ignoring_case_equates_are_equated_by_the_gate_too() -> None:
    """`re` with IGNORECASE finds "salary" written with a long s, and "istanbul" in "İstanbul"
    (its full lowercase is two letters): so must the gate."""
    gates = SignalGates([(0, SignalGate([r"\bsalary\b"])), (1, SignalGate([r"\bistanbul\b"]))])
    assert gates.matching("My \u017fALARY went up.") == {0}
    assert gates.matching("I moved to İstanbul.") == {1}
