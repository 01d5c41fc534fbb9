"""Which sensitive signal words can match a text, found in one pass.

A category's signal words in eight languages are a few hundred regular expressions; Python's `re`
tries every alternative at every word of a text, ~145 µs per English memory and 1.6 ms for a text
of an unclaimed language (every language's words): after the embedding, the write path's largest
cost (`bench add`). Each expression's literal beginnings are read from its parsed form (`stems`:
"pre" for `\\bpregnan\\w*`; "inf" and "fer" for `\\b(in)?fertil(e|ity)\\b`), an Aho-Corasick
automaton finds which of them a text holds (both folded as `re` equates letters), and an
expression runs only when one of its stems is there. An expression whose beginning cannot be
read (a class such as `\\w` first) always runs, so the answer is the one the whole pattern gives
(tests/memories/test_signal_gate.py checks that on every labelled text of the project).
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Sequence
from typing import Any

from memories.harm.gated import Stems

# The standard library's own regular-expression parser, its opcodes and the letters its
# IGNORECASE also equates (private modules, stable since 3.11: test_signal_gate.py compares the
# gate with the whole patterns). Imported by name: type checkers' stubs differ on them.
sre_parse = importlib.import_module("re._parser")
sre = importlib.import_module("re._constants")
_casefix = importlib.import_module("re._casefix")

STEM_LENGTH = 3  # long enough to be rare, short enough for a branch's alternatives
_MAX_STEMS = 64  # more beginnings than this: the expression always runs
_ZERO_WIDTH = {sre.AT, sre.ASSERT, sre.ASSERT_NOT}
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT}


# `re` with IGNORECASE equates two letters whose simple lowercase is the same, and a few more
# (`_casefix`: the long s and "s", the dotless i and "i", Cyrillic and Greek variants). `fold`
# maps a text so that such letters become one: the dotted capital I first (its full lowercase is
# two letters, its simple one "i"), then lowercase, then each extra case to the least of its
# class. Stems and texts are compared folded.
_BEFORE = {0x130: "i"}
_AFTER = {cp: chr(min((cp, *others))) for cp, others in _casefix._EXTRA_CASES.items()}


def fold(text: str) -> str:
    return text.translate(_BEFORE).lower().translate(_AFTER)


class _Unreadable(Exception):
    pass


@functools.cache  # a language's gates repeat the English expressions: each is read once
def stems(pattern: str) -> frozenset[str] | None:
    """Folded strings (`fold`) of which every match of `pattern` (case-insensitive) begins with
    one, or None when they cannot be read from it."""
    found: set[str] = set()

    def walk(stack: tuple[Any, ...], prefix: str) -> None:
        if len(found) > _MAX_STEMS:
            raise _Unreadable
        if len(prefix) >= STEM_LENGTH:
            found.add(prefix)
            return
        if not stack:
            end(prefix)
            return
        items, rest = stack[0], stack[1:]
        if not items:
            walk(rest, prefix)
            return
        (op, av), after = items[0], (items[1:], *rest)
        if op in _ZERO_WIDTH:
            walk(after, prefix)
        elif op is sre.LITERAL:
            walk(after, prefix + fold(chr(av)))
        elif op is sre.SUBPATTERN:
            walk((av[-1], *after), prefix)
        elif op is sre.BRANCH:
            for alternative in av[1]:
                walk((alternative, *after), prefix)
        elif op in _REPEATS:
            low, high, body = av
            if low == 0:
                walk(after, prefix)
            # An optional part is followed by what comes after it; of a longer repeat, what one
            # pass begins with is enough.
            walk((body, *after) if high == 1 else (body,), prefix)
        elif op is sre.IN and all(o is sre.LITERAL for o, _ in av) and len(av) <= 8:
            for _, code in av:
                walk(after, prefix + fold(chr(code)))
        else:
            end(prefix)

    def end(prefix: str) -> None:
        if not prefix:
            raise _Unreadable  # a match may begin with anything
        found.add(prefix)

    try:
        walk((sre_parse.parse(pattern, re.IGNORECASE),), "")
    except _Unreadable:
        return None
    return frozenset(found)


class SignalGate:
    """A category's signal expressions, each tried only when the text holds one of its stems."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self._rules = [(stems(p), re.compile(p, re.IGNORECASE)) for p in patterns]

    @property
    def stems(self) -> frozenset[str]:
        return frozenset(s for found, _ in self._rules if found for s in found)

    def search(self, text: str, present: frozenset[str]) -> bool:
        return any(
            (found is None or not found.isdisjoint(present)) and rx.search(text)
            for found, rx in self._rules
        )


class SignalGates:
    """The gates of several categories and the one automaton over all their stems."""

    def __init__(self, gates: Sequence[tuple[int, SignalGate]]) -> None:
        self.gates = list(gates)
        every = {s for _, gate in self.gates for s in gate.stems}
        self._stems = Stems(every) if every else None

    def matching(self, text: str) -> set[int]:
        """The indices of the categories whose signal words `text` holds."""
        if not text:
            return set()
        present = self._stems.present(fold(text)) if self._stems else frozenset()
        return {index for index, gate in self.gates if gate.search(text, present)}
