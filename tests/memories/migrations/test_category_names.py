"""Migration `usercategory_names` on a store written before names were folded: labels folded, and
every label in use made one of the owner's categories (sensitive-looking ones sensitive)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import ConnectedApp, User
from memories.models import Memory, UserCategory
from memories.selectors import memories as memory_reads
from memories.services import adding

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("memories.migrations.0014_usercategory_names")


def _labelled(actor: Actor, text: str, labels: list[str]) -> Memory:
    """A memory carrying labels as an older version stored them (not folded)."""
    memory = adding.memory_create(actor=actor, text=text).memory
    with connection.cursor() as cur:
        cur.execute(
            "UPDATE memories_memory SET categories = %s::varchar[] WHERE id = %s",
            [labels, memory.id],
        )
    return memory


def test_labels_are_folded_and_each_becomes_a_category_of_its_owner(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    attack = _labelled(
        owner_dash, "Alice was treated for depression", ["\uff48\uff45\uff41\uff4c\uff54\uff48"]
    )
    mixed = _labelled(owner_dash, "Alice's son plays chess", ["Kids", "kids", "hobbies"])
    medical = _labelled(owner_dash, "Alice's blood test", ["medical"])
    _labelled(stranger_dash, "Bob's dog", ["Pets"])
    UserCategory.objects.create(owner=owner, slug="garden", description="Plants.")
    app = actor_for(owner, stdio_app(owner, "Cursor"))
    assert {m.text for m in memory_reads.memory_list(actor=app, record=False).items} >= {
        attack.text,
        medical.text,
    }, "before: the look-alike and the new name leak"

    MIGRATION.forwards(apps, SimpleNamespace(connection=connection))

    for memory, labels in (
        (attack, ["health"]),
        (mixed, ["kids", "hobbies"]),
        (medical, ["medical"]),
    ):
        memory.refresh_from_db()
        assert memory.categories == labels
    rows = {(r.owner_id, r.slug): r for r in UserCategory.objects.all()}
    assert set(rows) == {
        (owner.pk, "kids"),
        (owner.pk, "medical"),
        (owner.pk, "garden"),
        (stranger.pk, "pets"),
    }
    assert rows[(owner.pk, "medical")].sensitive and not rows[(owner.pk, "kids")].sensitive
    assert rows[(owner.pk, "kids")].reviewed_at is None  # its notice shows
    assert rows[(owner.pk, "garden")].description == "Plants."  # left as it was
    seen = {m.text for m in memory_reads.memory_list(actor=app, record=False).items}
    assert attack.text not in seen and medical.text not in seen and mixed.text in seen
    # Run again (a second node, a retried deploy): nothing changes.
    MIGRATION.forwards(apps, SimpleNamespace(connection=connection))
    assert UserCategory.objects.count() == 4


def test_the_vocabulary_and_the_grants_are_folded_too(owner: User, owner_dash: Actor) -> None:
    """Names the old rule allowed ("diary-", "a--b") are folded with their memories' labels, so
    a sensitive category keeps its mark and its grants, and stays hidden."""
    UserCategory.objects.create(owner=owner, slug="diary-", description="", sensitive=True)
    UserCategory.objects.create(owner=owner, slug="diary", description="")  # folds onto it
    UserCategory.objects.create(owner=owner, slug="a--b", description="")
    secret = _labelled(owner_dash, "Alice wrote about her panic", ["diary-"])
    app = stdio_app(owner, "Cursor")
    ConnectedApp.objects.filter(pk=app.pk).update(
        categories=["a--b", "Diary"], hidden_categories=["diary-"]
    )

    MIGRATION.forwards(apps, SimpleNamespace(connection=connection))

    assert dict(UserCategory.objects.filter(owner=owner).values_list("slug", "sensitive")) == {
        "diary": True,
        "a-b": False,
    }
    secret.refresh_from_db()
    assert secret.categories == ["diary"]
    app.refresh_from_db()
    assert (app.categories, app.hidden_categories) == (["a-b"], ["diary"])
    seen = memory_reads.memory_list(actor=actor_for(owner, app), record=False).items
    assert secret.id not in {m.id for m in seen}
