"""The machinery of the isolation property (the doors are tested in
tests/reliability/test_isolation_over_mcp.py, test_isolation_over_rest_api.py and
test_isolation_in_the_dashboard.py). The property: through every front door, no user ever
reads, changes or learns of the existence of another user's memory, memory version, connected
app, proposal or import.

The doors: MCP tools over Streamable HTTP and over stdio (the real MCP SDK client), the REST API
(client token and signed-in session), the dashboard views, and export (API and dashboard). The
service layer itself is covered by test_isolation_properties.py.

Each door test runs generated interleavings of operations by three users, all through that door.
Whenever an operation names another user's object (a live or deleted memory id, a version id, an
app, proposal or import id), the same operation is made again with ids that never existed, and:
  (a) the two answers must be byte-identical (status, headers and body; tool result as JSON),
      after replacing the uuid itself wherever it is echoed (see `_normalise`);
  (b) searches, lists and exports never contain another user's marker or memory ids, and a
      search answers byte for byte the same after another user stores a matching text (no
      existence oracle through ranking statistics);
  (c) the other users' rows (text, embedding, state, categories, versions, tombstones, access log,
      apps, proposals, imports) are exactly as before the attempt.
Two more attacks: storing another user's exact text (deduplication must stay per tenant) and
importing an export file that names another user's memory ids (it must run exactly like the same
file naming random ids). Each user keeps one session per door for the whole test (one stdio
process, one HTTP client), so a fixed example budget keeps the file around a minute.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from django.db import connection
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accounts.actors import owner_actor
from accounts.models import User
from memories.categories.vocabulary import SENSITIVE
from memories.ingest.own_export import FORMAT, VERSION
from memories.services import adding, deleting
from memories.services.proposals import proposal_create
from memories.transfer_models import ImportRun
from tests.reliability.observations import record_figures

# The MCP servers (a uvicorn thread, stdio processes) read through their own connections: every
# write must be committed to be seen, so the door tests run outside a test transaction.
through_an_entry_point = pytest.mark.django_db(transaction=True)

WORDS = ["garden", "piano", "Lisbon", "invoice", "tennis", "salmon"]
BY_ID = ["get", "update", "delete", "versions", "restore", "restore_mix", "state", "bulk"]
BY_ID += ["trash"]  # out of the trash (by memory or by delete), for good, a notice dismissed
BY_ID += ["app", "import", "proposal"]  # objects other than memories
SWEEPS = ["search", "list", "export"]
ECHO = "echo"  # add (or update to) another tenant's exact text: dedup must not cross tenants
FORGE = "forge"  # import an export file that names another tenant's memory ids
SCOPES = ("read", "write", "delete")
NEVER = 1_900_000_000  # version and app ids above this never exist in a test database

# (acting user, operation, whose object (0-2: that user's; 3, 4: one of the other two users'),
#  which of them, a word): four in five id-taking operations name another tenant's object.
Step = tuple[int, str, int, int, str]
steps = st.lists(
    st.tuples(
        st.integers(0, 2),
        st.sampled_from(["add", "add", *BY_ID, *SWEEPS, ECHO, FORGE]),
        st.integers(0, 4),
        st.integers(0, 1000),
        st.sampled_from(WORDS),
    ),
    min_size=6,
    max_size=16,
)


def budget(examples: int) -> Any:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        # No shrinking: a failure is reported as found, and CI time stays bounded either way.
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@dataclass(frozen=True)
class Target:
    """The objects an id-taking operation names; `memory_ids` are all normalised in answers."""

    memory_id: uuid.UUID
    version_id: int
    app_id: int
    run_id: uuid.UUID
    proposal_id: int
    own_id: uuid.UUID | None = None  # an id of the caller's own, for batch and mixed operations
    text: str = ""
    batch_id: uuid.UUID = field(default_factory=uuid.uuid4)  # a delete, in the trash

    @property
    def memory_ids(self) -> list[uuid.UUID]:
        return [self.memory_id, *([self.own_id] if self.own_id else [])]


def _normalise(body: bytes, target: Target) -> bytes:
    """The one normalisation: the uuid asked about (memory or import run), wherever a door echoes
    it (a redirect's Location, a URL in the page), becomes `<id>`; everything else must match
    byte for byte."""
    for uid in [*target.memory_ids, target.run_id, target.batch_id]:
        body = body.replace(str(uid).encode(), b"<id>")
    return body


@dataclass
class World:
    """The three tenants of one door test. Each one's texts carry a tag (which the others use
    as a search query) and a marker nobody ever sends: a marker in an answer to another tenant
    is a leak (a tag could be the caller's own query echoed back)."""

    users: list[User]
    tags: list[str]
    markers: list[str]
    attempts: int = 0
    leaks: list[str] = field(default_factory=list)

    def text(self, who: int, word: str, step: int) -> str:
        return f"{word} note {step} {uuid.uuid4().hex[:6]} {self.tags[who]} {self.markers[who]}"


def _world() -> World:
    """Three tenants, each seeded (outside the doors) with a memory, a pending proposal to
    change it, a deleted memory in the trash and a prepared import, so every kind of object has
    a foreign id to try."""
    suffix = uuid.uuid4().hex[:6]
    users = [User.objects.create_user(f"tenant{i}-{suffix}@example.com") for i in range(3)]
    world = World(
        users=users,
        tags=[f"tag{uuid.uuid4().hex[:10]}" for _ in users],
        markers=[f"marker{uuid.uuid4().hex[:10]}" for _ in users],
    )
    for i, user in enumerate(users):
        actor = owner_actor(user)
        memory = adding.memory_create(actor=actor, text=world.text(i, "seed", 0)).memory
        proposal_create(
            actor=actor, memory=memory, proposed_text=world.text(i, "proposed", 0), reason="model"
        )
        doomed = adding.memory_create(actor=actor, text=world.text(i, "deleted", 0)).memory
        deleting.memory_delete(actor=actor, memory_id=doomed.id)
        ImportRun.objects.create(
            owner=user,
            source="claude",
            extractor="none",
            filename=f"{world.markers[i]}.zip",
            estimate={"conversations": 1},
        )
    return world


def _rows(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return list(cur.fetchall())


def _state_of(owner_ids: list[int]) -> list[list[tuple[Any, ...]]]:
    """Everything a foreign attempt could change about these users, read straight from SQL."""
    return [
        _rows(
            "SELECT id, text, text_key, embedding::text, state, categories, is_private, "
            "hidden_from, superseded_by_id, updated_at, user_edited_at, metadata::text, "
            "trash_state, trash_batch_id, trashed_with_id, pinned_at "
            "FROM memories_memory WHERE owner_id = ANY(%s) ORDER BY id",
            [owner_ids],
        ),
        _rows(
            "SELECT id, memories_deleted, seen_at FROM memories_trashbatch "
            "WHERE owner_id = ANY(%s) ORDER BY id",
            [owner_ids],
        ),
        _rows(
            "SELECT id, memory_id, text, kind, reason FROM memories_memoryversion "
            "WHERE owner_id = ANY(%s) ORDER BY id",
            [owner_ids],
        ),
        _rows(
            "SELECT memory_id FROM memories_memorytombstone WHERE owner_id = ANY(%s) "
            "ORDER BY memory_id",
            [owner_ids],
        ),
        _rows(
            "SELECT id, action, memory_ids FROM memories_accessevent WHERE owner_id = ANY(%s) "
            "ORDER BY id",
            [owner_ids],
        ),
        _rows(
            "SELECT id, paused, revoked_at, scopes, categories, hidden_categories, "
            "sees_uncategorised FROM accounts_connectedapp WHERE owner_id = ANY(%s) ORDER BY id",
            [owner_ids],
        ),
        _rows(
            "SELECT id, status, filename, started_at FROM memories_importrun "
            "WHERE owner_id = ANY(%s) ORDER BY id",
            [owner_ids],
        ),
        _rows(
            "SELECT id, status, proposed_text, decided_at FROM memories_memoryproposal "
            "WHERE owner_id = ANY(%s) ORDER BY id",
            [owner_ids],
        ),
    ]


def _memory_ids(owner_id: int) -> list[uuid.UUID]:
    """The user's memory ids, live (the trash included) and purged (a deleted id must be as
    unknown as a random one), each once: a memory in the trash has its row and its tombstone."""
    live = _rows("SELECT id FROM memories_memory WHERE owner_id = %s ORDER BY id", [owner_id])
    gone = _rows(
        "SELECT memory_id FROM memories_memorytombstone WHERE owner_id = %s ORDER BY memory_id",
        [owner_id],
    )
    return list(dict.fromkeys(r[0] for r in live + gone))


def _live_ids(owner_id: int) -> list[uuid.UUID]:
    return [
        r[0]
        for r in _rows("SELECT id FROM memories_memory WHERE owner_id = %s ORDER BY id", [owner_id])
    ]


def _version_ids(owner_id: int, memory_id: uuid.UUID | None = None) -> list[int]:
    sql = "SELECT id FROM memories_memoryversion WHERE owner_id = %s"
    params: list[Any] = [owner_id]
    if memory_id is not None:
        sql += " AND memory_id = %s"
        params.append(memory_id)
    return [r[0] for r in _rows(sql + " ORDER BY id", params)]


def _ids(table: str, owner_id: int) -> list[Any]:
    sql = f"SELECT id FROM {table} WHERE owner_id = %s ORDER BY id"  # noqa: S608 - constant names
    return [r[0] for r in _rows(sql, [owner_id])]


class EntryPoint:
    """One front door: each method returns the raw answer as bytes, or None when the door has no
    such operation."""

    name = "door"

    def add(self, who: int, text: str) -> bytes:
        raise NotImplementedError

    def by_id(self, who: int, op: str, target: Target, step: int) -> bytes | None:
        raise NotImplementedError

    def sweep(self, who: int, op: str, query: str, step: int) -> bytes | None:
        raise NotImplementedError

    def import_file(self, who: int, content: bytes) -> bool:
        """Upload an export and run it to the end; False when the door has no imports."""
        return False


def _pick(items: list[Any], pick: int) -> Any:
    return items[pick % len(items)] if items else None


def run_script(entry_point: EntryPoint, world: World, script: list[Step]) -> None:
    for step, (who, op, whose, pick, word) in enumerate(script):
        whose = (who + whose - 2) % 3 if whose >= 3 else whose
        own = _live_ids(world.users[who].pk)
        if op == "add" or not own:
            entry_point.add(who, world.text(who, word, step))
        elif op in SWEEPS:
            _sweep(entry_point, world, who, op, pick, word, step)
        elif op == ECHO:
            _echo(entry_point, world, who, whose, pick, step)
        elif op == FORGE:
            _forge(entry_point, world, who, whose, pick, step)
        elif whose == who:  # an ordinary operation on the caller's own memory
            _on_own(entry_point, world, who, op, own, pick, world.text(who, word, step), step)
        else:
            text = world.text(who, word, step)
            _on_foreign(entry_point, world, who, op, whose, own, pick, text, step)


def _others(world: World, who: int) -> list[int]:
    return [u.pk for i, u in enumerate(world.users) if i != who]


def _sweep(
    entry_point: EntryPoint, world: World, who: int, op: str, pick: int, word: str, step: int
) -> None:
    """A search, list or export: no other tenant's marker or memory id in the answer."""
    me = world.users[who].pk
    # The query is a common word or another tenant's secret tag.
    query = world.tags[(who + 1 + pick % 2) % 3] if pick % 3 == 0 else word
    body = entry_point.sweep(who, op, query, step)
    if body is None:
        return
    world.attempts += 1
    # A marker the caller holds itself (copied by an echo step) is no secret to it.
    held = " ".join(r[0] for r in _rows(OWN_TEXTS, [me, me]))
    secrets = [world.markers[i] for i in range(3) if i != who]
    secrets = [m for m in secrets if m not in held]
    secrets += [str(m) for o in _others(world, who) for m in _memory_ids(o)]
    found = [f for f in secrets if f.encode() in body]
    if found:
        world.leaks.append(f"{entry_point.name} {op} by tenant {who} showed {found[:3]}")
    if op == "search":
        _search_is_blind_to_others(entry_point, world, who, (who + 1 + pick % 2) % 3, query, step)


def _on_own(
    entry_point: EntryPoint,
    world: World,
    who: int,
    op: str,
    own: list[uuid.UUID],
    pick: int,
    text: str,
    step: int,
) -> None:
    mid = _pick(own, pick)
    version = _pick(_version_ids(world.users[who].pk, mid), pick)
    mine = Target(mid, version or NEVER, NEVER, uuid.uuid4(), NEVER, text=text)
    if op in ("get", "update", "delete", "versions", "state", "bulk", "trash") or version:
        entry_point.by_id(who, op, mine, step)


def _foreign_and_random(
    op: str, victim: int, own: list[uuid.UUID], pick: int, text: str, step: int
) -> tuple[Target, Target, uuid.UUID | None]:
    """The victim's objects an operation names, the same operation's ids that never existed, and
    the victim's memory id named (None while the victim has none)."""
    mid = _pick(_memory_ids(victim), pick)
    never = NEVER + step
    random = Target(uuid.uuid4(), never, never, uuid.uuid4(), never, text=text)
    if op == "restore_mix":  # the caller's own memory, another tenant's version
        own_mid = _pick(own, pick)
        version = _pick(_version_ids(victim), pick)
        foreign = replace(random, memory_id=own_mid, version_id=version or never)
        random = replace(random, memory_id=own_mid)
    else:
        random = replace(random, own_id=_pick(own, pick) if op == "bulk" else None)
        foreign = replace(
            random,
            memory_id=mid or uuid.uuid4(),
            version_id=(_pick(_version_ids(victim, mid), pick) if mid else None) or never,
            app_id=_pick(_ids("accounts_connectedapp", victim), pick),
            run_id=_pick(_ids("memories_importrun", victim), pick),
            proposal_id=_pick(_ids("memories_memoryproposal", victim), pick),
            batch_id=_pick(_ids("memories_trashbatch", victim), pick) or uuid.uuid4(),
        )
    return foreign, random, mid


def _on_foreign(
    entry_point: EntryPoint,
    world: World,
    who: int,
    op: str,
    whose: int,
    own: list[uuid.UUID],
    pick: int,
    text: str,
    step: int,
) -> None:
    """Another tenant's object named: the answer is the one a never-existing id gets, and no
    row of the others (nor, for a batch, of the caller) changes."""
    me = world.users[who].pk
    others = _others(world, who)
    victim = world.users[whose].pk
    foreign, random, mid = _foreign_and_random(op, victim, own, pick, text, step)
    before = _state_of(others)
    own_before = _state_of([me])[:4]
    answer = entry_point.by_id(who, op, foreign, step)
    if answer is None or not (mid or op in ("app", "import", "proposal", "restore_mix")):
        return  # no such operation, or the victim has no memory yet to name
    world.attempts += 1
    control = entry_point.by_id(who, op, random, step)
    assert control is not None
    if _normalise(answer, foreign) != _normalise(control, random):
        world.leaks.append(
            f"{entry_point.name} {op} by tenant {who} on tenant {whose}'s object answered\n"
            f"{_normalise(answer, foreign)[:1500]!r}\nbut on a random id\n"
            f"{_normalise(control, random)[:1500]!r}"
        )
    if _state_of(others) != before:
        world.leaks.append(f"{entry_point.name} {op} by tenant {who} changed tenant {whose}'s rows")
    if op in ("bulk", "restore_mix") and _state_of([me])[:4] != own_before:
        # All or nothing: a batch naming a foreign id must not half-happen either.
        world.leaks.append(f"{entry_point.name} {op} with a foreign id changed the caller's rows")


CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value="|"x-csrftoken": ")[^"]+', re.IGNORECASE)


def _search_is_blind_to_others(
    entry_point: EntryPoint, world: World, who: int, other: int, query: str, step: int
) -> None:
    """Another tenant storing a text that matches the query must not move the caller's results
    or scores by a byte: ranking statistics are per tenant, never over the whole table. (The
    dashboard's per-render CSRF token is masked afresh each time, so its value is blanked.)"""
    before = entry_point.sweep(who, "search", query, step)
    entry_point.add(other, world.text(other, f"{query} {query}", step))
    after = entry_point.sweep(who, "search", query, step)
    assert before is not None and after is not None
    world.attempts += 1
    if CSRF.sub(rb"\1", before) != CSRF.sub(rb"\1", after):
        world.leaks.append(
            f"{entry_point.name} search by tenant {who} changed when tenant {other} stored"
            f" a match:\n"
            f"{before[-1500:]!r}\n{after[-1500:]!r}"
        )


OWN_TEXTS = (
    "SELECT text FROM memories_memory WHERE owner_id = %s "
    "UNION ALL SELECT text FROM memories_memoryversion WHERE owner_id = %s"
)


def _echo(
    entry_point: EntryPoint, world: World, who: int, whose: int, pick: int, step: int
) -> None:
    """Store another tenant's exact text: it must simply be stored for the caller (no "already
    known", no conflict: either would tell the caller that someone else holds that text)."""
    me, victim = world.users[who].pk, world.users[whose].pk
    theirs = _rows(
        "SELECT text FROM memories_memory WHERE owner_id = %s AND state = 'active' "
        "AND superseded_by_id IS NULL ORDER BY id",
        [victim],
    )
    if whose == who or not theirs:
        return
    echo = _pick(theirs, pick)[0]
    others = [u.pk for i, u in enumerate(world.users) if i != who]
    before = _state_of(others)
    # Own memories every door's actor sees (a client token does not see archived, private or
    # sensitive ones): the update must not fail for reasons of the caller's own.
    own = [
        r[0]
        for r in _rows(
            "SELECT id FROM memories_memory WHERE owner_id = %s AND state = 'active' "
            "AND superseded_by_id IS NULL AND NOT is_private AND cardinality(hidden_from) = 0 "
            "AND NOT (categories && %s::varchar[]) ORDER BY id",
            [me, sorted(SENSITIVE)],
        )
    ]
    if step % 2 and own:
        target = Target(_pick(own, pick), NEVER, NEVER, uuid.uuid4(), NEVER, text=echo)
        answer = entry_point.by_id(who, "update", target, step)
    else:
        answer = entry_point.add(who, echo)
    world.attempts += 1
    stored = _rows(
        "SELECT count(*) FROM memories_memory WHERE owner_id = %s AND text = %s", [me, echo]
    )
    if stored[0][0] == 0:
        world.leaks.append(
            f"{entry_point.name}: tenant {who} could not store tenant {whose}'s text: {answer!r}"
        )
    if _state_of(others) != before:
        world.leaks.append(
            f"{entry_point.name}: tenant {who} storing tenant {whose}'s text changed it"
        )


RUN_FIGURES = (
    "SELECT status, conversations_total, conversations_imported, conversations_skipped, "
    "conversations_failed, memories_created, memories_existing, messages_skipped_deleted, "
    "jsonb_array_length(errors) FROM memories_importrun WHERE owner_id = %s "
    "ORDER BY created_at DESC LIMIT 1"
)


def _export_naming(ids: list[uuid.UUID], texts: list[str]) -> bytes:
    """Our export format, its memories claiming these ids (and successors, and provenance)."""
    now = "2026-01-01T00:00:00+00:00"
    memories = [
        {
            "id": str(mid),
            "text": text,
            "created_at": now,
            "updated_at": now,
            "versions": [{"text": f"earlier {text}", "kind": "edit", "created_at": now}],
        }
        for mid, text in zip(ids, texts, strict=True)
    ]
    memories[-1]["superseded_by"] = str(ids[0])
    return json.dumps({"format": FORMAT, "version": VERSION, "memories": memories}).encode()


def _forge(
    entry_point: EntryPoint, world: World, who: int, whose: int, pick: int, step: int
) -> None:
    """An import naming another tenant's memory ids must do exactly what the same file naming
    random ids does (same counts, nothing skipped as "already imported"), touch nothing of the
    other tenant, and give the caller new ids of its own. The runs are compared by their
    recorded figures: the door's pages also show the file name and times."""
    me, victim = world.users[who].pk, world.users[whose].pk
    # An id the caller itself imported before is rightly "already imported" (its own manifest),
    # which a fresh random id is not: only ids new to the caller make a fair comparison.
    mine = {
        r[0]
        for r in _rows(
            "SELECT conversation_id FROM memories_importedconversation WHERE owner_id = %s", [me]
        )
    }
    theirs = [m for m in _memory_ids(victim) if str(m) not in mine]
    # Two different ids, as the random control has: a file naming one id twice fails the
    # repeat at the caller's own import manifest, whoever's id it is.
    if whose == who or len(theirs) < 2:
        return
    foreign = [_pick(theirs, pick), _pick(theirs, pick + 1), uuid.uuid4()]
    texts = [world.text(who, "imported", step) for _ in foreign]
    others = [u.pk for i, u in enumerate(world.users) if i != who]
    before = _state_of(others)
    if not entry_point.import_file(who, _export_naming(foreign, texts)):
        return
    world.attempts += 1
    forged = _rows(RUN_FIGURES, [me])
    assert forged[0][:3] == ("done", 3, 2), forged  # two restored, the superseded one skipped
    entry_point.import_file(
        who, _export_naming([uuid.uuid4() for _ in foreign], [f"{t} again" for t in texts])
    )
    control = _rows(RUN_FIGURES, [me])
    if forged != control:
        world.leaks.append(
            f"{entry_point.name}: import naming tenant {whose}'s ids: {forged} vs {control}"
        )
    if _state_of(others) != before:
        world.leaks.append(
            f"{entry_point.name}: import naming tenant {whose}'s ids changed its rows"
        )
    if any(m in _live_ids(me) for m in foreign):
        world.leaks.append(f"{entry_point.name}: import naming tenant {whose}'s ids reused an id")


def _report(world: World, entry_point: str) -> None:
    """The door's figures go to the report at the end of the run (tests/reliability/conftest.py)."""
    record_figures("isolation", entry_point, world.attempts, len(world.leaks))
    assert world.leaks == [], "\n\n".join(world.leaks[:5])
    assert world.attempts > 0


def in_process(
    entry_point: Callable[[World], EntryPoint],
) -> Callable[[World], Iterator[EntryPoint]]:
    """A door served in this process (Django's test client): nothing to start or stop."""

    def make(world: World) -> Iterator[EntryPoint]:
        yield entry_point(world)

    return make


def run_entry_point(make: Callable[[World], Iterator[EntryPoint]], examples: int) -> None:
    """One world and one session per user for the whole test; hypothesis drives the scripts."""
    world = _world()
    with contextmanager(make)(world) as entry_point:

        @budget(examples)
        @given(script=steps)
        def prop(script: list[Step]) -> None:
            run_script(entry_point, world, script)

        prop()
    _report(world, entry_point.name)
