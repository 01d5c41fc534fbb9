"""What the local extractor knows of a language other than English (`Language`), and the helpers
its patterns are written with: one home for both, so every family's module builds its patterns the
same way (memories/extraction/languages/)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    code: str
    self_statement: re.Pattern[str]  # the writer speaks of themselves
    request: re.Pattern[str]  # a request or question without its mark
    temporary: re.Pattern[str]  # a state of the moment
    hypothetical: re.Pattern[str]  # "if I were", "imagine", "my boss says"
    roleplay: re.Pattern[str]  # "play a rude waiter": the whole message is a game
    # A first person said by the verb alone, where the language drops the pronoun ("Trabajo en
    # una farmacia", "Работаю программистом", "Wohne in einem Dorf", "一直对花生过敏"): the
    # verb's person ending, or a predicate opening a clause that has no subject.
    pro_drop: re.Pattern[str] | None = None
    # The writer's colleague, neighbour or boss as a clause's subject: their doings, not the
    # writer's ("Ma voisine fait du yoga", "我同事每天喝五杯咖啡").
    someone_else: re.Pattern[str] | None = None


def words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w'’])(?:" + "|".join(alternatives) + r")(?![\w'’])", re.I)


def chars(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives))


# Where a clause opens: the text's start, after a sentence or comma mark, or after "and"/"but".
_OPENS = r"(?:^|[.!?¡¿,;:\n\u2013\u2014]\s*|\s(?:y|e|pero|mas|und|aber|doch|и|а|но)\s+)"


def opening(
    verb: str, *, before: str = "", stop: tuple[str, ...] = (), not_then: str = ""
) -> re.Pattern[str]:
    """`verb` (a word pattern) opening a clause, after words matching `before` (adverbs, "no"),
    and not one of the words in `stop` (function words and nouns that share its ending, and
    verbs of the moment: "Quiero saber…", "Не знаю, как…" say nothing lasting), nor followed
    by a word matching `not_then` (what follows a noun, not a verb: "Dinero no hay")."""
    avoid = rf"(?!(?:{'|'.join(stop)})(?![\w'’]))" if stop else ""
    then = rf"(?!\s+(?:{not_then})(?![\w'’]))" if not_then else ""
    return re.compile(rf"{_OPENS}(?:(?:{before})\s+)*{avoid}{verb}(?![\w'’]){then}", re.I | re.M)
