"""Whether an app can open a memory: the consent rule as a caller meets it (a memory it may not
see is not found, never forbidden)."""

from __future__ import annotations

from accounts.actors import Actor
from kernel.errors import NotFound
from memories.categories.vocabulary import SENSITIVE
from memories.models import Memory
from memories.selectors.memories import memory_get
from memories.services import adding


def hidden_from(app: Actor, memory: Memory) -> bool:
    try:
        memory_get(actor=app, memory_id=memory.id, record=False)
    except NotFound:
        return True
    return False


def added_hidden(owner: Actor, app: Actor, text: str, code: str, category: str) -> Memory:
    """The owner writes `text`: read as `code`, labelled `category`, and hidden from `app`."""
    memory = adding.memory_create(actor=owner, text=text).memory
    assert memory.language == code
    assert category in memory.categories
    assert hidden_from(app, memory)
    return memory


def added_ordinary(owner: Actor, app: Actor, text: str, code: str) -> Memory:
    """The owner writes `text`: read as `code`, no sensitive label, and `app` opens it."""
    memory = adding.memory_create(actor=owner, text=text).memory
    assert memory.language == code
    assert not set(memory.categories) & SENSITIVE, memory.categories
    assert not hidden_from(app, memory)
    return memory
