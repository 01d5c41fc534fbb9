"""A connected app learns nothing about a memory it may not see — not by adding its text, not by
updating another memory to it — and still reads back what it wrote itself (service layer).

The within-user attacks (issue 14, item 1) are checked differentially: the same app does the same
thing in two worlds that differ only in whether the owner holds a secret the app may not see
(private, hidden from that app, or in a category the app was not granted). Everything the app is
told, and everything it can read afterwards, must be the same in both worlds once ids are replaced
by placeholders and times by "new"/"old"; so must the work done (model calls and SQL statements).
The doors (MCP over HTTP, REST with a real client token) are probed the same way in
tests/reliability/test_oracles_within_user.py.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from activity.models import AccessEvent
from kernel.errors import Conflict, NotFound
from kernel.gates import SCOPE_WRITE
from memories.categories.vocabulary import DEFAULT_SLUGS
from memories.models import Memory
from memories.search.embeddings import get_embedder
from memories.selectors.memories import (
    MemoryFilters,
    memory_access_trail,
    memory_get,
    memory_list,
    memory_search,
    memory_versions,
)
from memories.services import adding, batch_insert, changing, deleting, marks, remember
from memories.services.erasure import user_erase
from memories.services.export import export_build
from memories.services.trash import trash_delete_forever, trash_restore
from memories.text import text_key
from memories.warm import warm_up

pytestmark = pytest.mark.django_db

SECRET = "Had an abortion in March 2024"
GUESS = "  had an ABORTION in march, 2024. "  # equal to SECRET after folding
HIDDEN = ("private", "hidden", "ungranted")


# "Only food": every other category unticked, memories without a category too.
ONLY_FOOD: dict = {
    "categories": ["food"],
    "hidden_categories": [c for c in DEFAULT_SLUGS if c != "food"],
    "sees_uncategorised": False,
}


def make_app(user: User, name: str = "Cursor", **grant: Any) -> Actor:
    """A token client of `user` with every scope and the default grant unless told otherwise."""
    app = ConnectedApp.objects.create(
        owner=user, kind=ConnectedApp.Kind.TOKEN, name=name, scopes=list(ALL_SCOPES), **grant
    )
    return actor_for(user, app)


def hide(owner: Actor, app: Actor, text: str, how: str) -> Memory:
    """The owner's memory `text`, kept from `app` in the way named by `how`."""
    cats = ["health"] if how == "ungranted" else ["personal"]
    memory = adding.memory_create(actor=owner, text=text, categories=cats).memory
    if how == "private":
        marks.memory_set_visibility(actor=owner, memory_id=memory.id, private=True)
    elif how == "hidden":
        marks.memory_set_visibility(actor=owner, memory_id=memory.id, hide_from_app=app.app.pk)
    return memory


