"""Which sensitive categories a text's signal words show, read in a given language: the rule the
sensitive-language tests check, without storing a memory."""

from __future__ import annotations

from memories.categories.signals import signals_pattern
from memories.categories.vocabulary import DEFAULT_CATEGORIES


def signalled(text: str, code: str) -> set[str]:
    """The sensitive categories whose signal words `text` shows, read as a text in `code`."""
    return {
        c.slug for c in DEFAULT_CATEGORIES if c.sensitive and signals_pattern(c, code).search(text)
    }
