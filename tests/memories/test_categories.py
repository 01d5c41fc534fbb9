"""Categories: the local classifier's quality on the held-out set, users' own categories, the
user's choice winning, and the categorize command."""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
import pytest
from django.core.management import call_command
from pytest_django.fixtures import Settings

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import User
from bench.categories import load, load_sensitive, run
from kernel.errors import Conflict, InvalidInput, NotFound, OwnerOnly
from memories import classify, prototypes
from memories.categories.vocabulary import Category
from memories.search.embeddings import Embedder, get_embedder
from memories.selectors.categories import category_list
from memories.selectors.memories import memory_get
from memories.services import adding, changing
from memories.services.categories import category_add, memory_recategorize


def test_the_labelled_set_is_big_enough_and_half_held_out() -> None:
    examples = load()
    heldout = [e for e in examples if e.split == "heldout"]
    assert len(examples) >= 200
    assert 0.45 <= len(heldout) / len(examples) <= 0.55


def test_local_classification_meets_the_bar_on_the_held_out_half() -> None:
    report = run(["heldout"])["heldout"]
    assert report["macro_f1"] >= 0.6, report
    assert report["sensitive_recall"] >= 0.85, report


def test_the_sensitive_set_has_every_topic_in_both_halves() -> None:
    statements = load_sensitive()
    for split in ("dev", "heldout"):
        half = [s for s in statements if s.split == split]
        topics = {s.topic for s in half if s.category}
        assert topics >= {"pregnancy", "therapy", "medication", "debts", "court"}
        assert topics >= {"sexuality", "religion", "politics"}
        assert sum(1 for s in half if s.category) >= 50
        assert sum(1 for s in half if not s.category) >= 25


def test_sensitive_statements_fail_closed_on_the_held_out_half() -> None:
    """Sensitive facts written in varied ways get a sensitive label (so a default-grant app does
    not read them) at least nine times in ten, without hiding more than a quarter of the ordinary
    ones. Measured: recall 0.929, false-sensitive 0.2 (docs/benchmarks.md)."""
    report = run(["heldout"])["heldout"]["sensitive_set"]
    assert report["recall_any"] >= 0.9, report
    assert report["false_sensitive"] <= 0.25, report


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    [
        "Alice had an abortion in March 2024",
        "Alice is pregnant",
        "Alice sees a therapist every Tuesday",
    ],
)
def test_a_default_grant_app_does_not_read_the_sensitive_facts_the_review_found(
    owner: User, owner_dash: Actor, text: str
) -> None:
    memory = adding.memory_create(actor=owner_dash, text=text).memory
    assert "health" in memory.categories
    app = actor_for(owner, stdio_app(owner, "cursor"))  # the default grant: nothing sensitive
    with pytest.raises(NotFound):
        memory_get(actor=app, memory_id=memory.id)


@pytest.mark.django_db
def test_a_user_category_is_listed_and_learned_by_the_classifier(owner_dash: Actor) -> None:
    category_add(
        actor=owner_dash,
        slug="beekeeping",
        description="Bees, beehives, honey harvests and beekeeping equipment.",
    )
    assert "beekeeping" in [c.slug for c in category_list(actor=owner_dash) if c.custom]
    memory = adding.memory_create(actor=owner_dash, text="My beehives gave 12 kg of honey").memory
    assert "beekeeping" in memory.categories


@pytest.mark.django_db
def test_adding_a_category_is_validated(owner_dash: Actor) -> None:
    with pytest.raises(Conflict):
        category_add(actor=owner_dash, slug="Health", description="Mine.")
    with pytest.raises(InvalidInput):
        category_add(actor=owner_dash, slug="!!!", description="x")
    with pytest.raises(InvalidInput):
        category_add(actor=owner_dash, slug="pets", description="x" * 301)
    assert category_add(actor=owner_dash, slug="My Pets!", description="Pets.").category.slug == (
        "my-pets"
    )
    with pytest.raises(Conflict):
        category_add(actor=owner_dash, slug="my pets", description="Again.")


@pytest.mark.django_db
def test_an_app_cannot_add_categories(owner: User) -> None:
    app = actor_for(owner, stdio_app(owner, "cursor"))
    with pytest.raises(OwnerOnly):
        category_add(actor=app, slug="pets", description="Pets.")


