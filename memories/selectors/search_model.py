"""What the owner's Search page shows: the model their memories are searched with, the one they
chose, how far a move to another is, and the languages their memories are in (a person whose
memories are mostly not English is told that the multilingual model finds them better)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection

from accounts.actors import Actor
from kernel.gates import require_owner
from memories import language
from memories.search import moves

# Below this share of memories in English (of those whose language was told), the page suggests
# the multilingual model to a person searched with the English one.
ENGLISH_SHARE_FOR_MINILM = 0.8

_STATE_SQL = f"""
SELECT {moves.LIVE_MODEL_SQL}, coalesce(e.next_model, ''), coalesce(e.chosen, ''),
       (SELECT count(*) FROM memories_memory m WHERE m.owner_id = %(owner)s),
       (SELECT count(*) FROM memories_memory m
        WHERE m.owner_id = %(owner)s AND coalesce(e.next_model, '') <> ''
          AND EXISTS ({moves.staged_sql("e.next_model")}))
FROM (SELECT 1) AS one LEFT JOIN memories_searchmodel e ON e.owner_id = %(owner)s
"""  # noqa: S608 - only constants; values are bound parameters
_LANGUAGES_SQL = """
SELECT m.language, count(*) FROM memories_memory m WHERE m.owner_id = %(owner)s
GROUP BY m.language ORDER BY count(*) DESC, m.language
"""


@dataclass(frozen=True)
class SearchModelState:
    live: str  # the model the owner's memories are searched with now
    moving_to: str  # "" when not moving
    chosen: str  # "" follows the server's model
    server: str  # the server's EMBEDDING_MODEL
    memories: int
    ready: int  # memories already embedded with `moving_to`
    languages: tuple[tuple[str, int], ...]  # (code, memories), most first

    @property
    def english_share(self) -> float | None:
        """Of the memories whose language was told, the share in English (None: none told)."""
        told = [(code, n) for code, n in self.languages if code in language.CLAIMED]
        total = sum(n for _, n in told)
        return sum(n for code, n in told if code == language.ENGLISH) / total if total else None

    @property
    def suggests_multilingual(self) -> bool:
        share = self.english_share
        return share is not None and share < ENGLISH_SHARE_FOR_MINILM


def search_model_state(*, actor: Actor) -> SearchModelState:
    require_owner(actor)
    args: dict[str, Any] = {"owner": actor.user.pk, **moves.live_params()}
    with connection.cursor() as cur:
        cur.execute(_STATE_SQL, args)
        live, moving_to, chosen, memories, ready = cur.fetchone()
        cur.execute(_LANGUAGES_SQL, args)
        languages = tuple((str(code), int(n)) for code, n in cur.fetchall())
    return SearchModelState(
        live=str(live),
        moving_to=str(moving_to),
        chosen=str(chosen),
        server=settings.EMBEDDING_MODEL,
        memories=int(memories),
        ready=int(ready),
        languages=languages,
    )