@dataclass
class World:
    owner: Actor
    app: Actor
    start: datetime
    ids: dict[str, str] = field(default_factory=dict)

    def shown(self, value: Any) -> Any:
        """What a caller is told, with ids as placeholders (by first appearance) and times as
        new (after the world began) or old: equal in both worlds unless something leaks."""
        if isinstance(value, Memory):
            value = {
                "id": value.id,
                "text": value.text,
                "state": value.state,
                "categories": sorted(value.categories),
                "is_private": value.is_private,
                "origin": value.origin,
                "origin_app_name": value.origin_app_name,
                "provenance": {k: v for k, v in value.provenance.items() if k != "recorded_at"},
                "metadata": value.metadata,
                "superseded_by": value.superseded_by_id,
                "user_edited_at": value.user_edited_at,
                "created_at": value.created_at,
                "updated_at": value.updated_at,
            }
        if isinstance(value, adding.WriteResult):
            value = {"memory": value.memory, "created": value.created}
        if isinstance(value, dict):
            return {k: self.shown(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.shown(v) for v in value]
        if isinstance(value, uuid.UUID):
            return self.ids.setdefault(str(value), f"<id{len(self.ids)}>")
        if isinstance(value, datetime):
            return "new" if value >= self.start else "old"
        if isinstance(value, float):
            return round(value, 5)
        if isinstance(value, str):
            return re.sub(
                r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                lambda m: self.ids.setdefault(m.group(0), f"<id{len(self.ids)}>"),
                value,
            )
        return value


def twin_worlds(how: str | None) -> tuple[World, World]:
    """Two users with the same app and the same visible memory; only the first holds SECRET,
    kept from the app as `how` says."""
    worlds = []
    for n in range(2):
        user = User.objects.create_user(f"twin{n}-{uuid.uuid4().hex[:6]}@example.com")
        owner, app = owner_actor(user), make_app(user)
        adding.memory_create(actor=owner, text="Likes jazz", categories=["hobbies"])
        if n == 0 and how is not None:
            hide(owner, app, SECRET, how)
        worlds.append(World(owner=owner, app=app, start=timezone.now()))
    return worlds[0], worlds[1]


def answer(world: World, work: Callable[..., Any], **arguments: Any) -> Any:
    """The app's call `work(actor=app, **arguments)`, as the app would be told it."""
    try:
        return world.shown(work(actor=world.app, **arguments))
    except (NotFound, Conflict) as exc:
        return (type(exc).__name__, exc.message)


def follow_ups(world: World, ids: list[uuid.UUID]) -> list[Any]:
    """What the app can learn next: each id it was given, the list, a search, the same add."""
    app = world.app
    out = [answer(world, memory_get, memory_id=mid) for mid in ids]
    # A batch shares one creation time, so its order in a list is by random id: sort by text.
    listed = memory_list(actor=app, filters=MemoryFilters(state=None)).items
    out.append(world.shown(sorted(listed, key=lambda m: m.text)))
    hits = memory_search(actor=app, query="abortion in March", limit=10)
    out.append(world.shown([(h.memory, h.score) for h in hits]))
    out.append(answer(world, adding.memory_create, text=GUESS))
    return out


@contextmanager
def work_done() -> Iterator[dict[str, list[str]]]:
    """Model calls and SQL statements (by verb) made inside the block."""
    embedder = get_embedder()
    seen: dict[str, list[str]] = {"embed": [], "sql": []}
    original = embedder.embed

    def counting(texts: Any) -> Any:
        seen["embed"].append(str(len(texts)))
        return original(texts)

    raw_insert = batch_insert.insert_rows

    def counting_insert(params: dict[str, Any]) -> Any:
        seen["sql"].append("INSERT(raw)")
        return raw_insert(params)

    embedder.embed = counting  # type: ignore[method-assign]
    batch_insert.insert_rows = counting_insert
    try:
        with CaptureQueriesContext(connection) as queries:
            yield seen
        seen["sql"] += [q["sql"].split()[0] for q in queries.captured_queries]
    finally:
        del embedder.embed  # the class's method again (not a bound copy shadowing it)
        batch_insert.insert_rows = raw_insert


def same_in_both(how: str, attack: Callable[[World], list[Any]]) -> tuple[World, World]:
    secret, plain = twin_worlds(how)
    warm_up()  # the classifier's prototypes are embedded once per process
    with work_done() as secret_work:
        told_secret = attack(secret)
    with work_done() as plain_work:
        told_plain = attack(plain)
    assert told_secret == told_plain
    assert secret_work == plain_work  # no extra model call or statement in either world
    assert follow_ups(secret, _ids(secret)) == follow_ups(plain, _ids(plain))
    return secret, plain


def _ids(world: World) -> list[uuid.UUID]:
    """Every id the world handed out, in the order the app first saw it."""
    return [uuid.UUID(i) for i in world.ids]


def _add(world: World) -> list[Any]:
    result = adding.memory_create(actor=world.app, text=GUESS)
    return [world.shown(result.memory), result.created]


def _remember(world: World) -> list[Any]:
    result = remember.memory_remember(actor=world.app, text=GUESS)
    return [world.shown([r.memory for r in result.results]), result.note, result.actions]


def _add_many(world: World) -> list[Any]:
    texts = [GUESS, "Likes jazz", "Plays the oboe", SECRET, "Had a tooth out in 2023"]
    items = [adding.NewMemory(text=t) for t in texts]
    results = adding.memory_create_many(actor=world.app, items=items)
    return [[world.shown(r.memory), r.created] for r in results]


def _update(world: World) -> list[Any]:
    mine = adding.memory_create(actor=world.app, text="Went to the dentist").memory
    theirs = memory_list(actor=world.app).items[-1]  # the owner's "Likes jazz"
    out = [world.shown(mine)]
    for target in (mine, theirs):
        out.append(answer(world, changing.memory_update, memory_id=target.id, text=GUESS))
        out.append(answer(world, memory_get, memory_id=target.id))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("how", HIDDEN)
@pytest.mark.parametrize(
    "attack", [_add, _remember, _add_many, _update], ids=["add", "remember", "add_many", "update"]
)
def test_an_app_cannot_learn_a_hidden_memory_by_writing_its_text(
    how: str, attack: Callable[[World], list[Any]]
) -> None:
    secret, _ = same_in_both(how, attack)
    # The store still holds one active copy of the text, and the owner sees it once.
    key = text_key(SECRET)
    owner_texts = [m.text for m in memory_list(actor=secret.owner, limit=200).items]
    assert [t for t in owner_texts if text_key(t) == key] == [SECRET]
    canonical = Memory.objects.filter(
        owner=secret.owner.user, text_key=key, state="active", superseded_by=None
    )
    assert [m.text for m in canonical if m.echo_of_id is None] == [SECRET]
    # The owner's export lists it once as a memory.
    exported = export_build(actor=secret.owner)["memories"]
    assert [m["text"] for m in exported if text_key(m["text"]) == key] == [SECRET]


def test_the_access_event_records_the_id_the_app_received() -> None:
    secret, _ = twin_worlds("private")
    result = adding.memory_create(actor=secret.app, text=GUESS)
    event = AccessEvent.objects.filter(owner=secret.owner.user, action="add").latest("id")
    assert event.memory_ids == [result.memory.id]
    again = adding.memory_create(actor=secret.app, text=GUESS)
    assert not again.created and again.memory.id == result.memory.id
    event = AccessEvent.objects.filter(owner=secret.owner.user, action="add").latest("id")
    assert event.memory_ids == [result.memory.id]


def test_a_visible_duplicate_is_still_answered_already_known(owner: User) -> None:
    owner_app = owner_actor(owner)
    app = make_app(owner)
    known = adding.memory_create(actor=owner_app, text="Likes jazz").memory
    again = adding.memory_create(actor=app, text="likes JAZZ!")
    assert not again.created and again.memory.id == known.id
    mine = adding.memory_create(actor=app, text="Plays the oboe").memory
    with pytest.raises(Conflict, match="Another active memory already has this text"):
        changing.memory_update(actor=app, memory_id=mine.id, text="Likes jazz.")


def test_an_apps_restatement_of_a_private_memory_is_shown_to_no_one_else(owner: User) -> None:
    owner_app = owner_actor(owner)
    writer, other = make_app(owner, "Cursor"), make_app(owner, "Claude")
    secret = hide(owner_app, writer, SECRET, "private")
    stated = adding.memory_create(actor=writer, text=GUESS).memory
    assert memory_get(actor=writer, memory_id=stated.id).text == GUESS.strip()
    for outsider in (other, owner_app):
        with pytest.raises(NotFound):
            memory_get(actor=outsider, memory_id=stated.id)
        listed = memory_list(actor=outsider, filters=MemoryFilters(state=None), limit=200).items
        assert stated.id not in [m.id for m in listed]
        hits = memory_search(actor=outsider, query="abortion", limit=50)
        assert stated.id not in [h.memory.id for h in hits]
    # The owner's controls on the memory reach the app's statement of it.
    marks.memory_set_visibility(actor=owner_app, memory_id=secret.id, hide_from_app=writer.app.pk)
    with pytest.raises(NotFound):
        memory_get(actor=writer, memory_id=stated.id)


def test_once_the_app_may_see_the_memory_it_sees_that_one_instead(owner: User) -> None:
    owner_app = owner_actor(owner)
    app = make_app(owner)
    secret = hide(owner_app, app, SECRET, "hidden")
    stated = adding.memory_create(actor=app, text=GUESS).memory
    marks.memory_set_visibility(actor=owner_app, memory_id=secret.id, show_to_app=app.app.pk)
    with pytest.raises(NotFound):
        memory_get(actor=app, memory_id=stated.id)
    assert [m.id for m in memory_list(actor=app).items if m.text == SECRET] == [secret.id]
    again = adding.memory_create(actor=app, text=GUESS)
    assert not again.created and again.memory.id == secret.id


def test_deleting_the_memory_deletes_the_apps_statements_of_it(owner: User) -> None:
    owner_app = owner_actor(owner)
    app = make_app(owner)
    secret = hide(owner_app, app, SECRET, "private")
    stated = adding.memory_create(actor=app, text=GUESS).memory
    deleted = deleting.memory_delete(actor=owner_app, memory_id=secret.id)
    # Into the trash with the memory: the app no longer reads its statement either...
    assert Memory.objects.get(owner=owner, pk=stated.pk).trashed_with_id == secret.id
    with pytest.raises(NotFound):
        memory_get(actor=app, memory_id=stated.id)
    # ...back with it on a restore, and gone with it on a purge.
    restore = trash_restore(actor=owner_app, batch_id=deleted.batch_id)
    assert restore.restored == [secret.id]
    assert memory_get(actor=app, memory_id=stated.id).text == GUESS.strip()
    deleting.memory_delete(actor=owner_app, memory_id=secret.id)
    trash_delete_forever(actor=owner_app, memory_ids=[secret.id])
    assert not Memory.objects.filter(owner=owner, pk__in=[secret.pk, stated.pk]).exists()


def test_edits_and_history_of_a_statement_stay_with_it(owner: User) -> None:
    """An app's statement edited into a text nobody holds becomes an ordinary memory the owner
    sees; the hidden memory is untouched."""
    owner_app = owner_actor(owner)
    app = make_app(owner)
    secret = hide(owner_app, app, SECRET, "private")
    stated = adding.memory_create(actor=app, text=GUESS).memory
    changing.memory_update(actor=app, memory_id=stated.id, text="Had a tooth out in 2023")
    assert stated.id in [m.id for m in memory_list(actor=owner_app).items]
    assert Memory.objects.get(owner=owner, pk=secret.pk).text == SECRET
    assert [v.text for v in memory_versions(actor=owner_app, memory_id=stated.id)] == [
        GUESS.strip()
    ]


# ---- Read back what you wrote (issue 13) -------------------------------------------------------


def test_an_app_reads_back_what_it_wrote_in_a_category_it_was_not_granted(owner: User) -> None:
    writer, other = make_app(owner, "Cursor"), make_app(owner, "Claude")
    result = remember.memory_remember(actor=writer, text="Is allergic to peanuts")
    memory = result.results[0].memory
    assert "health" in memory.categories
    assert "Health" in result.note and "read it back" in result.note
    assert memory_get(actor=writer, memory_id=memory.id).id == memory.id
    assert memory.id in [m.id for m in memory_list(actor=writer).items]
    assert memory.id in [h.memory.id for h in memory_search(actor=writer, query="peanut allergy")]
    with pytest.raises(NotFound):
        memory_get(actor=other, memory_id=memory.id)
    assert memory.id not in [h.memory.id for h in memory_search(actor=other, query="peanuts")]


@pytest.mark.parametrize("how", ["private", "hidden"])
def test_an_app_cannot_read_back_what_the_user_made_private_or_hid(owner: User, how: str) -> None:
    owner_app = owner_actor(owner)
    app = make_app(owner)
    memory = adding.memory_create(actor=app, text="Is allergic to peanuts").memory
    if how == "private":
        marks.memory_set_visibility(actor=owner_app, memory_id=memory.id, private=True)
    else:
        marks.memory_set_visibility(actor=owner_app, memory_id=memory.id, hide_from_app=app.app.pk)
    with pytest.raises(NotFound):
        memory_get(actor=app, memory_id=memory.id)
    assert memory.id not in [h.memory.id for h in memory_search(actor=app, query="peanuts")]
    assert memory.id not in [m.id for m in memory_list(actor=app).items]


def test_a_write_only_app_is_told_it_cannot_read_back(owner: User) -> None:
    app = ConnectedApp.objects.create(
        owner=owner, kind=ConnectedApp.Kind.TOKEN, name="Logger", scopes=[SCOPE_WRITE]
    )
    result = remember.memory_remember(actor=actor_for(owner, app), text="Plays the oboe")
    assert "cannot read" in result.note


def test_an_app_granted_only_chosen_categories_reads_back_its_uncategorised_write(
    owner: User,
) -> None:
    app = make_app(owner, **ONLY_FOOD)
    memory = adding.memory_create(actor=app, text="Zxq").memory
    assert memory_get(actor=app, memory_id=memory.id).id == memory.id


# ---- What the owner sees of an app's statement ---------------------------------------------------


def test_the_owner_sees_an_apps_statement_on_the_memory_not_as_another_memory(
    owner: User, owner_client: Client
) -> None:
    owner_app = owner_actor(owner)
    app = make_app(owner)
    secret = hide(owner_app, app, SECRET, "private")
    stated = adding.memory_create(actor=app, text=GUESS).memory
    page = owner_client.get(f"/memories/{secret.id}/").content.decode()
    assert "Also stated by" in page and "Hide from Cursor" in page and GUESS.strip() in page
    listing = owner_client.get("/", {"state": "all"}).content.decode()
    assert SECRET in listing and GUESS.strip() not in listing
    assert owner_client.get(f"/memories/{stated.id}/").status_code == 404
    # The access trail of the memory names the app's write of its statement.
    trail = [e.app_name for e in memory_access_trail(actor=owner_app, memory_id=secret.id)]
    assert "Cursor" in trail
    # One click hides the statement from its app too.
    assert memory_get(actor=app, memory_id=stated.id).id == stated.id
    hidden = owner_client.post(f"/memories/{secret.id}/hide/", {"app": str(app.app.pk)})
    assert hidden.status_code == 302
    with pytest.raises(NotFound):
        memory_get(actor=app, memory_id=stated.id)
    assert "Hide from Cursor" not in owner_client.get(f"/memories/{secret.id}/").content.decode()


def test_erase_removes_the_apps_statements_too(owner: User) -> None:
    owner_app = owner_actor(owner)
    app = make_app(owner)
    hide(owner_app, app, SECRET, "private")
    adding.memory_create(actor=app, text=GUESS)
    user_erase(actor=owner_app)
    assert not Memory.objects.filter(owner=owner).exists()
