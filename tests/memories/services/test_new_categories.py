"""Names at every write: folded to one form before lookup, and a name new to the owner's
vocabulary becomes one of their own categories with the first memory filed under it, sensitive
from the start when it means a sensitive category (issue 24 item 12; issue 23 item 4)."""

from __future__ import annotations

import pytest

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import User
from activity.models import AccessEvent
from kernel.errors import Conflict, InvalidInput, OwnersChoice
from memories.categories.signals import sensitive_meaning
from memories.models import Memory, UserCategory
from memories.selectors import memories as memory_reads
from memories.selectors.grants import category_notices, known_categories
from memories.services import adding, changing, remember
from memories.services.categories import categories_lock, name_meaning
from memories.services.import_check import import_app
from tests.personas import issue_token

FULLWIDTH_HEALTH = "\uff48\uff45\uff41\uff4c\uff54\uff48"

pytestmark = pytest.mark.django_db


@pytest.fixture
def cursor(owner: User) -> Actor:
    """An app with the default grant (every category but the sensitive ones)."""
    return actor_for(owner, stdio_app(owner, "Cursor"))


def _sees(app: Actor, text: str) -> bool:
    listed = {m.text for m in memory_reads.memory_list(actor=app, record=False).items}
    found = {
        h.memory.text
        for h in memory_reads.memory_search(actor=app, query=text, min_score=0, record=False)
    }
    assert (text in listed) == (text in found), "list and search disagree"
    return text in listed


def test_a_fullwidth_health_from_an_app_is_health_and_gets_healths_answer(
    owner: User, cursor: Actor
) -> None:
    """The attack of issue 24 item 12: the look-alike is not a new, shared category."""
    plain = adding.memory_create(actor=cursor, text="Alice takes sertraline", categories=["health"])
    look_alike = adding.memory_create(
        actor=cursor, text="Alice sees a therapist", categories=[FULLWIDTH_HEALTH]
    )
    assert plain.memory.categories == look_alike.memory.categories == ["health"]
    notes = [changing.readback_note(cursor, [r.memory]) for r in (plain, look_alike)]
    assert notes[0] == notes[1] != ""
    assert not UserCategory.objects.filter(owner=owner).exists()
    other = actor_for(owner, stdio_app(owner, "Claude Desktop"))
    assert not _sees(other, "Alice takes sertraline")
    assert not _sees(other, "Alice sees a therapist")


def test_an_app_granted_health_files_the_look_alike_under_health(owner: User) -> None:
    issued = issue_token(owner, name="Health coach", categories="health")
    coach = actor_for(owner, issued.token.app)
    memory = adding.memory_create(
        actor=coach, text="Alice takes sertraline", categories=[f" {FULLWIDTH_HEALTH.upper()} "]
    ).memory
    assert memory.categories == ["health"]
    assert not UserCategory.objects.filter(owner=owner).exists()


@pytest.mark.parametrize("name", ["Medical", "my therapy", "Court case", "Doctor visits"])
def test_a_new_name_that_means_a_sensitive_category_starts_sensitive_for_an_app_not_granted_it(
    owner: User, cursor: Actor, name: str
) -> None:
    memory = adding.memory_create(
        actor=cursor, text="Alice saw a specialist", categories=[name]
    ).memory
    (row,) = UserCategory.objects.filter(owner=owner)
    assert row.sensitive and memory.categories[0] == row.slug  # (the guard may add health)
    assert _sees(cursor, "Alice saw a specialist")  # an app reads back what it wrote
    other = actor_for(owner, stdio_app(owner, "Claude Desktop"))
    assert not _sees(other, "Alice saw a specialist")


