"""Patterns tried only on texts that hold one of their stems.

Python's `re` tries every alternative of a pattern at every position of a text, so a pattern of
many words in eight languages costs tens of microseconds per memory, and there are a few hundred
of them. Each rule names stems (lowercase) of which every match holds at least one; `Stems` finds
which stems a text holds in one pass (pyahocorasick's automaton), and a rule runs only when one
of its stems is there. The write path pays for the few texts that might match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

import ahocorasick


class Gated:
    def __init__(self, stems: str, pattern: str, flags: int = re.I | re.M) -> None:
        self.stems = frozenset(stems.split("|"))
        self.regex = re.compile(pattern, flags)

    def possible(self, present: frozenset[str]) -> bool:
        return not self.stems.isdisjoint(present)

    def search(self, text: str, present: frozenset[str]) -> re.Match[str] | None:
        return self.regex.search(text) if self.possible(present) else None

    def finditer(self, text: str, present: frozenset[str]) -> Iterator[re.Match[str]]:
        if self.possible(present):
            yield from self.regex.finditer(text)


class Stems:
    """Which of many stems a lowercase text holds, found in one pass (Aho-Corasick, in C)."""

    def __init__(self, stems: Iterable[str]) -> None:
        self.automaton = ahocorasick.Automaton()
        for stem in set(stems):
            self.automaton.add_word(stem, stem)
        self.automaton.make_automaton()

    def present(self, low: str) -> frozenset[str]:
        return frozenset(stem for _, stem in self.automaton.iter(low))


class Rules:
    """Gated rules tried in order, each only when one of its stems is in the text."""

    def __init__(self, rules: Sequence[tuple[str, Gated]]) -> None:
        self.rules = tuple(rules)
        self.stems = frozenset(stem for _, gate in self.rules for stem in gate.stems)

    def first(self, text: str, present: frozenset[str], skip: str = "") -> str:
        """The name of the first rule that matches `text` (`present`: the stems it holds),
        leaving out the rules named `skip`."""
        for name, gate in self.rules:
            if name != skip and gate.possible(present) and gate.regex.search(text):
                return name
        return ""
