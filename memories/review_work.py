"""Whether the Review page has work for the owner, and how much: the one rule behind the Review
link in the menu. Extend `review_work` (e.g. with writes an app must have reviewed) rather than
deciding in a template."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.actors import Actor
from memories.imports import llm_configured
from memories.proposals import proposal_count


@dataclass(frozen=True)
class ReviewWork:
    waiting: int  # items the owner can act on now
    expected: bool  # work can arrive (an LLM extractor proposes changes)

    @property
    def shown(self) -> bool:
        """The menu shows Review only when it has, or can get, work."""
        return self.waiting > 0 or self.expected


def review_work(*, actor: Actor) -> ReviewWork:
    """What waits on the Review page: pending proposals (an LLM extractor makes them)."""
    return ReviewWork(waiting=proposal_count(actor=actor), expected=llm_configured())
