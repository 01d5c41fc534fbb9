"""The owner's labels are the owner's (`memories/ownership.py`) on the paths that are not a
front door of their own: bulk changes, automatic re-classification, the one supersede path and
deferred extraction. The doors themselves: tests/api/test_memories_owner_labels.py (REST),
tests/mcpbridge/test_owner_rule.py (MCP), tests/e2e/test_owner_controls_browser.py."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import User
from activity.models import AccessEvent
from kernel.errors import OwnersChoice
from memories.models import Memory, MemoryVersion
from memories.ownership import check_relabel, protected_categories, reclassified
from memories.selectors.memories import memory_list
from memories.services import adding, changing, remember
from memories.services.categories import category_add, memory_recategorize
from tests.memories.fake_llm import Brain

pytestmark = pytest.mark.django_db

HEALTH = "Alice was treated for depression in 2023"


def _app(owner: User, name: str = "cursor", **grant: object) -> Actor:
    app = stdio_app(owner, name)
    for key, value in grant.items():
        setattr(app, key, value)
    app.save()
    return actor_for(owner, app)


def test_what_an_app_may_not_remove_follows_who_wrote_and_who_labelled(
    owner: User, owner_dash: Actor
) -> None:
    category_add(actor=owner_dash, slug="fertility", description="IVF.", sensitive=True)
    app = _app(owner, categories=["health", "fertility"])
    own = adding.memory_create(
        actor=app, text="Second IVF round in May", categories=["fertility", "schedule"]
    ).memory
    theirs = adding.memory_create(actor=owner_dash, text="Collects vintage stamps").memory
    labelled = adding.memory_create(actor=owner_dash, text="Plays chess", categories=["x"])
    # The classifier's guard added health to the app's own choice (see the test below).
    assert own.categories == ["fertility", "schedule", "health"]
    assert protected_categories(app, own) == {"fertility", "health"}  # the sensitive ones
    assert protected_categories(app, theirs) == set(theirs.categories)
    assert protected_categories(app, labelled.memory) == {"x"}
    assert protected_categories(owner_dash, labelled.memory) == set()
    check_relabel(app, own, ["fertility", "health"])  # removing its own non-sensitive label
    with pytest.raises(OwnersChoice, match="Fertility is a sensitive category"):
        check_relabel(app, own, ["schedule", "health"])
    assert reclassified(app, own, ["hobbies"]) == ["hobbies", "fertility", "health"]
    assert reclassified(owner_dash, own, ["hobbies"]) == ["hobbies"]
    assert reclassified(app, labelled.memory, ["hobbies"]) == ["x"]


def test_a_bulk_relabel_by_an_app_is_all_or_nothing(owner: User, owner_dash: Actor) -> None:
    app = _app(owner, categories=["health"])
    own = adding.memory_create(actor=app, text="Plays the guitar in a band").memory
    owners = adding.memory_create(actor=owner_dash, text=HEALTH, categories=["health"]).memory
    with pytest.raises(OwnersChoice, match="the owner chose this memory's categories"):
        changing.memory_set_categories_many(
            actor=app, memory_ids=[own.id, owners.id], categories=["music"]
        )
    own.refresh_from_db()
    owners.refresh_from_db()
    assert (own.categories, owners.categories) == (["hobbies"], ["health"])


def test_an_automatic_pass_run_by_an_app_keeps_the_sensitive_labels(
    owner: User, settings: object
) -> None:
    app = _app(owner, categories=["health"])
    memory = adding.memory_create(actor=app, text=HEALTH).memory
    assert memory.categories == ["health"]
    # As if the text had changed without a pass: no vector yet, so the pass embeds it anew.
    Memory.objects.filter(owner=owner, pk=memory.pk).update(
        text="Plays the guitar in a band", embedding=None
    )
    assert memory_recategorize(actor=app, all_memories=True) == 1
    memory.refresh_from_db()
    assert memory.categories == ["hobbies", "health"]
    assert memory.changed_by_name == "cursor"


def test_deferred_extraction_supersedes_through_the_one_path_with_its_event(
    owner: User, owner_dash: Actor, fake_provider: Brain
) -> None:
    """Measured: `_retire` set `superseded_by` and wrote a version with no access event."""
    fake_provider.mode = "down"
    raw = remember.memory_remember(actor=owner_dash, text="I moved from Berlin to Lisbon")
    raw_memory = raw.results[0].memory
    fake_provider.mode = "ok"
    fake_provider.facts = {"Lisbon": ["Lives in Lisbon"]}
    call_command("extract_pending", user=owner.email, stdout=io.StringIO(), stderr=io.StringIO())
    lisbon = Memory.objects.get(owner=owner, text="Lives in Lisbon")
    raw_memory.refresh_from_db()
    assert raw_memory.superseded_by_id == lisbon.id
    assert raw_memory.metadata["needs_extraction"] is False
    assert raw_memory.changed_by_name == "cli"
    version = MemoryVersion.objects.get(memory=lisbon)
    assert (version.kind, version.text) == ("supersede", "I moved from Berlin to Lisbon")
    event = AccessEvent.objects.get(owner=owner, detail__superseded=str(raw_memory.id))
    assert (event.action, event.app_name) == ("update", "cli")
    assert event.memory_ids == [raw_memory.id, lisbon.id]


def test_an_apps_own_label_does_not_carry_sensitive_text_past_the_classifier(
    owner: User, owner_dash: Actor
) -> None:
    writer = _app(owner, "writer")
    reader = _app(owner, "reader")
    filed = adding.memory_create(actor=writer, text=HEALTH, categories=["hobbies"]).memory
    assert filed.categories == ["hobbies", "health"]
    assert Memory.objects.get(owner=owner, pk=filed.pk).categories == ["hobbies", "health"]
    assert HEALTH in {m.text for m in memory_list(actor=writer, record=False).items}
    assert HEALTH not in {m.text for m in memory_list(actor=reader, record=False).items}
    # The owner's own label is the owner's choice: no sensitive label is added to it.
    mine = adding.memory_create(
        actor=owner_dash, text="Bob was treated for depression in 2021", categories=["hobbies"]
    ).memory
    assert mine.categories == ["hobbies"]
