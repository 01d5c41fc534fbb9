"""English for counts and lists, once, for every entry point: "1 memory", "3 memories",
"Claude, Cursor and Zed", "Health or Food"."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.text import get_text_list


def n_memories(n: int) -> str:
    """'1 memory', '3 memories'."""
    return f"{n} memor{'y' if n == 1 else 'ies'}"


def and_list(words: Sequence[str], joiner: str = "and") -> str:
    """ "Claude", "Claude and Cursor", "Claude, Cursor and Zed" (or another joiner)."""
    return str(get_text_list(list(words), joiner))


def category_label(slug: str) -> str:
    """A category slug in words: "side-projects" -> "Side projects"."""
    return slug.replace("-", " ").capitalize()


def category_names(slugs: Iterable[str], joiner: str = "and") -> str:
    """ "Health", "Health and Finance", "Food, Health and Work": category slugs in words."""
    return and_list([category_label(s) for s in sorted(set(slugs))], joiner)
