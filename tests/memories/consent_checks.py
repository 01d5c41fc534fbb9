"""Whether an app can open a memory: the consent rule as a caller meets it (a memory it may not
see is not found, never forbidden)."""

from __future__ import annotations

from accounts.actors import Actor
from kernel.errors import NotFound
from memories.models import Memory
from memories.selectors.memories import memory_get


def hidden_from(app: Actor, memory: Memory) -> bool:
    try:
        memory_get(actor=app, memory_id=memory.id, record=False)
    except NotFound:
        return True
    return False