def test_a_new_shared_name_from_an_app_becomes_a_category_of_the_owner_with_a_notice(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    memory = adding.memory_create(
        actor=cursor, text="Alice's son plays chess", categories=["Kids"]
    ).memory
    assert memory.categories == ["kids"]
    row = UserCategory.objects.get(owner=owner, slug="kids")
    assert (row.sensitive, row.created_by, row.description, row.reviewed_at) == (
        False,
        "Cursor",
        "",
        None,
    )
    assert "kids" in [c.slug for c in known_categories(owner)]  # the consent page lists it
    (notice,) = category_notices(actor=owner_dash)
    assert (notice.slug, notice.memories, [a.name for a in notice.seen_by]) == (
        "kids",
        1,
        ["Cursor"],
    )


def test_the_owner_typing_a_sensitive_looking_name_starts_it_sensitive(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    result = remember.memory_remember(
        actor=owner_dash, text="Alice's blood test is on Monday", categories=["Medical notes"]
    )
    assert result.results[0].memory.categories == ["medical-notes"]
    assert UserCategory.objects.get(owner=owner, slug="medical-notes").sensitive
    assert not _sees(cursor, "Alice's blood test is on Monday")
    # The owner's "kids" is shared, as the consent page promised, and says so.
    remember.memory_remember(actor=owner_dash, text="Alice's son is nine", categories=["kids"])
    assert _sees(cursor, "Alice's son is nine")
    notices = {n.slug: n for n in category_notices(actor=owner_dash)}
    assert set(notices) == {"medical-notes", "kids"}
    assert notices["kids"].seen_by and not notices["medical-notes"].seen_by


def test_a_duplicate_under_a_new_name_leaves_no_empty_category(
    owner: User, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Alice likes chess", categories=["hobbies"])
    again = adding.memory_create(actor=owner_dash, text="Alice likes chess", categories=["Games"])
    assert not again.created
    assert not UserCategory.objects.filter(owner=owner, slug="games").exists()


def test_setting_categories_names_new_ones_too_and_is_atomic(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    memory = adding.memory_create(
        actor=cursor, text="Alice runs along the river", categories=["hobbies"]
    ).memory
    with pytest.raises(OwnersChoice, match="not granted Diagnosis"):
        changing.memory_set_categories(
            actor=cursor, memory_id=memory.id, categories=["hobbies", "sport", "diagnosis"]
        )
    assert not UserCategory.objects.filter(owner=owner).exists()
    changing.memory_set_categories(actor=owner_dash, memory_id=memory.id, categories=["Sport!"])
    memory.refresh_from_db()
    assert memory.categories == ["sport"]
    assert UserCategory.objects.get(owner=owner, slug="sport").created_by == "dashboard"


def test_a_name_mixing_alphabets_is_refused_at_every_write(owner: User, cursor: Actor) -> None:
    with pytest.raises(InvalidInput, match="mixes"):
        adding.memory_create(actor=cursor, text="Alice", categories=["\u04bb\u0435alth"])
    with pytest.raises(InvalidInput, match="mixes"):
        remember.memory_remember(actor=cursor, text="Alice", categories=["h\u03b5alth"])


def test_filters_fold_the_name_too(owner_dash: Actor) -> None:
    adding.memory_create(actor=owner_dash, text="Alice works at Acme", categories=["work"])
    wide = "\uff37\uff2f\uff32\uff2b"  # "WORK", fullwidth
    listed = memory_reads.memory_list(
        actor=owner_dash, filters=memory_reads.MemoryFilters(category=wide), record=False
    )
    assert [m.text for m in listed.items] == ["Alice works at Acme"]
    found = memory_reads.memory_search(actor=owner_dash, query="Acme", category=wide, record=False)
    assert [h.memory.text for h in found] == ["Alice works at Acme"]


@pytest.mark.parametrize(
    ("name", "means"),
    [
        ("medical", "health"),
        ("my-therapy", "health"),
        ("antidepressants", "health"),
        ("salary", "finance"),
        ("church", "religion"),
        ("voting", "politics"),
        ("sex", "sexuality"),
        ("immigration", "legal"),
        ("kids", None),
        ("recipes", None),
        ("work-trips", None),
    ],
)
def test_what_a_new_name_means(owner: User, name: str, means: str | None) -> None:
    assert name_meaning(owner, name) == means


def test_the_classifier_reads_a_name_the_word_list_does_not_know(owner: User) -> None:
    assert sensitive_meaning("hiv-clinic-visits") == "health"  # by a signal word
    assert sensitive_meaning("bipolar") == "health"
    assert sensitive_meaning("mortgage-stuff") == "finance"
    assert sensitive_meaning("gesundheit") == "health"
    # No word of the vocabulary: the embedding classifier decides, failing closed.
    assert sensitive_meaning("pills-and-doses") == "health"
    assert sensitive_meaning("sleep") is None
    assert name_meaning(owner, "sleep") == "health"


def test_an_import_files_under_any_name_it_carries(owner: User) -> None:
    importer = actor_for(owner, import_app(owner, "contextlayer"))
    memory = adding.memory_create(
        actor=importer, text="Alice had IVF in 2024", categories=["fertility"]
    ).memory
    assert memory.categories == ["fertility"]
    assert UserCategory.objects.get(owner=owner, slug="fertility").sensitive


def test_a_write_under_a_category_that_went_away_is_refused(owner: User, owner_dash: Actor) -> None:
    """What a write finds once it holds the owner's categories (memories/services/categories.py):
    a name that a rename, merge or delete took away meanwhile is reported, never stored."""
    adding.memory_create(actor=owner_dash, text="Alice's son", categories=["kids"])
    assert categories_lock(owner_dash, ["kids", "work"]) == set()
    UserCategory.objects.filter(owner=owner, slug="kids").delete()
    assert categories_lock(owner_dash, ["kids", "work"]) == {"kids"}


def test_every_write_names_its_memories_in_the_access_log(owner: User, cursor: Actor) -> None:
    memory = adding.memory_create(actor=cursor, text="Alice's son", categories=["kids"]).memory
    event = AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.ADD).get()
    assert event.memory_ids == [memory.id]


def test_a_delete_between_the_check_and_the_write_refuses_the_write(
    owner: User, cursor: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The category goes after the write checked its names and before it holds them (where a
    concurrent delete commits): the write is refused, not stored under a name no one knows."""
    adding.memory_create(actor=cursor, text="Alice's son", categories=["kids"])

    def after_a_delete(actor: Actor, labels: object) -> set[str]:
        UserCategory.objects.filter(owner=owner, slug="kids").delete()
        return categories_lock(actor, labels)  # type: ignore[arg-type]

    monkeypatch.setattr("memories.services.categories.categories_lock", after_a_delete)
    with pytest.raises(Conflict, match="categories changed"):
        adding.memory_create(actor=cursor, text="Alice's daughter", categories=["kids"])
    assert not Memory.objects.filter(owner=owner, text="Alice's daughter").exists()
