"""Whether the Review page has work for the owner, and how much: the one rule behind the Review
link in the menu. Extend `review_work` (e.g. with writes an app must have reviewed) rather than
deciding in a template."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.actors import Actor
from accounts.selectors import any_app_reviewed
from memories.extraction.llm import llm_configured
from memories.selectors.harm import held_count
from memories.selectors.proposals import proposal_count


@dataclass(frozen=True)
class ReviewWork:
    waiting: int  # items the owner can act on now
    expected: bool  # work can arrive (an LLM extractor proposes, or an app's changes wait)

    @property
    def shown(self) -> bool:
        """The menu shows Review only when it has, or can get, work."""
        return self.waiting > 0 or self.expected


def review_work(*, actor: Actor) -> ReviewWork:
    """What waits on the Review page: pending proposals, made by an LLM extractor, held from an
    app whose changes the owner reviews first or held because they instruct assistants, and the
    memories the store's check holds (memories/services/harm.py)."""
    expected = llm_configured() or any_app_reviewed(actor=actor)
    waiting = proposal_count(actor=actor) + held_count(actor=actor)
    return ReviewWork(waiting=waiting, expected=expected)
