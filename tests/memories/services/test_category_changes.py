"""The owner's changes to their categories (memories/services/category_changes.py): every reference
moves in one transaction, nothing an app could not see becomes visible to it, only the owner may
change them, and another user's categories are not there."""

from __future__ import annotations

import pytest
from allauth.idp.oidc.models import Client, Token

from accounts.actors import Actor, actor_for, owner_actor, stdio_app
from accounts.models import ConnectedApp, User
from accounts.services import PENDING_GRANT, Grant
from activity.models import AccessEvent
from kernel.errors import Conflict, InvalidInput, NotFound, OwnerOnly
from memories.models import Memory, UserCategory
from memories.selectors import memories as memory_reads
from memories.selectors.grants import category_notices, category_overview, known_categories
from memories.services import adding, changing, marks
from memories.services.categories import category_add
from memories.services.category_changes import (
    category_delete,
    category_merge,
    category_reviewed,
    category_update,
    merged_grant,
)
from tests.personas import issue_token

pytestmark = pytest.mark.django_db


def _add(actor: Actor, text: str, *categories: str) -> Memory:
    return adding.memory_create(actor=actor, text=text, categories=categories).memory


def _sees(app: Actor, text: str) -> bool:
    """What the app's list and its search both say (they must agree), on its next request (its
    grant read again)."""
    app = actor_for(app.user, ConnectedApp.objects.get(pk=app.app.pk), app.scopes)
    listed = {m.text for m in memory_reads.memory_list(actor=app, record=False).items}
    found = {
        h.memory.text
        for h in memory_reads.memory_search(
            actor=app, query=text, min_score=0, limit=50, record=False
        )
    }
    assert (text in listed) == (text in found), "list and search disagree"
    return text in listed


def _categories(memory: Memory) -> list[str]:
    memory.refresh_from_db()
    return list(memory.categories)


@pytest.fixture
def cursor(owner: User) -> Actor:
    """An app with the default grant (every category but the sensitive ones)."""
    return actor_for(owner, stdio_app(owner, "Cursor"))


# --- The rule for grants, on its own -------------------------------------------------------


@pytest.mark.parametrize(
    ("ticked", "unticked", "sensitive", "after"),
    [
        # Saw both, ticked both: the merged one stays ticked.
        (["a", "b"], [], set(), (["b"], [])),
        # Saw both, one by default only: left to the default rule (shared unless sensitive).
        (["a"], [], set(), ([], [])),
        # Could not see the source (sensitive, not ticked): the merged one is hidden.
        ([], [], {"a"}, ([], ["b"])),
        # Could not see the target (unticked): the merged one stays hidden.
        (["a"], ["b"], set(), ([], ["b"])),
    ],
)
def test_a_merged_grant_never_sees_more_than_before(
    ticked: list[str], unticked: list[str], sensitive: set[str], after: tuple[list, list]
) -> None:
    assert merged_grant(ticked, unticked, ["a", "b"], "b", frozenset(sensitive)) == after


# --- Rename ------------------------------------------------------------------------------------


def test_a_rename_carries_memories_grants_pending_consents_and_the_classifier(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    category_add(
        actor=owner_dash,
        slug="bees",
        description="Bees, beehives, honey harvests and beekeeping equipment.",
    )
    hive = _add(owner_dash, "Alice checked her beehives", "bees")
    # A token granted only bees; an app that unticked it; a consent not redeemed yet.
    keeper = issue_token(owner, name="Keeper", categories="bees").token.app
    blind = issue_token(owner, name="Blind", categories="work").token.app
    client = Client.objects.create(name="Pending", redirect_uris="http://127.0.0.1/cb")
    code = Token.objects.create(
        user=owner,
        client=client,
        type=Token.Type.AUTHORIZATION_CODE,
        hash="code-hash",
        data={
            PENDING_GRANT: Grant.from_ticks(
                known=known_categories(owner),
                scopes=["memories:read"],
                ticked=["work"],
                sees_uncategorised=False,
            ).to_data()
        },
    )
    assert "bees" in code.data[PENDING_GRANT]["hidden_categories"]

    change = category_update(actor=owner_dash, slug="Bees", name="Beekeeping")

    assert change.slug == "beekeeping" and change.memories == 1
    assert _categories(hive) == ["beekeeping"]
    keeper.refresh_from_db()
    blind.refresh_from_db()
    code.refresh_from_db()
    assert keeper.categories == ["beekeeping"] and "bees" not in keeper.hidden_categories
    assert "beekeeping" in blind.hidden_categories and "bees" not in blind.hidden_categories
    assert "beekeeping" in code.data[PENDING_GRANT]["hidden_categories"]
    assert _sees(actor_for(owner, keeper), hive.text)
    assert not _sees(actor_for(owner, blind), hive.text)
    assert _sees(cursor, hive.text)
    # The classifier learns the category under its new name.
    new = _add(owner_dash, "My beehives gave 12 kg of honey")
    assert "beekeeping" in new.categories
    event = AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.UPDATE).latest("id")
    assert event.memory_ids == [hive.id]
    assert event.detail["categories"] == {"from": ["bees"], "to": ["beekeeping"]}


