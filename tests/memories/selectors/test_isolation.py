"""Another user's memory is indistinguishable from a missing one, through every selector."""

import uuid

import pytest

from accounts.actors import Actor
from kernel.errors import NotFound
from memories.selectors.memories import memory_get, memory_list, memory_search, memory_versions
from memories.services import adding, changing, deleting

pytestmark = pytest.mark.django_db


def _error_for(callable_, **kwargs):  # type: ignore[no-untyped-def]
    with pytest.raises(NotFound) as err:
        callable_(**kwargs)
    return type(err.value), str(err.value)


def test_stranger_never_sees_owner_memories(owner_dash: Actor, stranger_dash: Actor) -> None:
    mine = adding.memory_create(actor=owner_dash, text="My bank PIN hint is the cat").memory
    assert memory_list(actor=stranger_dash).items == []
    assert memory_search(actor=stranger_dash, query="bank PIN hint cat") == []
    theirs = _error_for(memory_get, actor=stranger_dash, memory_id=mine.id)
    random = _error_for(memory_get, actor=stranger_dash, memory_id=uuid.uuid4())
    malformed = _error_for(memory_get, actor=stranger_dash, memory_id="not-a-uuid")
    assert theirs == random == malformed


@pytest.mark.parametrize(
    "write",
    [
        lambda a, mid: changing.memory_update(actor=a, memory_id=mid, text="hijacked"),
        lambda a, mid: deleting.memory_delete(actor=a, memory_id=mid),
        lambda a, mid: changing.memory_set_state(actor=a, memory_ids=[mid], state="archived"),
        lambda a, mid: changing.memory_set_categories(actor=a, memory_id=mid, categories=["work"]),
        lambda a, mid: memory_versions(actor=a, memory_id=mid),
    ],
)
def test_stranger_cannot_touch_owner_memory(owner_dash: Actor, stranger_dash: Actor, write) -> None:  # type: ignore[no-untyped-def]
    mine = adding.memory_create(actor=owner_dash, text="Private fact about me").memory
    with pytest.raises(NotFound) as theirs:
        write(stranger_dash, mine.id)
    with pytest.raises(NotFound) as random:
        write(stranger_dash, uuid.uuid4())
    assert str(theirs.value) == str(random.value)
    mine.refresh_from_db()
    assert mine.text == "Private fact about me" and mine.state == "active"


def test_delete_all_only_touches_own_memories(owner_dash: Actor, stranger_dash: Actor) -> None:
    adding.memory_create(actor=owner_dash, text="Owner fact")
    adding.memory_create(actor=stranger_dash, text="Stranger fact")
    assert deleting.memory_delete_all(actor=stranger_dash) == 1
    assert [m.text for m in memory_list(actor=owner_dash).items] == ["Owner fact"]
