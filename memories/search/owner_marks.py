"""The owner's category marks (slug, sensitive) as this process last read them, per database and
owner. Why: an app's search builds its consent fragment from them without a statement of its own,
and its first statement reads them again (`UserSearch.marks`); when they changed in between, the
search ranks once more with the fresh ones, so a search never ranks with marks older than its own
read. The owner's own apps need no marks (they see every category)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection

from memories.search.scoring import UserSearch

Marks = tuple[tuple[str, bool], ...]

_remembered: dict[tuple[str, int], Marks] = {}
_REMEMBERED = 4096


def ranked(
    owner_id: int, *, owner_app: bool, rank: Callable[[Marks | None], UserSearch]
) -> UserSearch:
    """`rank(marks)` with the marks this process remembers for the owner (None: none, or the
    owner's own app: the consent fragment reads them itself); when the search's own read of them
    differs, `rank(None)` once more. The marks the search read are remembered."""
    key = (str(connection.settings_dict["NAME"]), owner_id)
    remembered = None if owner_app else _remembered.get(key)
    ranking = rank(remembered)
    if remembered is not None and ranking.marks != remembered:
        ranking = rank(None)  # changed since remembered: read afresh, as without a memory
    _remember(key, ranking.marks)
    return ranking


def _remember(key: tuple[str, int], marks: Marks) -> None:
    if _remembered.get(key) != marks:
        if len(_remembered) >= _REMEMBERED:
            _remembered.clear()
        _remembered[key] = marks