@pytest.mark.django_db
def test_a_sensitive_user_category_stays_out_of_an_apps_grant(
    owner: User, owner_dash: Actor
) -> None:
    category_add(actor=owner_dash, slug="fertility", description="IVF.", sensitive=True)
    memory = adding.memory_create(
        actor=owner_dash, text="Second IVF round in May", categories=["fertility"]
    ).memory
    app = stdio_app(owner, "cursor")
    with pytest.raises(NotFound):
        memory_get(actor=actor_for(owner, app), memory_id=memory.id)
    app.categories = ["fertility"]
    app.save()
    assert memory_get(actor=actor_for(owner, app), memory_id=memory.id).id == memory.id


@pytest.mark.django_db
def test_the_users_choice_wins_over_a_later_automatic_pass(owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="I'm allergic to penicillin").memory
    changing.memory_set_categories(actor=owner_dash, memory_id=memory.id, categories=["travel"])
    memory_recategorize(actor=owner_dash, all_memories=True)
    memory.refresh_from_db()
    assert memory.categories == ["travel"]


@pytest.mark.django_db
def test_categorize_command_classifies_uncategorised_memories(
    owner: User, owner_dash: Actor, settings: Settings
) -> None:
    settings.AUTO_CATEGORIZE = False
    memory = adding.memory_create(actor=owner_dash, text="I have type 1 diabetes").memory
    assert memory.categories == []
    out, err = io.StringIO(), io.StringIO()
    call_command("categorize", user=owner.email, stdout=out, stderr=err)
    memory.refresh_from_db()
    assert "health" in memory.categories
    assert "Updated the categories of 1 memories." in out.getvalue()
    assert "1/1" in err.getvalue()
    # Without --all, automatic labels already there are left as they are.
    adding.memory_create(actor=owner_dash, text="I play chess", categories=[])
    call_command("categorize", user=owner.email, stdout=io.StringIO(), stderr=io.StringIO())
    memory.refresh_from_db()
    assert "health" in memory.categories


@pytest.mark.django_db
def test_automatic_labels_follow_an_edited_text_but_the_users_choice_stays(
    owner_dash: Actor,
) -> None:
    auto = adding.memory_create(actor=owner_dash, text="I play chess on Sundays").memory
    changing.memory_update(actor=owner_dash, memory_id=auto.id, text="I take insulin for diabetes")
    auto.refresh_from_db()
    assert "health" in auto.categories
    chosen = adding.memory_create(
        actor=owner_dash, text="I play go on Sundays", categories=["hobbies"]
    ).memory
    changing.memory_update(actor=owner_dash, memory_id=chosen.id, text="I take insulin daily")
    chosen.refresh_from_db()
    assert chosen.categories == ["hobbies"]


def test_a_users_own_category_costs_the_classifier_only_its_own_texts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    classify.classifier_for()  # the default vocabulary, as warmed up at start
    embedded: list[str] = []
    real_embed = Embedder.embed

    def counting(self: Embedder, texts: Sequence[str]) -> list[np.ndarray]:
        embedded.extend(texts)
        return real_embed(self, texts)

    monkeypatch.setattr(Embedder, "embed", counting)
    mine = Category("boats", "Sailing, my boat, moorings and regattas.", False)
    built = classify.classifier_for([mine])
    assert embedded == [mine.description]
    assert "boats" in built.classify(get_embedder().embed(["I race my dinghy on Sundays"]))[0]


def test_the_default_prototypes_are_embedded_once_per_data_folder_and_no_user_category_is_kept(
    settings: Settings, tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.HOME = tmp_path
    embedded: list[str] = []
    real_embed = Embedder.embed

    def counting(self: Embedder, texts: Sequence[str]) -> list[np.ndarray]:
        embedded.extend(texts)
        return real_embed(self, texts)

    def new_process() -> None:  # nothing embedded or built in memory yet
        monkeypatch.setattr(prototypes, "_vectors", {})
        monkeypatch.setattr(classify, "_cache", {})
        embedded.clear()

    monkeypatch.setattr(Embedder, "embed", counting)
    new_process()
    first = classify.classifier_for()._prototypes
    assert len(embedded) > 50, "the first start embeds the default vocabulary"
    stored = sorted((settings.HOME / "models").glob("prototypes-*.npy"))
    assert len(stored) == 1

    new_process()  # on the same data folder: nothing embedded, the same vectors
    again = classify.classifier_for()._prototypes
    assert embedded == []
    assert np.array_equal(first, again)

    new_process()  # a user's own category is embedded in memory only, never kept on disk
    mine = Category("zephyr", "The Zephyr merger nobody may know about", examples=("Zephyr deal",))
    classify.classifier_for([mine])
    assert embedded == ["The Zephyr merger nobody may know about", "Zephyr deal"]
    assert sorted((settings.HOME / "models").glob("prototypes-*.npy")) == stored