def test_a_rename_onto_a_name_an_app_was_granted_reveals_nothing(
    owner: User, owner_dash: Actor
) -> None:
    """An app granted a name (ticked, then the category was deleted and its name left in an old
    grant) gains nothing when the owner renames a hidden category onto that name."""
    category_add(actor=owner_dash, slug="diary", description="", sensitive=True)
    secret = _add(owner_dash, "Alice wrote about her panic", "diary")
    app = stdio_app(owner, "Notes app")
    app.categories = ["notes"]  # a stale tick: no category "notes" exists
    app.save()
    notes_app = actor_for(owner, app)
    assert not _sees(notes_app, secret.text)
    category_update(actor=owner_dash, slug="diary", name="notes")
    assert _categories(secret) == ["notes"]
    assert not _sees(notes_app, secret.text)
    app.refresh_from_db()
    assert "notes" in app.hidden_categories


def test_a_default_cannot_be_renamed_and_nothing_can_be_renamed_onto_one(
    owner_dash: Actor,
) -> None:
    category_add(actor=owner_dash, slug="kids", description="")
    with pytest.raises(Conflict, match="default"):
        category_update(actor=owner_dash, slug="health", name="wellbeing")
    with pytest.raises(Conflict, match="merge"):
        category_update(actor=owner_dash, slug="kids", name="Relationships")
    category_add(actor=owner_dash, slug="family", description="")
    with pytest.raises(Conflict, match="merge"):
        category_update(actor=owner_dash, slug="kids", name="family")


