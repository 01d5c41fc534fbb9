"""Property: a connected app learns nothing about a memory of its own user that it may not see —
by adding its text (one at a time or a hundred guesses per call), by updating a memory to it,
or by reading what it was given afterwards.

Probed through the real doors: MCP tools over Streamable HTTP (the real SDK client with a real
client token) and the REST API (a real client token, the same credential store as production).
Each door runs one script in two worlds that differ only in what the app may not see: the first
user holds four secrets (one marked private, one hidden from the app, one in a category the app
was not granted, one the owner deleted after the app had read it: in the trash), the second
holds none; the app knows the id of the deleted one (a random id in the second world). Every
answer of the script (the known id read and updated, add, add again, batch add, update, get of
each id handed out, list, search) must be byte-identical in both worlds once uuids are replaced
by placeholders in order of appearance and each timestamp by "new" or "old" (before the script
began). Afterwards the first user still holds each secret text exactly once as a memory, and
sees it once (the deleted one: still in the trash, as it was). Prints
`oracles[<door>]: attempts=N leaks=0`.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.actors import actor_for, owner_actor
from accounts.models import ConnectedApp, User
from memories.models import Memory
from memories.selectors.memories import memory_get, memory_list
from memories.services import adding, deleting, marks
from memories.text import text_key
from tests.mcpbridge.mcp_clients import McpHttp
from tests.personas import issue_token
from tests.reliability.observations import http_answer, record_figures

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

# The owner's secrets, how each is kept from the app, and the app's guess of each (equal after
# folding case, spaces and punctuation).
SECRETS = {
    "private": ("Had an abortion in March 2024", "had an ABORTION in march 2024!"),
    "hidden": ("Owes 40,000 euros to a loan shark", "owes 40000 euros to a loan shark"),
    "ungranted": ("Takes lithium for bipolar disorder", "Takes  lithium for bipolar disorder."),
    "trashed": ("Was fired from Initech in 2022", "was fired from initech in 2022"),
}
UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ISO = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")


@dataclass
class Transcript:
    start: datetime
    answers: list[tuple[str, bytes]] = field(default_factory=list)
    ids: dict[bytes, bytes] = field(default_factory=dict)

    def note(self, step: str, raw: bytes) -> bytes:
        """Record an answer in its normal form; return it raw, for the script to read ids."""
        self.answers.append((step, self.normal(raw)))
        return raw

    def normal(self, raw: bytes) -> bytes:
        raw = UUID.sub(lambda m: self.ids.setdefault(m.group(0), b"<id%d>" % len(self.ids)), raw)
        return ISO.sub(lambda m: b"new" if self._when(m.group(0)) >= self.start else b"old", raw)

    @staticmethod
    def _when(stamp: bytes) -> datetime:
        text = stamp.decode().replace("Z", "+00:00")
        when = datetime.fromisoformat(text)
        return when if when.tzinfo else timezone.make_aware(when)


class EntryPoint:
    name = "door"

    def add(self, text: str) -> bytes:
        raise NotImplementedError

    def add_many(self, texts: list[str]) -> bytes | None:
        return None

    def update(self, memory_id: str, text: str) -> bytes:
        raise NotImplementedError

    def get(self, memory_id: str) -> bytes:
        raise NotImplementedError

    def list(self) -> bytes:
        raise NotImplementedError

    def search(self, query: str) -> bytes:
        raise NotImplementedError


class McpEntryPoint(EntryPoint):
    name = "mcp-http"

    def __init__(self, client: McpHttp) -> None:
        self.client = client

    def _call(self, tool: str, arguments: dict[str, Any]) -> bytes:
        return self.client.call(tool, arguments).model_dump_json(by_alias=True).encode()

    def add(self, text: str) -> bytes:
        return self._call("add_memory", {"text": text})

    def add_many(self, texts: list[str]) -> bytes | None:
        return self._call("add_memories", {"texts": texts})

    def update(self, memory_id: str, text: str) -> bytes:
        return self._call("update_memory", {"memory_id": memory_id, "text": text})

    def get(self, memory_id: str) -> bytes:
        return self._call("get_memory", {"memory_id": memory_id})

    def list(self) -> bytes:
        result = self.client.call("list_memories", {"limit": 100})
        assert result.structured_content is not None
        return _by_text(result.structured_content["memories"])

    def search(self, query: str) -> bytes:
        return self._call("search_memory", {"query": query, "limit": 20})


class ApiEntryPoint(EntryPoint):
    name = "api"

    def __init__(self, secret: str) -> None:
        self.client = Client(headers={"Authorization": f"Bearer {secret}"})

    def add(self, text: str) -> bytes:
        return http_answer(
            self.client.post("/api/v1/memories", {"text": text}, content_type="application/json")
        )

    def update(self, memory_id: str, text: str) -> bytes:
        return http_answer(
            self.client.patch(
                f"/api/v1/memories/{memory_id}", {"text": text}, content_type="application/json"
            )
        )

    def get(self, memory_id: str) -> bytes:
        return http_answer(self.client.get(f"/api/v1/memories/{memory_id}"))

    def list(self) -> bytes:
        response = self.client.get("/api/v1/memories", {"state": "all", "limit": "200"})
        assert response.status_code == 200, response.content
        return _by_text(response.json()["items"])

    def search(self, query: str) -> bytes:
        return http_answer(self.client.get("/api/v1/memories/search", {"q": query, "limit": "50"}))


def _by_text(memories: list[dict[str, Any]]) -> bytes:
    """A listed page, ordered by text: memories added in one batch share their creation time, so
    a list orders them by their random ids, which differ between any two runs."""
    return json.dumps(sorted(memories, key=lambda m: m["text"]), sort_keys=True).encode()


def _first_id(raw: bytes) -> str:
    found = UUID.search(raw.split(b"\n\n", 1)[-1])
    assert found, raw
    return found.group(0).decode()


def script(entry_point: EntryPoint, transcript: Transcript, known: str) -> None:
    """The app's probes: the id it read before the owner deleted it (a random one in the world
    without secrets), read and written; every guess added, re-added, added in a batch, and
    written over one of its own memories and over one of the owner's; then everything it was
    given, read back."""
    note = transcript.note
    note("get the deleted one", entry_point.get(known))
    note("update the deleted one", entry_point.update(known, "Works at Initech"))
    guesses = [guess for _, guess in SECRETS.values()]
    for guess in guesses:
        note("add", entry_point.add(guess))
        note("add again", entry_point.add(guess))
    batch = entry_point.add_many(
        [*guesses, "Plays the oboe", "Had a tooth out in 2023", guesses[0]]
    )
    if batch is not None:
        note("add a batch of guesses", batch)
    owners = _first_id(entry_point.search("jazz"))
    for n, guess in enumerate(guesses):
        mine = _first_id(entry_point.add(f"Went to the dentist {n} times"))
        note(f"update own to {n}", entry_point.update(mine, guess))
        note(f"read own after update to {n}", entry_point.get(mine))
    note("update the owner's", entry_point.update(owners, guesses[1]))
    note("read the owner's after update", entry_point.get(owners))
    for raw_id in list(transcript.ids):  # every id the app was ever handed
        note("get", entry_point.get(raw_id.decode()))
    note("list", entry_point.list())
    for query in ("abortion", "loan shark", "lithium bipolar"):
        note(f"search {query}", entry_point.search(query))


def _world(with_secrets: bool) -> tuple[User, ConnectedApp, str, str]:
    """A user with a visible memory and a client token (the default grant: no sensitive
    category); the secrets too if asked. Also an id the app knows: the memory it read before the
    owner deleted it, or (without secrets) an id that never existed."""
    user = User.objects.create_user(f"oracle-{uuid.uuid4().hex[:8]}@example.com")
    owner = owner_actor(user)
    adding.memory_create(actor=owner, text="Likes jazz", categories=["hobbies"])
    issued = issue_token(
        user,
        name="Cursor",
        scopes=["read", "write"],
    )
    app = issued.token.app
    known = str(uuid.uuid4())
    if with_secrets:
        for how, (secret, _) in SECRETS.items():
            cats = ["health"] if how == "ungranted" else ["personal"]
            memory = adding.memory_create(actor=owner, text=secret, categories=cats).memory
            if how == "private":
                marks.memory_set_visibility(actor=owner, memory_id=memory.id, private=True)
            elif how == "hidden":
                marks.memory_set_visibility(actor=owner, memory_id=memory.id, hide_from_app=app.pk)
            elif how == "trashed":
                memory_get(actor=actor_for(user, app), memory_id=memory.id)  # the app read it
                deleting.memory_delete(actor=owner, memory_id=memory.id)
                known = str(memory.id)
    return user, app, issued.secret, known


def _probe(make_entry_point: Callable[[str], EntryPoint]) -> None:
    """The same script with and without the secrets; its figures go to the end-of-run report."""
    transcripts, users = [], []
    for with_secrets in (True, False):
        user, _, secret, known = _world(with_secrets)
        transcript = Transcript(start=timezone.now())
        entry_point = make_entry_point(secret)
        script(entry_point, transcript, known)
        transcripts.append(transcript)
        users.append(user)
    secret_run, plain_run = transcripts
    assert [s for s, _ in secret_run.answers] == [s for s, _ in plain_run.answers]
    leaks = [
        f"{step}:\n{a[:1200]!r}\nwithout the secret:\n{b[:1200]!r}"
        for (step, a), (_, b) in zip(secret_run.answers, plain_run.answers, strict=True)
        if a != b
    ]
    # The store still holds each secret once as a memory, and the owner sees it once.
    owner = owner_actor(users[0])
    shown = [m.text for m in memory_list(actor=owner, limit=200).items]
    for how, (secret, _) in SECRETS.items():
        key = text_key(secret)
        if how == "trashed":  # the owner's delete stands: in the trash, not brought back
            kept = Memory.objects.filter(owner=users[0], text=secret, state="trashed")
            if kept.count() != 1 or secret in shown:
                leaks.append(f"the owner's deleted {secret!r} is not in the trash as it was")
            continue
        canonical = Memory.objects.filter(
            owner=users[0], text_key=key, state="active", superseded_by=None, echo_of=None
        )
        if [m.text for m in canonical] != [secret] or [t for t in shown if text_key(t) == key] != [
            secret
        ]:
            leaks.append(f"the owner's {secret!r} is not held and shown exactly once")
    name = make_entry_point("x").name
    record_figures("oracles", name, len(secret_run.answers), len(leaks))
    assert leaks == [], "\n\n".join(leaks[:3])


def test_an_app_learns_nothing_of_hidden_memories_through_mcp(
    server_url: str,
) -> None:
    _probe(lambda secret: McpEntryPoint(McpHttp(server_url, secret)))


def test_an_app_learns_nothing_of_hidden_memories_through_the_rest_api() -> None:
    _probe(ApiEntryPoint)
