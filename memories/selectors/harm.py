"""The memories the store's check holds until the owner decides (memories/services/harm_check.py):
what the Review page's Check section and `manage.py harm_check` list. Owner-only."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.actors import Actor
from kernel.gates import SCOPE_READ, require_owner
from memories.harm.screen import screen
from memories.models import Memory


@dataclass(frozen=True)
class HeldMemory:
    memory: Memory
    kind: str  # "credential" or "instruction"
    why: str  # what was found, in words
    redacted: str  # the text with its credentials withheld (the text itself for an instruction)


def held_memories(*, actor: Actor, limit: int = 200) -> list[HeldMemory]:
    """The owner's memories the check holds, newest first, each with what was found."""
    require_owner(actor, SCOPE_READ)
    rows = (
        Memory.objects.filter(owner=actor.user)
        .exclude(harm_hold="")
        .defer("embedding", "tsv")
        .order_by("-created_at", "-id")[:limit]
    )
    out = []
    for memory in rows:
        s = screen(memory.text)
        if memory.harm_hold == "credential":
            why = f"It holds {s.what() or 'a credential'}."
        else:
            why = f"It reads as an instruction to AI assistants: {s.why or 'it addresses them'}."
        out.append(HeldMemory(memory, memory.harm_hold, why, s.redacted))
    return out


def held_count(*, actor: Actor) -> int:
    require_owner(actor, SCOPE_READ)
    return Memory.objects.filter(owner=actor.user).exclude(harm_hold="").count()