def test_a_rename_onto_a_sensitive_looking_name_makes_it_sensitive(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    category_add(actor=owner_dash, slug="notes", description="")
    memory = _add(owner_dash, "Alice's scan results came back", "notes")
    assert _sees(cursor, memory.text)
    change = category_update(actor=owner_dash, slug="notes", name="Medical notes")
    assert change.means == "health"
    assert UserCategory.objects.get(owner=owner, slug="medical-notes").sensitive
    assert not _sees(cursor, memory.text)


# --- Merge -------------------------------------------------------------------------------------


def test_merging_a_sensitive_category_into_a_shared_one_reveals_nothing(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    category_add(actor=owner_dash, slug="therapy-notes", description="", sensitive=True)
    category_add(actor=owner_dash, slug="kids", description="")
    session = _add(owner_dash, "Alice talked about her father in therapy", "therapy-notes")
    school = _add(owner_dash, "Alice's son starts school in May", "kids")
    family = actor_for(owner, issue_token(owner, name="Family", categories="kids").token.app)
    trusted = actor_for(owner, issue_token(owner, name="Trusted", categories="all").token.app)
    assert not _sees(cursor, session.text) and _sees(cursor, school.text)
    assert not _sees(family, session.text) and _sees(family, school.text)
    assert _sees(trusted, session.text) and _sees(trusted, school.text)  # "all" ticks both

    change = category_merge(actor=owner_dash, source="therapy-notes", into="kids")

    assert change.slug == "kids" and change.memories == 1
    assert _categories(session) == ["kids"]
    assert not UserCategory.objects.filter(owner=owner, slug="therapy-notes").exists()
    assert UserCategory.objects.get(owner=owner, slug="kids").sensitive
    # Apps that did not see the therapy notes do not now; what they lose is the merged whole.
    assert not _sees(cursor, session.text) and not _sees(cursor, school.text)
    assert not _sees(family, session.text) and not _sees(family, school.text)
    # The app the owner ticked both for keeps both.
    assert _sees(trusted, session.text) and _sees(trusted, school.text)


def test_merging_two_shared_categories_keeps_what_apps_saw(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    category_add(actor=owner_dash, slug="kids", description="")
    son = _add(owner_dash, "Alice's son is nine", "kids")
    friend = _add(owner_dash, "Alice's best friend is Bea", "relationships")
    work_only = actor_for(owner, issue_token(owner, name="Work", categories="work").token.app)
    category_merge(actor=owner_dash, source="kids", into="Relationships")
    assert _categories(son) == ["relationships"]
    assert _sees(cursor, son.text) and _sees(cursor, friend.text)
    assert not _sees(work_only, son.text) and not _sees(work_only, friend.text)
    assert "relationships" not in {
        c for c in UserCategory.objects.filter(owner=owner).values_list("slug", flat=True)
    }, "merging into a shared default marks nothing"


def test_a_memory_under_both_categories_keeps_the_name_once(owner_dash: Actor) -> None:
    category_add(actor=owner_dash, slug="kids", description="")
    both = _add(owner_dash, "Alice's son's friend", "kids", "work", "relationships")
    category_merge(actor=owner_dash, source="kids", into="relationships")
    assert _categories(both) == ["relationships", "work"]


def test_a_default_cannot_be_merged_away(owner_dash: Actor) -> None:
    category_add(actor=owner_dash, slug="kids", description="")
    with pytest.raises(Conflict, match="default"):
        category_merge(actor=owner_dash, source="relationships", into="kids")
    with pytest.raises(InvalidInput):
        category_merge(actor=owner_dash, source="kids", into="KIDS")
    with pytest.raises(NotFound):
        category_merge(actor=owner_dash, source="kids", into="nowhere")
    assert UserCategory.objects.filter(slug="kids").exists()


# --- Delete ------------------------------------------------------------------------------------


def test_deleting_a_category_keeps_the_others_and_reveals_nothing(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    category_add(actor=owner_dash, slug="fertility", description="", sensitive=True)
    alone = _add(owner_dash, "Alice's second IVF round is in May", "fertility")
    paired = _add(owner_dash, "Alice told her boss about the IVF leave", "fertility", "work")
    told = _add(cursor, "Alice asked Cursor about clinics", "kids")  # the app's own
    changing.memory_set_categories(actor=owner_dash, memory_id=told.id, categories=["fertility"])
    trusted = actor_for(owner, issue_token(owner, name="Trusted", categories="fertility").token.app)
    before = {(a, t): _sees(a, t) for a in (cursor, trusted) for t in (alone.text, paired.text)}
    assert before == {
        (cursor, alone.text): False,
        (cursor, paired.text): False,
        (trusted, alone.text): True,
        (trusted, paired.text): False,  # work is not in its grant
    }
    assert _sees(cursor, told.text)  # it wrote it

    change = category_delete(actor=owner_dash, slug="Fertility")

    assert change.memories == 3 and change.kept_for == ["Trusted"]
    assert _categories(alone) == [] and _categories(paired) == ["work"]
    assert not UserCategory.objects.filter(owner=owner, slug="fertility").exists()
    after = {(a, t): _sees(a, t) for a in (cursor, trusted) for t in (alone.text, paired.text)}
    assert not any(after[k] and not before[k] for k in after), "an app sees more than before"
    # Trusted saw fertility only; what had no other category is now uncategorised, which it was
    # not granted either.
    assert after[(trusted, alone.text)] is False
    assert _sees(cursor, told.text)
    # An app connected afterwards, with the default grant, would not have seen them either.
    later = actor_for(owner, issue_token(owner, name="Later").token.app)
    assert not _sees(later, alone.text) and not _sees(later, paired.text)


def test_a_default_cannot_be_deleted(owner_dash: Actor) -> None:
    with pytest.raises(Conflict, match="default"):
        category_delete(actor=owner_dash, slug="health")
    with pytest.raises(NotFound):
        category_delete(actor=owner_dash, slug="never-made")


# --- Sensitive -----------------------------------------------------------------------------------


def test_marking_a_new_category_sensitive_takes_it_from_apps_that_did_not_tick_it(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    son = _add(owner_dash, "Alice's son is nine", "kids")  # new, shared by default
    ticked = actor_for(owner, issue_token(owner, name="Family app", categories="kids").token.app)
    assert _sees(cursor, son.text) and _sees(ticked, son.text)
    category_update(actor=owner_dash, slug="kids", sensitive=True)
    assert not _sees(cursor, son.text)
    assert _sees(ticked, son.text), "an app the owner ticked it for keeps it"
    assert category_notices(actor=owner_dash) == []  # the owner decided: the notice goes
    category_update(actor=owner_dash, slug="kids", sensitive=False)  # the undo
    assert _sees(cursor, son.text)


def test_a_default_can_be_marked_and_unmarked_sensitive(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    trip = _add(owner_dash, "Alice flies to Lisbon on Friday", "travel")
    app = stdio_app(owner, "Later app")  # a grant that names no category: the defaults decide
    assert _sees(actor_for(owner, app), trip.text)
    category_update(actor=owner_dash, slug="travel", sensitive=True)
    assert not _sees(actor_for(owner, app), trip.text)
    consent = Grant.default(known=known_categories(owner), scopes=["memories:read"])
    assert "travel" not in consent.categories, "a new app's consent starts it unticked"
    category_update(actor=owner_dash, slug="finance", sensitive=False)
    consent = Grant.default(known=known_categories(owner), scopes=["memories:read"])
    assert "finance" in consent.categories
    rows = {r.slug: r for r in category_overview(actor=owner_dash)}
    assert rows["travel"].sensitive and not rows["finance"].sensitive
    assert not rows["travel"].custom, "marking a default keeps it a default"


def test_a_description_teaches_the_classifier(owner: User, owner_dash: Actor) -> None:
    _add(owner_dash, "Alice checked the hives", "bees")  # a name alone: nothing to learn
    assert "bees" not in _add(owner_dash, "Twelve kg of honey from the apiary").categories
    category_update(
        actor=owner_dash,
        slug="bees",
        description="Bees, beehives, honey harvests and beekeeping equipment.",
    )
    assert "bees" in _add(owner_dash, "My beehives gave 12 kg of honey").categories
    with pytest.raises(Conflict, match="default"):
        category_update(actor=owner_dash, slug="health", description="Mine.")


def test_seeing_a_notice_keeps_the_category_as_it_is(owner: User, owner_dash: Actor) -> None:
    _add(owner_dash, "Alice's son is nine", "kids")
    assert [n.slug for n in category_notices(actor=owner_dash)] == ["kids"]
    category_reviewed(actor=owner_dash, slug="Kids")
    assert category_notices(actor=owner_dash) == []
    assert not UserCategory.objects.get(owner=owner, slug="kids").sensitive


# --- Who may -------------------------------------------------------------------------------------


def test_only_the_owner_changes_categories(owner: User, owner_dash: Actor, cursor: Actor) -> None:
    category_add(actor=owner_dash, slug="kids", description="")
    son = _add(owner_dash, "Alice's son is nine", "kids")
    for attempt in (
        lambda: category_add(actor=cursor, slug="pets"),
        lambda: category_update(actor=cursor, slug="kids", name="children"),
        lambda: category_update(actor=cursor, slug="health", sensitive=False),
        lambda: category_merge(actor=cursor, source="kids", into="relationships"),
        lambda: category_delete(actor=cursor, slug="kids"),
        lambda: category_reviewed(actor=cursor, slug="kids"),
        lambda: category_overview(actor=cursor),
        lambda: category_notices(actor=cursor),
    ):
        with pytest.raises(OwnerOnly):
            attempt()
    assert _categories(son) == ["kids"]
    assert not UserCategory.objects.get(owner=owner, slug="kids").sensitive


def test_another_users_categories_are_not_there(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    category_add(actor=owner_dash, slug="kids", description="")
    son = _add(owner_dash, "Alice's son is nine", "kids")
    for attempt in (
        lambda: category_update(actor=stranger_dash, slug="kids", name="children"),
        lambda: category_update(actor=stranger_dash, slug="kids", sensitive=True),
        lambda: category_merge(actor=stranger_dash, source="kids", into="work"),
        lambda: category_delete(actor=stranger_dash, slug="kids"),
        lambda: category_reviewed(actor=stranger_dash, slug="kids"),
    ):
        with pytest.raises(NotFound):
            attempt()
    assert "kids" not in [r.slug for r in category_overview(actor=stranger_dash)]
    assert _categories(son) == ["kids"]
    # The stranger's own "kids" is theirs alone: a change to it touches none of the owner's.
    _add(stranger_dash, "Bob's daughter is four", "kids")
    category_update(actor=stranger_dash, slug="kids", name="children")
    assert _categories(son) == ["kids"]
    assert UserCategory.objects.filter(owner=owner, slug="kids").exists()


def test_a_failed_change_leaves_everything_as_it_was(owner: User, owner_dash: Actor) -> None:
    category_add(actor=owner_dash, slug="kids", description="")
    son = _add(owner_dash, "Alice's son is nine", "kids")
    app = issue_token(owner, name="Family app", categories="kids").token.app
    events = AccessEvent.objects.filter(owner=owner).count()
    with pytest.raises(NotFound):
        category_merge(actor=owner_dash, source="kids", into="nowhere")
    with pytest.raises(InvalidInput):
        category_update(actor=owner_dash, slug="kids", name="!!!")
    assert _categories(son) == ["kids"]
    app.refresh_from_db()
    assert app.categories == ["kids"]
    assert AccessEvent.objects.filter(owner=owner).count() == events


def test_the_overview_counts_and_names_the_apps_that_see_each(
    owner: User, owner_dash: Actor, cursor: Actor
) -> None:
    _add(owner_dash, "Alice's son is nine", "kids")
    private = _add(owner_dash, "Alice's daughter is four", "kids")
    marks.memory_set_visibility(actor=owner_dash, memory_id=private.id, private=True)
    _add(owner_dash, "Alice takes insulin", "health")
    issue_token(owner, name="Reader", scopes=["memories:read"], categories="health")
    issue_token(owner, name="Writer", scopes=["memories:write"])  # reads nothing
    paused = stdio_app(owner, "Paused app")
    ConnectedApp.objects.filter(pk=paused.pk).update(paused=True)
    rows = {r.slug: r for r in category_overview(actor=owner_dash)}
    assert rows["kids"].memories == 2 and rows["kids"].custom
    assert sorted(a.name for a in rows["kids"].seen_by) == ["Cursor", "Paused app"]
    assert [a.name for a in rows["health"].seen_by] == ["Reader"]
    assert rows["health"].memories == 1 and rows["work"].memories == 0
    assert owner_actor(owner).app.name == "dashboard"  # the owner's doors are never listed


def test_a_deleted_sensitive_categorys_memories_stay_hidden_from_a_token_made_later_until_shown(
    owner: User, owner_dash: Actor
) -> None:
    """Measured (issue 39): a token made after the delete, with the default grant, found them."""
    from tests.api.tokens import bearer
    from tests.personas import signed_in

    category_add(actor=owner_dash, slug="fertility", description="", sensitive=True)
    alone = _add(owner_dash, "Alice's second IVF round is in May", "fertility")
    category_delete(actor=owner_dash, slug="fertility")
    later = bearer(issue_token(owner, name="Later").secret)
    found = later.get("/api/v1/memories/search", {"q": "IVF round", "min_score": "0"}).json()
    assert alone.text not in str(found)
    assert later.get(f"/api/v1/memories/{alone.id}").status_code == 404

    browser = signed_in(owner)
    page = browser.get(f"/memories/{alone.id}/").content.decode()
    assert "Kept from new apps" in page and "no app sees it" in page
    assert browser.post(f"/memories/{alone.id}/unrestrict/").status_code == 302
    assert later.get(f"/api/v1/memories/{alone.id}").status_code == 200
    trail = AccessEvent.objects.filter(
        owner=owner, memory_ids__contains=[alone.id], action=AccessEvent.Action.STATE
    ).last()
    assert trail is not None and "seen_only_by" in trail.detail["from"]
