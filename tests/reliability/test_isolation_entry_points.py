"""Property: through every front door, no user ever reads, changes or learns of the existence of
another user's memory, memory version, connected app, proposal or import.

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
import logging
import re
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import anyio
import httpx2
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from mcp.client import Client as McpClient
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from accounts.actors import owner_actor
from accounts.models import User
from memories.categories.vocabulary import SENSITIVE
from memories.ingest.own_export import FORMAT, VERSION
from memories.services import adding, deleting
from memories.services.proposals import proposal_create
from memories.transfer_models import ImportRun
from tests.mcpbridge.mcp_clients import stdio_server
from tests.personas import issue_token, signed_in
from tests.reliability.observations import http_answer, record_figures

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]
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
    users = world.users
    for step, (who, op, whose, pick, word) in enumerate(script):
        whose = (who + whose - 2) % 3 if whose >= 3 else whose
        me = users[who].pk
        own = _live_ids(me)
        if op == "add" or not own:
            entry_point.add(who, world.text(who, word, step))
            continue
        others = [u.pk for i, u in enumerate(users) if i != who]
        if op in SWEEPS:
            # The query is a common word or another tenant's secret tag.
            query = world.tags[(who + 1 + pick % 2) % 3] if pick % 3 == 0 else word
            body = entry_point.sweep(who, op, query, step)
            if body is None:
                continue
            world.attempts += 1
            # A marker the caller holds itself (copied by an echo step) is no secret to it.
            held = " ".join(r[0] for r in _rows(OWN_TEXTS, [me, me]))
            secrets = [world.markers[i] for i in range(3) if i != who]
            secrets = [m for m in secrets if m not in held]
            secrets += [str(m) for o in others for m in _memory_ids(o)]
            found = [f for f in secrets if f.encode() in body]
            if found:
                world.leaks.append(f"{entry_point.name} {op} by tenant {who} showed {found[:3]}")
            if op == "search":
                _search_is_blind_to_others(
                    entry_point, world, who, (who + 1 + pick % 2) % 3, query, step
                )
            continue
        text = world.text(who, word, step)
        if op == ECHO:
            _echo(entry_point, world, who, whose, pick, step)
            continue
        if op == FORGE:
            _forge(entry_point, world, who, whose, pick, step)
            continue
        if whose == who:  # an ordinary operation on the caller's own memory
            mid = _pick(own, pick)
            version = _pick(_version_ids(me, mid), pick)
            mine = Target(mid, version or NEVER, NEVER, uuid.uuid4(), NEVER, text=text)
            if op in ("get", "update", "delete", "versions", "state", "bulk", "trash") or version:
                entry_point.by_id(who, op, mine, step)
            continue
        victim = users[whose].pk
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
        before = _state_of(others)
        own_before = _state_of([me])[:4]
        answer = entry_point.by_id(who, op, foreign, step)
        if answer is None or not (mid or op in ("app", "import", "proposal", "restore_mix")):
            continue  # no such operation, or the victim has no memory yet to name
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
            world.leaks.append(
                f"{entry_point.name} {op} by tenant {who} changed tenant {whose}'s rows"
            )
        if op in ("bulk", "restore_mix") and _state_of([me])[:4] != own_before:
            # All or nothing: a batch naming a foreign id must not half-happen either.
            world.leaks.append(
                f"{entry_point.name} {op} with a foreign id changed the caller's rows"
            )


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


@pytest.fixture(autouse=True)
def quiet_audit_log(settings: Any) -> Iterator[None]:
    """The audit log's per-call lines (stdout) would drown the figures; generous rate limits so
    the property, not the abuse limiter, decides every answer."""
    settings.RATE_LIMITS = {scope: "100000/m" for scope in settings.RATE_LIMITS}
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    audit = logging.getLogger("contextlayer.audit")
    level = audit.level
    audit.setLevel(logging.WARNING)
    yield
    audit.setLevel(level)


# ---- MCP (Streamable HTTP and stdio) -------------------------------------------------------------


class McpEntryPoint(EntryPoint):
    """One long-lived MCP SDK client session per user, driven from this thread via a portal."""

    def __init__(self, name: str, portal: BlockingPortal, clients: list[McpClient]) -> None:
        self.name, self.portal, self.clients = name, portal, clients

    def call(self, who: int, tool: str, arguments: dict[str, Any]) -> bytes:
        result = self.portal.call(self.clients[who].call_tool, tool, arguments)
        return result.model_dump_json(by_alias=True).encode()

    def add(self, who: int, text: str) -> bytes:
        return self.call(who, "add_memory", {"text": text})

    # MCP has no versions, restore, state or app tools: those steps read, change or delete.
    TOOL = {"versions": "get", "restore": "update", "state": "update", "bulk": "delete"}
    TOOL |= {"app": "get", "import": "get", "proposal": "update"}

    def by_id(self, who: int, op: str, target: Target, step: int) -> bytes | None:
        mid = str(target.memory_id)
        op = self.TOOL.get(op, op)
        if op == "get":
            return self.call(who, "get_memory", {"memory_id": mid})
        if op == "update":
            return self.call(who, "update_memory", {"memory_id": mid, "text": target.text})
        if op == "delete":
            return self.call(who, "delete_memory", {"memory_id": mid})
        return None  # restore_mix names the caller's own memory

    def sweep(self, who: int, op: str, query: str, step: int) -> bytes | None:
        if op == "list" or (op == "export" and step % 2):  # no export tool: list or search
            return self.call(who, "list_memories", {"limit": 100})
        return self.call(who, "search_memory", {"query": query, "limit": 50})


@asynccontextmanager
async def _http_session(url: str, token: str) -> AsyncIterator[McpClient]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
        McpClient(streamable_http_client(f"{url}/mcp", http_client=http), mode="legacy") as c,
    ):
        yield c


@asynccontextmanager
async def _stdio_session(params: StdioServerParameters) -> AsyncIterator[McpClient]:
    async with McpClient(params, mode="legacy") as c:
        yield c


@asynccontextmanager
async def _all_open(sessions: list[Any]) -> AsyncIterator[list[McpClient]]:
    """Open the sessions concurrently (a stdio server takes seconds to start) and keep them
    open until exit; each is entered and left in its own task, as anyio requires."""
    clients: list[McpClient | None] = [None] * len(sessions)
    ready = [anyio.Event() for _ in sessions]
    done = anyio.Event()

    async def hold(i: int) -> None:
        async with sessions[i] as client:
            clients[i] = client
            ready[i].set()
            await done.wait()

    async with anyio.create_task_group() as tg:
        for i in range(len(sessions)):
            tg.start_soon(hold, i)
        for event in ready:
            await event.wait()
        try:
            yield [c for c in clients if c is not None]
        finally:
            done.set()


def _mcp_entry_point(name: str, sessions: list[Any]) -> Iterator[McpEntryPoint]:
    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(_all_open(sessions)) as clients,
    ):
        yield McpEntryPoint(name, portal, clients)


def _in_process(
    entry_point: Callable[[World], EntryPoint],
) -> Callable[[World], Iterator[EntryPoint]]:
    """A door served in this process (Django's test client): nothing to start or stop."""

    def make(world: World) -> Iterator[EntryPoint]:
        yield entry_point(world)

    return make


def _run_entry_point(make: Callable[[World], Iterator[EntryPoint]], examples: int) -> None:
    """One world and one session per user for the whole test; hypothesis drives the scripts."""
    world = _world()
    with contextmanager(make)(world) as entry_point:

        @budget(examples)
        @given(script=steps)
        def prop(script: list[Step]) -> None:
            run_script(entry_point, world, script)

        prop()
    _report(world, entry_point.name)


@through_an_entry_point
def test_mcp_over_http_never_shows_or_changes_another_tenants_memory(
    server_url: str,
) -> None:
    def make(world: World) -> Iterator[EntryPoint]:
        tokens = [issue_token(u, name="Cursor", scopes=list(SCOPES)).secret for u in world.users]
        yield from _mcp_entry_point("mcp-http", [_http_session(server_url, t) for t in tokens])

    _run_entry_point(make, 8)


@through_an_entry_point
def test_mcp_over_stdio_never_shows_or_changes_another_tenants_memory() -> None:
    def make(world: World) -> Iterator[EntryPoint]:
        yield from _mcp_entry_point(
            "mcp-stdio", [_stdio_session(stdio_server(u.email)) for u in world.users]
        )

    _run_entry_point(make, 6)


# ---- REST API (client token and session) -----------------------------------------------------


class ApiEntryPoint(EntryPoint):
    """Memory routes alternate between a client token and the signed-in session; export and
    apps are owner-only, so they go through the session."""

    name = "api"

    def __init__(self, world: World) -> None:
        self.tokens, self.sessions = [], []
        for user in world.users:
            issued = issue_token(
                user,
                name="script",
                scopes=["read", "write", "delete"],
            )
            self.tokens.append(Client(headers={"Authorization": f"Bearer {issued.secret}"}))
            session = signed_in(user)
            self.sessions.append(session)

    def add(self, who: int, text: str) -> bytes:
        response = self.sessions[who].post(
            "/api/v1/memories", {"text": text}, content_type="application/json"
        )
        assert response.status_code in (200, 201), response.content  # 200: an echo repeated
        return http_answer(response)

    def by_id(self, who: int, op: str, target: Target, step: int) -> bytes | None:
        c = self.tokens[who] if step % 2 else self.sessions[who]
        url = f"/api/v1/memories/{target.memory_id}"
        j = "application/json"
        if op == "get":
            r = c.get(url)
        elif op == "update":
            r = c.patch(url, {"text": target.text, "reason": "adversary"}, content_type=j)
        elif op == "delete":
            r = c.delete(url)
        elif op == "versions" and step % 3 == 2:  # the access log filtered by that memory
            r = self.sessions[who].get(
                "/api/v1/access-events", {"memory_id": str(target.memory_id)}
            )
        elif op == "versions":
            r = c.get(f"{url}/versions")
        elif op in ("restore", "restore_mix"):
            r = c.post(f"{url}/versions/{target.version_id}/restore")
        elif op == "state" and step % 4 == 3:  # pin or unpin: the session, and a token (403)
            pinner = self.sessions[who] if step % 8 == 3 else c
            r = pinner.post(f"{url}/pin") if step % 16 < 8 else pinner.delete(f"{url}/pin")
        elif op == "state":
            body = [{"state": "archived"}, {"categories": ["work"]}, {"private": True}][step % 3]
            r = c.patch(url, body, content_type=j)
        elif op == "bulk":
            ids = [str(m) for m in target.memory_ids]
            if step % 2:
                r = c.post("/api/v1/memories/bulk/delete", {"memory_ids": ids}, content_type=j)
            else:
                payload = {"memory_ids": ids, "state": "paused"}
                r = c.post("/api/v1/memories/bulk/state", payload, content_type=j)
        elif op == "trash":  # the owner's routes: the session
            s, ids = self.sessions[who], [str(m) for m in target.memory_ids]
            r = [
                lambda: s.post("/api/v1/trash/restore", {"memory_ids": ids}, content_type=j),
                lambda: s.post(
                    "/api/v1/trash/restore", {"batch": str(target.batch_id)}, content_type=j
                ),
                lambda: s.post("/api/v1/trash/delete", {"memory_ids": ids}, content_type=j),
                lambda: s.post(
                    "/api/v1/trash/delete", {"batch": str(target.batch_id)}, content_type=j
                ),
            ][step % 4]()
        elif op == "app" and step % 4 == 3:  # the access log filtered by that app
            r = self.sessions[who].get("/api/v1/access-events", {"app_id": target.app_id})
        elif op == "app":
            action = ["pause", "resume", "revoke"][step % 4]
            r = self.sessions[who].post(f"/api/v1/apps/{target.app_id}/{action}")
        elif op in ("import", "proposal"):  # the API has no proposals: imports twice as often
            run = f"/api/v1/imports/{target.run_id}"
            if step % 3 == 0:
                r = c.get(run)
            else:  # start it, or redo it (import it again, replacing the earlier import)
                r = self.sessions[who].post(f"{run}/{'start' if step % 3 == 2 else 'redo'}")
        else:
            return None
        return http_answer(r)

    def import_file(self, who: int, content: bytes) -> bool:
        file = SimpleUploadedFile("export.json", content, content_type="application/json")
        created = self.sessions[who].post("/api/v1/imports", {"file": file, "source": "auto"})
        assert created.status_code == 201, created.content
        started = self.sessions[who].post(f"/api/v1/imports/{created.json()['id']}/start")
        assert started.status_code == 202, started.content
        return True

    def sweep(self, who: int, op: str, query: str, step: int) -> bytes | None:
        c = self.tokens[who] if step % 2 else self.sessions[who]
        if op == "search":
            r = c.get("/api/v1/memories/search", {"q": query, "limit": "100"})
        elif op == "list" and step % 3 == 0:
            r = c.get("/api/v1/memories", {"state": "all", "limit": "200"})
        elif op == "list":
            pages = ["/api/v1/imports", "/api/v1/access-events", "/api/v1/trash"]
            r = self.sessions[who].get(pages[(step + step // 3) % 3])
        else:
            r = self.sessions[who].post("/api/v1/export" + ("/markdown" if step % 2 else ""))
        assert r.status_code == 200, r.content
        return http_answer(r)


@through_an_entry_point
def test_rest_api_never_shows_or_changes_another_tenants_memory() -> None:
    _run_entry_point(_in_process(ApiEntryPoint), 10)


# ---- Dashboard views and dashboard export ------------------------------------------------------


class DashboardEntryPoint(EntryPoint):
    """A signed-in browser per user; every other step is an htmx request (fragments)."""

    name = "dashboard"

    def __init__(self, world: World) -> None:
        self.clients = []
        for user in world.users:
            client = signed_in(user)
            self.clients.append(client)

    def add(self, who: int, text: str) -> bytes:
        response = self.clients[who].post("/memories/add/", {"text": text, "categories": ""})
        assert response.status_code == 302, response.content
        return http_answer(response)

    def by_id(self, who: int, op: str, target: Target, step: int) -> bytes | None:
        c = self.clients[who]
        hx = {"HX-Request": "true"} if step % 2 else {}
        url = f"/memories/{target.memory_id}/"
        if op == "get":
            r = c.get(url + ["", "row/", "delete/"][step % 3], headers=hx)
        elif op == "versions":
            r = c.get(url + "edit/", headers=hx)
        elif op == "update":
            r = c.post(url + "edit/", {"text": target.text}, headers=hx)
        elif op == "delete":
            r = c.post(url + "delete/", headers=hx)
        elif op in ("restore", "restore_mix"):
            r = c.post(f"{url}versions/{target.version_id}/restore/", headers=hx)
        elif op == "state" and step % 4 == 3:
            r = c.post(url + "pin/", {"pinned": "on" if step % 8 == 3 else "off"}, headers=hx)
        elif op == "state":
            if step % 3 == 2:
                r = c.post(url + "categories/", {"categories": "work"}, headers=hx)
            else:
                r = c.post(url + "state/", {"state": ["archived", "paused"][step % 2]}, headers=hx)
        elif op == "bulk":
            action = ["delete", "archived", "categories"][step % 3]
            data = {
                "action": action,
                "ids": [str(m) for m in target.memory_ids],
                "categories": "work",
                "confirm": "on" if step % 2 else "",
            }
            r = c.post("/memories/bulk/", data, headers=hx)
        elif op == "trash":
            ids = {"ids": [str(m) for m in target.memory_ids]}
            batch = {"batch": str(target.batch_id)}
            confirm = {"confirm": "on"} if step % 2 else {}
            r = [
                lambda: c.post("/trash/restore/", ids),
                lambda: c.post("/trash/restore/", batch),
                lambda: c.post("/trash/delete/", {**ids, **confirm}),
                lambda: c.post("/trash/delete/", {**batch, **confirm}),
                lambda: c.post(f"/trash/{target.batch_id}/seen/"),
            ][step % 5]()
        elif op == "app":
            action = ["pause", "resume", "revoke", "edit", "edit"][step % 5]
            path = f"/apps/{target.app_id}/{action}"
            if action != "edit":
                r = c.post(path)
            elif step % 2:  # widen the other tenant's grant
                r = c.post(
                    path,
                    {
                        "scopes": list(SCOPES),
                        "categories": ["health", "finance"],
                        "sees_uncategorised": "on",
                    },
                )
            else:
                r = c.get(path)
        elif op == "import":
            run = f"/import/{target.run_id}/"
            r = c.post(run + "start/") if step % 3 == 2 else c.get(run, headers=hx)
        elif op == "proposal":
            decision = "accept" if step % 2 else "decline"
            r = c.post(f"/review/{target.proposal_id}/{decision}", headers=hx)
        else:
            return None
        return http_answer(r)

    def import_file(self, who: int, content: bytes) -> bool:
        file = SimpleUploadedFile("export.json", content, content_type="application/json")
        created = self.clients[who].post("/import/", {"file": file, "source": "auto"})
        assert created.status_code == 302, created.content
        started = self.clients[who].post(created["Location"] + "start/")
        assert started.status_code == 302, started.content
        return True

    def sweep(self, who: int, op: str, query: str, step: int) -> bytes | None:
        c = self.clients[who]
        hx = {"HX-Request": "true"} if step % 2 else {}
        if op == "search":
            r = c.get("/", {"q": query}, headers=hx)
        elif op == "list" and step % 3 == 0:
            r = c.get("/", {"state": "all"}, headers=hx)
        elif op == "list":  # every other page that lists the signed-in user's things
            pages = ["/import/", "/review/", "/activity/", "/map/", "/stats/", "/apps/", "/trash/"]
            r = c.get(pages[(step + step // 3) % len(pages)])
        else:
            r = c.post("/export/", {"format": "markdown" if step % 2 else "json"})
        assert r.status_code == 200, r.content
        return http_answer(r)


@through_an_entry_point
def test_dashboard_never_shows_or_changes_another_tenants_memory() -> None:
    _run_entry_point(_in_process(DashboardEntryPoint), 10)
