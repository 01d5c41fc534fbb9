"""Writes. Every function is keyword-only, takes an explicit actor, checks consent, records an
access event and keeps version history. Entry points only parse input and map domain errors."""

from __future__ import annotations

import dataclasses
import json
import uuid
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop
from pgvector.psycopg.vector import register_vector_info
from psycopg.types import TypeInfo

from accounts.actors import Actor
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.category_names import category_name
from kernel.errors import Conflict, InvalidInput, NotFound, UserEdited
from kernel.gates import SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE, require, require_owner
from memories import write_budget
from memories.categories import UNCHECKED
from memories.models import (
    LIVE_STATES,
    UNSHOWN_COLUMNS,
    Memory,
    MemoryState,
    MemoryVersion,
    Origin,
)
from memories.ownership import check_relabel, mark_changed_by, protected_categories, reclassified
from memories.search import lexical, moves, second_arm
from memories.search.embeddings import current_model, get_embedder
from memories.search.scoring import _vector_literal
from memories.selectors.memories import get_visible, parse_memory_id, readers_of
from memories.selectors.pending import PendingWrite
from memories.services import app_review, harm, reconcile_local, trash
from memories.services import categories as user_categories
from memories.text import clean_text, text_key
from memories.visibility import dedup_q, hidden_categories, sensitive_categories, visible_q
from memories.wording import category_names


@dataclass(frozen=True)
class NewMemory:
    """One memory to add. `created_at` is for imports that restore original timestamps."""

    text: str
    categories: Sequence[str] = ()
    provenance: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    created_at: datetime | None = None
    state: str = MemoryState.ACTIVE


@dataclass(frozen=True)
class WriteResult:
    memory: Memory
    created: bool  # False: an identical active memory already existed and is returned instead
    # Held for the owner's review (memories/services/app_review.py): nothing was stored; `memory` is
    # the memory it would change (a supersede), or an unsaved stand-in for an add.
    pending: PendingWrite | None = None
    # What the writer is told about credentials or an instruction in its text
    # (memories/services/harm.py); "" when there was none.
    note: str = ""
    # Nothing was stored: an app's text held only credentials (`memory` is an unsaved stand-in).
    dropped: bool = False


@dataclass(frozen=True)
class ChangeResult:
    memory: Memory
    # For an app: where its change left the memory, when that is out of its grant or its sight
    # (`readback_note`); the same sentence through every entry point.
    note: str = ""
    pending: PendingWrite | None = None  # held for the owner's review: unchanged


@dataclass(frozen=True)
class DeleteResult:
    memory_id: uuid.UUID
    # Apps that had read it, for the owner's own apps (we cannot make them forget, but the owner
    # must know); None for an app, which is not told which other apps the owner connected.
    read_by: list[str] | None
    # The delete it went to the trash with (an undo restores the batch); None while held.
    trash_batch: uuid.UUID | None
    pending: PendingWrite | None = None  # held for the owner's review: not deleted

    @property
    def batch_id(self) -> uuid.UUID:
        """The trash batch of a delete that happened (a held one has none: ask `pending`)."""
        if self.trash_batch is None:
            raise ValueError("This delete waits for the owner's review; nothing is in the trash.")
        return self.trash_batch


def _origin_for(app: ConnectedApp) -> str:
    if app.kind == ConnectedApp.Kind.BUILTIN:
        return {
            ConnectedApp.DASHBOARD: Origin.DASHBOARD,
            ConnectedApp.API: Origin.API,
            ConnectedApp.CLI: Origin.CLI,
        }.get(app.name, Origin.APP)
    if app.kind == ConnectedApp.Kind.IMPORT:
        return Origin.IMPORT
    return Origin.APP


def clean_categories(categories: Iterable[str] | None) -> list[str]:
    """Category names as given at an entry point, folded to their one form (blank ones left out)."""
    if categories is None:
        return []
    out: list[str] = []
    for raw in categories:
        if isinstance(raw, str) and not raw.strip():
            continue
        slug = category_name(raw)
        if slug not in out:
            out.append(slug)
    return out


def new_category_names(
    actor: Actor, given: Sequence[list[str]]
) -> list[user_categories.NewCategory]:
    """The names among these writes' (clean) categories that are new to the user's vocabulary,
    with what they mean: a new name that means a sensitive category starts sensitive
    (fullwidth "health" is health; "medical" is a new sensitive category), so no app's grant
    covers it. Whether the writer may use them is `memories/ownership.py`'s question."""
    return user_categories.new_categories(actor.user, [c for cats in given for c in cats])


def _hold_categories(actor: Actor, labels: Iterable[str]) -> None:
    """Lock the user's own categories these labels name until the write commits (a concurrent
    rename, merge or delete waits); refuse the write if one went away meanwhile."""
    if user_categories.categories_lock(actor, labels):
        raise Conflict(
            gettext_noop("The categories changed while this was being stored; try again.")
        )


# What the batch INSERT writes in each column of memories_memory: `u.<alias>` is this row's
# element of a per-row array (_ROW_ARRAYS), `%(name)b` a parameter of the whole batch. Every
# column of Memory is named here (tests/memories/test_services.py holds the two to each other),
# and `_built_memory` reads the same parameters back into the instance the caller gets.
_INSERT_COLUMNS: dict[str, str] = {
    "id": "u.id",
    "owner_id": "%(owner)b",
    "text": "u.text",
    "text_key": "u.key",
    "embedding": "u.emb",
    "embedding_model": "%(model)b",
    "tsv": "memory_tsvector(u.cfg::regconfig, u.prefix, coalesce(u.body, u.app_text, u.text))",
    "app_text": "u.app_text",
    "harm_hold": "''",
    "owner_confirmed_at": "NULL",
    "language": "u.lang",
    "state": "u.state",
    "categories": "ARRAY(SELECT jsonb_array_elements_text(u.cats))::varchar[]",
    "categories_set_by_user": "u.cats_user",
    "is_private": "u.private",
    "hidden_from": "'{}'",
    "seen_only_by": "NULL",
    "origin": "%(origin)b",
    "origin_app_id": "%(app)b",
    "origin_app_name": "%(app_name)b",
    "provenance": "u.prov",
    "metadata": "u.meta",
    "user_edited_at": "NULL",
    "changed_by_app_id": "NULL",
    "changed_by_name": "''",
    "changed_at": "NULL",
    "superseded_by_id": "NULL",
    "echo_of_id": "nullif(u.echo_of, '')::uuid",
    "echo_app_id": "CASE WHEN u.echo_of = '' THEN NULL ELSE %(app)b::bigint END",
    "trash_state": "''",
    "trash_batch_id": "NULL",
    "trashed_with_id": "NULL",
    "pinned_at": "NULL",
    "created_at": "u.created",
    "updated_at": "%(now)b",
}
# The per-row arrays, in unnest order: parameter → (element type, alias in `u`).
_ROW_ARRAYS: dict[str, tuple[str, str]] = {
    "ids": ("uuid", "id"),
    "texts": ("text", "text"),
    "keys": ("text", "key"),
    "embs": ("vector", "emb"),
    "states": ("text", "state"),
    "cats": ("jsonb", "cats"),
    "cats_user": ("bool", "cats_user"),
    "provs": ("jsonb", "prov"),
    "metas": ("jsonb", "meta"),
    "created": ("timestamptz", "created"),
    "echo_of": ("text", "echo_of"),
    "app_texts": ("text", "app_text"),
    "privates": ("bool", "private"),
    "langs": ("text", "lang"),
    "cfgs": ("text", "cfg"),
    "prefixes": ("text", "prefix"),
    "bodies": ("text", "body"),  # NULL: the text as it is (memories/search/lexical.py)
}
_ROW_PARAMS = tuple(_ROW_ARRAYS)
# Built from the constants above only; every value is bound as a parameter.
_INSERT_SQL = f"""
INSERT INTO memories_memory ({", ".join(_INSERT_COLUMNS)})
SELECT {", ".join(_INSERT_COLUMNS.values())}
FROM unnest({", ".join(f"%({name})b::{kind}[]" for name, (kind, _) in _ROW_ARRAYS.items())})
     AS u({", ".join(alias for _, alias in _ROW_ARRAYS.values())})
ON CONFLICT (owner_id, text_key)
    WHERE state = 'active' AND superseded_by_id IS NULL AND echo_of_id IS NULL
DO NOTHING
RETURNING id
"""  # noqa: S608


# The `vector` type's catalogue entry, read once per database connection: every write runs
# two INSERTs, and reading it again each time was a round trip apiece (an import of 1,000
# memories in 250 conversations made 500 of them; bench backfill).
_vector_types: weakref.WeakKeyDictionary[psycopg.Connection[Any], TypeInfo] = (
    weakref.WeakKeyDictionary()
)


def _vector_type(raw: psycopg.Connection[Any]) -> TypeInfo | None:
    info = _vector_types.get(raw)
    if info is None:
        info = TypeInfo.fetch(raw, "vector")
        if info is not None:
            _vector_types[raw] = info
    return info


def _insert_rows(params: dict[str, Any]) -> set[uuid.UUID]:
    """Run the batch INSERT with server-side binding and binary vectors.

    Django's cursor binds client-side, which means formatting 384 floats per row as text and
    quoting every array element in Python: more time than the SQL itself (bench add). Here
    every parameter goes binary (`%(name)b`).
    """
    connection.ensure_connection()
    raw = connection.connection
    with psycopg.Cursor(raw) as cur:
        # Registered on this cursor only (any psycopg adapt context works): no global effect.
        register_vector_info(cur, _vector_type(raw))  # type: ignore[arg-type]
        cur.execute(_INSERT_SQL, params)
        return {row[0] for row in cur.fetchall()}


def memory_create(
    *,
    actor: Actor,
    text: str,
    categories: Iterable[str] | None = None,
    provenance: dict[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
    reconcile: bool = True,
) -> WriteResult:
    item = NewMemory(
        text=text,
        categories=tuple(categories or ()),
        provenance=provenance or {},
        metadata=metadata or {},
    )
    return memory_create_many(actor=actor, items=[item], reconcile=reconcile)[0]


def memory_create_many(
    *,
    actor: Actor,
    items: Sequence[NewMemory],
    max_items: int | None = None,
    vectors: Sequence[Any] | None = None,
    reconcile: bool = True,
) -> list[WriteResult]:
    """Add several memories in one transaction; identical active texts come back, not twice.

    An app's texts are reconciled locally against the memories the writer may see
    (`_reconcile`) unless `reconcile` is False (a caller that reconciled already: a supersede, the
    LLM's decisions, an accepted proposal, an export restored as it was).

    All items are validated before anything is embedded or written: one bad item refuses the batch.
    `vectors` (one per item, from the current model) lets a bulk import embed ahead of its writes.
    A new memory may go into any category, given or classified, whatever the writer's grant: it
    only narrows who sees the writer's own statement, and an app is told (`readback_note`).
    """
    require(actor, SCOPE_WRITE)
    limit = max_items or settings.MEMORY_BATCH_MAX
    if not items:
        raise InvalidInput("Nothing to add.", field="texts")
    if len(items) > limit:
        raise InvalidInput(f"At most {limit} memories per call; got {len(items)}.", field="texts")
    cleaned: list[tuple[str, str, list[str], NewMemory]] = []
    states = set(LIVE_STATES)
    for index, item in enumerate(items):
        text = clean_text(item.text, field=f"texts[{index}]" if len(items) > 1 else "text")
        cats = clean_categories(item.categories)
        if item.state not in states:
            raise InvalidInput(f"Unknown state {item.state!r}.", field="state")
        cleaned.append((text, text_key(text), cats, item))
    screened = [harm.screen_write(actor, text) for text, _, _, _ in cleaned]
    if any(x.note or x.app_text is not None for x in screened):
        return _create_screened(actor, cleaned, screened, vectors, reconcile=reconcile)
    return _create_cleaned(actor, cleaned, [None] * len(cleaned), vectors, reconcile=reconcile)


def _create_screened(
    actor: Actor,
    cleaned: list[tuple[str, str, list[str], NewMemory]],
    screened: list[harm.Screened],
    vectors: Sequence[Any] | None,
    *,
    reconcile: bool,
) -> list[WriteResult]:
    """A batch some of whose texts held a credential or an instruction: an app's text that held
    nothing else is not stored, one that instructs an assistant waits for the owner, the rest
    is stored as `screen_write` decided; each result carries what its writer is told."""
    results: list[WriteResult | None] = [None] * len(cleaned)
    held = [i for i, x in enumerate(screened) if x.stored and x.instruction]
    for i, x in enumerate(screened):
        if not x.stored:
            stand_in = Memory(owner=actor.user, text="", origin_app=actor.app)
            results[i] = WriteResult(memory=stand_in, created=False, note=x.note, dropped=True)
    rest = [i for i in range(len(cleaned)) if results[i] is None and i not in held]
    with transaction.atomic():  # all or nothing, as any batch
        if rest:
            items = [
                (screened[i].text, text_key(screened[i].text), cleaned[i][2], cleaned[i][3])
                for i in rest
            ]
            given = [vectors[i] for i in rest] if vectors is not None else None
            made = _create_cleaned(
                actor, items, [screened[i] for i in rest], given, reconcile=reconcile
            )
            for i, result in zip(rest, made, strict=True):
                results[i] = dataclasses.replace(result, note=screened[i].note)
        if held:
            pending = app_review.propose_adds(
                actor,
                [(screened[i].text, cleaned[i][2], cleaned[i][3].state) for i in held],
                reasons=[screened[i].instruction for i in held],
            )
            for i, p in zip(held, pending, strict=True):
                results[i] = WriteResult(
                    memory=_stand_in(actor, p), created=False, pending=p, note=screened[i].note
                )
    return [r for r in results if r is not None]


def _create_cleaned(
    actor: Actor,
    cleaned: list[tuple[str, str, list[str], NewMemory]],
    screened: Sequence[harm.Screened | None],
    vectors: Sequence[Any] | None,
    *,
    reconcile: bool,
) -> list[WriteResult]:
    """Store validated texts (see `memory_create_many`); `screened`: per text, what apps read
    instead and whether it is made private (None: as given)."""
    items = [c[3] for c in cleaned]
    if app_review.held(actor):
        with transaction.atomic():
            held = app_review.propose_adds(
                actor, [(text, cats, item.state) for text, _, cats, item in cleaned]
            )
        return [WriteResult(memory=_stand_in(actor, p), created=False, pending=p) for p in held]
    new_names = new_category_names(actor, [cats for _, _, cats, _ in cleaned])

    # Embed each distinct text once, outside the transaction: the model is the slow part.
    first_by_key: dict[str, int] = {}
    for index, (_, key, _, item) in enumerate(cleaned):
        if item.state == MemoryState.ACTIVE:
            first_by_key.setdefault(key, index)
    to_insert = [
        i
        for i, (_, key, _, item) in enumerate(cleaned)
        if item.state != MemoryState.ACTIVE or first_by_key[key] == i
    ]
    # What is embedded and indexed is what apps read (the owner's text, credentials withheld).
    shown = [_app_text(screened[i]) or cleaned[i][0] for i in to_insert]
    if vectors is not None and len(vectors) != len(items):
        raise InvalidInput("One vector per item is required.", field="vectors")
    given: dict[str, list[Any]] = {}
    if vectors is not None:
        own = [vectors[i] for i in to_insert]
        redo = [n for n, i in enumerate(to_insert) if _app_text(screened[i]) is not None]
        if redo:
            again = get_embedder(current_model()).embed([shown[n] for n in redo])
            for n, vector in zip(redo, again, strict=True):
                own[n] = vector
        given = {current_model(): own}
    embedded = _embedded(actor, shown, given)
    # Classified before the row exists, so no app ever reads it uncategorised.
    auto_cats = _auto_categories(actor, [cleaned[i][2] for i in to_insert], embedded)

    now = timezone.now()
    ids = [uuid.uuid4() for _ in to_insert]
    app = actor.app
    params: dict[str, Any] = {
        "owner": actor.user.pk,
        "origin": _origin_for(app),
        "app": app.pk,
        "app_name": app.name,
        "now": now,
        "ids": ids,
        "texts": [cleaned[i][0] for i in to_insert],
        "keys": [cleaned[i][1] for i in to_insert],
        "states": [cleaned[i][3].state for i in to_insert],
        "cats": [json.dumps([*cleaned[i][2], *auto_cats[n]]) for n, i in enumerate(to_insert)],
        "cats_user": [bool(cleaned[i][2]) and app.is_owner_app for i in to_insert],
        "provs": [json.dumps(_provenance(app, cleaned[i][3].provenance, now)) for i in to_insert],
        "metas": [json.dumps(cleaned[i][3].metadata) for i in to_insert],
        "created": [cleaned[i][3].created_at or now for i in to_insert],
        "echo_of": [""] * len(to_insert),
        "app_texts": [_app_text(screened[i]) for i in to_insert],
        "privates": [bool(screened[i] and screened[i].private) for i in to_insert],  # type: ignore[union-attr]
        **_analysed(shown),
    }
    labels = {c for cats in params["cats"] for c in json.loads(cats)}
    new_slugs = {n.slug for n in new_names}
    with transaction.atomic():
        # The vectors of the owner's models, which hold until this commits (`moves.held`).
        models = moves.held(actor.user.pk)
        params["model"], params["embs"] = models.live, embedded.of(models.live)
        # A text the caller already knows (a memory it may see, or its own echo) is answered
        # with that memory, not inserted. Its own echo matters here: once the memory the echo
        # restates leaves the unique index (archived, paused, superseded), the insert would not
        # conflict, and a second add would store the text again where, without the hidden
        # memory, the caller's first statement would have answered "already known".
        _hold_categories(actor, labels - new_slugs)
        known = _known_texts(actor, set(params["keys"]))
        done = _reconcile(actor, params, known, models.live, now) if reconcile else Reconciled()
        held_as = done.held_as
        fresh = [
            n
            for n in range(len(ids))
            if (params["states"][n] != MemoryState.ACTIVE or params["keys"][n] not in known)
            and params["keys"][n] not in held_as
            and params["keys"][n] not in done.same_as
        ]
        inserted = _insert_rows(_rows(params, fresh))
        # Texts that did not go in are held by an active memory already. Every write runs the
        # same statements whatever the answer turns out to be (so neither the work done nor the
        # time taken says whether a memory the caller may not see holds the text).
        late = [n for n in fresh if ids[n] not in inserted]
        holders, known_now = _text_holders(actor, {params["keys"][n] for n in late})
        known.update(known_now)
        for n in late:
            key = params["keys"][n]
            holder = holders.get(key) if key not in known_now else None
            params["echo_of"][n] = str(holder) if holder else ""
        # The caller's statement of a text held by a memory it may not see becomes an echo of
        # that memory; a text whose holder went away meanwhile is stored as a memory after all.
        retry = [n for n in late if params["keys"][n] not in known_now]
        echoed = _insert_rows(_rows(params, retry))
        if len(echoed) != len(retry):
            raise Conflict(
                gettext_noop("The memories changed while these were being stored; try again.")
            )
        made = inserted | echoed
        _stage(actor, models, [n for n in range(len(ids)) if ids[n] in made], ids, embedded)
        used = {c for n, i in enumerate(ids) if i in made for c in json.loads(params["cats"][n])}
        user_categories.categories_create(actor, new_names, used)
        # Counted against the app's write budget in this transaction: past it, nothing stays.
        write_budget.charge(actor, len(made))
        # The new rows are built from what was just written instead of read back (tsv, the one
        # column computed by the database, loads lazily): reading 500 rows back, vectors and all,
        # cost more than the INSERT itself (bench add).
        built = {
            ids[n]: _built_memory(actor, params, n, params["embs"][n])
            for n in range(len(ids))
            if ids[n] in made
        }
        _supersede_planned(actor, done.plans, ids, built)
        _apply_batch_matches(actor, params, done, ids, built, known, now)
        id_for_index = dict(zip(to_insert, ids, strict=True))
        for memory in built.values():
            if memory.state == MemoryState.ACTIVE:
                known.setdefault(memory.text_key, memory)
        results: list[WriteResult] = []
        for index, (_, key, _, _) in enumerate(cleaned):
            new_id = id_for_index.get(index)
            if new_id in made:
                results.append(WriteResult(memory=built[new_id], created=True))
            elif key in held_as:
                results.append(held_as[key])
            else:
                results.append(WriteResult(memory=known[key], created=False))
        received = list(dict.fromkeys(r.memory.id for r in results if r.pending is None))
        duplicates = sum(1 for r in results if not r.created)
        access_event_create(
            actor,
            AccessEvent.Action.ADD,
            received,
            detail={"duplicates": duplicates} if duplicates else None,
        )
    return results


@dataclass
class Reconciled:
    """What local reconciliation decided for a batch (`_reconcile`), by batch row or text key."""

    plans: dict[int, reconcile_local.Match] = field(default_factory=dict)  # row → stored memory
    held_as: dict[str, WriteResult] = field(default_factory=dict)  # key → held for Review
    same_as: dict[str, int] = field(default_factory=dict)  # key → earlier row it restates
    updates_in_batch: dict[int, int] = field(default_factory=dict)  # row → earlier row it updates


def _reconcile(
    actor: Actor, params: dict[str, Any], known: dict[str, Memory], model: str, now: datetime
) -> Reconciled:
    """Local reconciliation of the batch's new texts (`reconcile_local`), in the write's
    transaction: a restatement is answered with the memory it restates (added to `known`, its
    wording kept with it); an update is returned to supersede its memory once inserted; an
    unsure change is held for the owner's Review as an update of that memory. A text restating
    or updating an earlier text of the same batch is answered with, or supersedes, that one's
    memory once inserted (`Reconciled.same_as`, `Reconciled.plans`)."""
    done = Reconciled()
    if not reconcile_local.applies(actor):
        return done
    todo = [
        n
        for n in range(len(params["ids"]))
        if params["states"][n] == MemoryState.ACTIVE and params["keys"][n] not in known
    ]
    todo = list({params["keys"][n]: n for n in reversed(todo)}.values())[::-1]  # once per text
    found = reconcile_local.matches(
        actor, [params["texts"][n] for n in todo], [params["embs"][n] for n in todo], model
    )
    held: dict[str, tuple[Memory, str, str]] = {}  # key → (memory, text, reason) for Review
    for n, match in zip(todo, found, strict=True):
        if match is None:
            continue
        text, key, kind = params["texts"][n], params["keys"][n], match.verdict.kind
        if isinstance(match, reconcile_local.BatchMatch):
            earlier = todo[match.batch]
            if params["keys"][earlier] in held:
                continue  # the earlier text waits for the owner: this one is stored
            if kind == reconcile_local.RESTATE:
                # Answered with what the earlier text became (itself merged, or inserted).
                done.same_as[key] = done.same_as.get(params["keys"][earlier], earlier)
            elif (
                params["keys"][earlier] not in done.same_as
                and earlier not in done.updates_in_batch.values()
            ):
                done.updates_in_batch[n] = earlier
        elif kind == reconcile_local.RESTATE:
            reconcile_local.note_restated(match.memory, text, now, actor.app.name)
            known[key] = match.memory
        elif kind == reconcile_local.UPDATE:
            done.plans[n] = match
        elif key not in held and reconcile_local.for_review(actor):
            reason = f"Looks like an update of this memory ({match.verdict.why})."
            held[key] = (match.memory, text, reason)
    pending = app_review.propose_text_changes(actor, list(held.values()))
    for (key, (memory, _, _)), waiting in zip(held.items(), pending, strict=True):
        done.held_as[key] = WriteResult(memory=memory, created=False, pending=waiting)
    return done


def _apply_batch_matches(
    actor: Actor,
    params: dict[str, Any],
    done: Reconciled,
    ids: Sequence[uuid.UUID],
    built: dict[uuid.UUID, Memory],
    known: dict[str, Memory],
    now: datetime,
) -> None:
    """After the insert: a text restating an earlier one of its batch is answered with that
    one's memory (its wording kept there); a text updating one supersedes it."""
    for key, earlier in done.same_as.items():
        memory = built.get(ids[earlier]) or known.get(params["keys"][earlier])
        if memory is None:
            continue
        text = next(params["texts"][n] for n in range(len(ids)) if params["keys"][n] == key)
        reconcile_local.note_restated(memory, text, now, actor.app.name)
        known[key] = memory
    for n, earlier in done.updates_in_batch.items():
        old, new = built.get(ids[earlier]), built.get(ids[n])
        if old is not None and new is not None:
            memory_supersede_into(
                actor=actor,
                old=old,
                new=new,
                reason="Replaced by a newer statement of the same write.",
            )


def _supersede_planned(
    actor: Actor,
    plans: dict[int, reconcile_local.Match],
    ids: Sequence[uuid.UUID],
    built: dict[uuid.UUID, Memory],
) -> None:
    """Each inserted update supersedes the memory it changes (the first one of the batch, when
    two change the same memory: the other stays beside it)."""
    done: set[uuid.UUID] = set()
    for n, match in plans.items():
        new = built.get(ids[n])
        if new is None or match.memory.id in done:
            continue
        done.add(match.memory.id)
        memory_supersede_into(
            actor=actor,
            old=match.memory,
            new=new,
            reason=f"Replaced by a newer statement ({match.verdict.why}).",
        )


def _app_text(screened: harm.Screened | None) -> str | None:
    return screened.app_text if screened is not None else None


def _stand_in(actor: Actor, pending: PendingWrite) -> Memory:
    """An unsaved memory showing what a held add would store (never written)."""
    return Memory(
        owner=actor.user,
        text=pending.text,
        categories=list(pending.categories or ()),
        state=pending.state or MemoryState.ACTIVE,
        origin=_origin_for(actor.app),
        origin_app=actor.app,
        origin_app_name=actor.app.name,
        created_at=pending.created_at,
        updated_at=pending.created_at,
    )


def _rows(params: dict[str, Any], picked: Sequence[int]) -> dict[str, Any]:
    """The batch arguments restricted to rows `picked`."""
    return {**params, **{k: [params[k][n] for n in picked] for k in _ROW_PARAMS}}


def _text_holders(actor: Actor, keys: set[str]) -> tuple[dict[str, uuid.UUID], dict[str, Memory]]:
    """For these text keys: the active memory holding each (locked, so two writes of a text
    the caller may not see make one echo, not two), and the one the caller may see — that
    memory itself, or else the caller's own echo of it. The second decides "already known".

    Both queries run even for no keys (a key that never matches stands in), so a write whose
    text was new does the same work as one whose text a hidden memory holds.
    """
    keys = {*keys, ""}
    holders = dict(
        Memory.objects.select_for_update()
        .filter(
            owner=actor.user,
            text_key__in=sorted(keys),
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
            echo_of__isnull=True,
        )
        .order_by("id")
        .values_list("text_key", "id")
    )
    return holders, _known_texts(actor, keys)


def _known_texts(actor: Actor, keys: set[str]) -> dict[str, Memory]:
    """For these text keys, the active memory the caller may see holding each: the memory
    itself, or else the caller's own echo of it. Run even for no keys (see `_text_holders`)."""
    known: dict[str, Memory] = {}
    seen = (
        Memory.objects.filter(
            dedup_q(actor),
            text_key__in=sorted({*keys, ""}),
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
        )
        .defer(*UNSHOWN_COLUMNS)
        .order_by(F("echo_of").asc(nulls_first=True), "created_at", "id")
    )
    for memory in seen:
        known.setdefault(memory.text_key, memory)
    return known


def _embedded(
    actor: Actor, texts: Sequence[str], given: dict[str, list[Any]] | None = None
) -> moves.Vectors:
    """The texts' vectors under the classifier's model (EMBEDDING_MODEL) and the owner's models
    as this process last saw them, embedded before any transaction (the model is the slow part;
    a write embeds again inside only for a model the owner's row names since)."""
    return moves.Vectors(texts, given).ensure(
        [current_model(), *moves.expected(actor.user.pk).written]
    )


def _stage(
    actor: Actor,
    models: moves.Models,
    rows: Sequence[int],
    ids: Sequence[Any],
    embedded: moves.Vectors,
) -> None:
    """While the owner moves to another model, the written rows' vectors of that model too
    (`moves.stage`): at the owner's switch they become the rows' own. And, under a model with a
    second search arm (multilingual-e5), the rows' USE vectors (`second_arm.write`: those not in
    English; an English text's goes)."""
    second_arm.write(
        actor.user.pk,
        models.written,
        [ids[n] for n in rows],
        [embedded.texts[n] for n in rows],
    )
    if models.next and rows:
        moves.stage(
            actor.user.pk,
            models.next,
            [ids[n] for n in rows],
            [embedded.texts[n] for n in rows],
            [embedded.of(models.next)[n] for n in rows],
        )


def _auto_categories(
    actor: Actor, given: Sequence[list[str]], embedded: moves.Vectors
) -> list[list[str]]:
    """Local classification, before any app can read the rows: every label for the memories that
    came without categories; for an app's memories that came with some, the sensitive ones the
    classifier finds beyond the app's choice (an app's own label never carries sensitive text
    past the fail-closed guard: "depression" filed under hobbies is health too). The classifier
    compares vectors of its own model (EMBEDDING_MODEL), whatever the owner's vectors are."""
    guarded = not actor.app.is_owner_app and actor.app.kind != ConnectedApp.Kind.IMPORT
    todo = [i for i, cats in enumerate(given) if guarded or not cats]
    out: list[list[str]] = [[] for _ in given]
    if not todo or not settings.AUTO_CATEGORIZE:
        return out
    vectors, texts = embedded.of(current_model()), embedded.texts
    labels = user_categories.classify_for_owner(
        actor.user, [vectors[i] for i in todo], [texts[i] for i in todo]
    )
    sensitive = sensitive_categories(actor.user.pk) if any(given[i] for i in todo) else frozenset()
    for i, cats in zip(todo, labels, strict=True):
        if sensitive & set(given[i]):  # already hidden as sensitive: nothing left unchecked
            cats = [c for c in cats if c != UNCHECKED]
        out[i] = [c for c in cats if c in sensitive and c not in given[i]] if given[i] else cats
    return out


def _analysed(texts: Sequence[str]) -> dict[str, list[Any]]:
    """Each text's language and what its `tsv` is built from, as the batch INSERT's arrays."""
    analysed = [lexical.for_memory(text) for text in texts]
    return {
        "langs": [a.language for a in analysed],
        "cfgs": [a.config for a in analysed],
        "prefixes": [a.prefix for a in analysed],
        "bodies": [
            None if a.body == text else a.body for a, text in zip(analysed, texts, strict=True)
        ],
    }


def _built_memory(actor: Actor, params: dict[str, Any], n: int, vector: Any) -> Memory:
    """Row n of a batch INSERT as a Memory instance, as if read back (tsv deferred)."""
    values = {
        "id": params["ids"][n],
        "owner_id": actor.user.pk,
        "text": params["texts"][n],
        "text_key": params["keys"][n],
        "embedding": vector,
        "embedding_model": params["model"],
        "state": params["states"][n],
        "categories": json.loads(params["cats"][n]),
        "categories_set_by_user": params["cats_user"][n],
        "is_private": params["privates"][n],
        "hidden_from": [],
        "app_text": params["app_texts"][n],
        "harm_hold": "",
        "owner_confirmed_at": None,
        "seen_only_by": None,
        "origin": params["origin"],
        "origin_app_id": params["app"],
        "origin_app_name": params["app_name"],
        "provenance": json.loads(params["provs"][n]),
        "metadata": json.loads(params["metas"][n]),
        "user_edited_at": None,
        "changed_by_app_id": None,
        "changed_by_name": "",
        "changed_at": None,
        "superseded_by_id": None,
        "echo_of_id": uuid.UUID(params["echo_of"][n]) if params["echo_of"][n] else None,
        "echo_app_id": params["app"] if params["echo_of"][n] else None,
        "language": params["langs"][n],
        "trash_state": "",
        "trash_batch_id": None,
        "trashed_with_id": None,
        "pinned_at": None,
        "created_at": params["created"][n],
        "updated_at": params["now"],
    }
    # Every column but the one the database computes (`tsv`, loaded lazily when read): a column
    # added to Memory and not here is a KeyError on the first write, not a silent default.
    names = [f.attname for f in Memory._meta.concrete_fields if f.attname != "tsv"]
    return Memory.from_db(connection.alias, names, [values[name] for name in names])


def _provenance(app: ConnectedApp, given: dict[str, Any], now: datetime) -> dict[str, Any]:
    base = {"app": app.name, "app_kind": app.kind, "recorded_at": now.isoformat()}
    return {**base, **given}


def _locked(actor: Actor, memory_id: object) -> Memory:
    """The memory, row-locked, if the actor may see it; NotFound otherwise (same for others')."""
    mid = parse_memory_id(memory_id)
    memory = get_visible(actor, mid, for_update=True)
    if memory is None:
        raise NotFound()
    return memory


def _locked_many(actor: Actor, memory_ids: Sequence[object]) -> list[Memory]:
    """These memories, row-locked in id order, if the actor may see every one; NotFound for a
    batch with any other id (all or nothing, and the same answer for another user's id)."""
    mids = [parse_memory_id(m) for m in memory_ids]
    if not mids:
        raise InvalidInput(gettext_noop("No memories given."), field="memory_ids")
    memories = list(
        Memory.objects.select_for_update()
        .filter(id__in=mids)
        .filter(visible_q(actor))
        .defer(*UNSHOWN_COLUMNS)
        .order_by("id")
    )
    if len(memories) != len(set(mids)):
        raise NotFound()
    return memories


def memory_change(
    *,
    actor: Actor,
    memory_id: object,
    text: str | None = None,
    reason: str = "",
    categories: Iterable[str] | None = None,
    state: str | None = None,
    private: bool | None = None,
) -> ChangeResult:
    """Change any of a memory's text (re-embedded; the prior text becomes a version), categories,
    state and privacy, all or nothing: every check comes first (scopes; the owner-only privacy
    mark, before any id is looked at; the input; the owner's labels, `memories/ownership.py`),
    then the whole change commits in one transaction with its access events. Every entry point that
    changes a memory comes here (the API's PATCH, MCP's update_memory, the dashboard)."""
    require(actor, SCOPE_WRITE)
    if private is not None:
        require_owner(actor, SCOPE_WRITE)
    new_text = clean_text(text) if text is not None else None
    # Credentials and instructions in the new text (memories/services/harm.py).
    screened = harm.screen_write(actor, new_text) if new_text is not None else None
    if screened is not None:
        harm.refuse_empty(screened)
        new_text = screened.text
        if screened.private:
            private = True
    cats = clean_categories(categories) if categories is not None else None
    new_names = new_category_names(actor, [cats]) if cats else []
    new_slugs = {n.slug for n in new_names}
    if state is not None and state not in LIVE_STATES:
        raise InvalidInput(f"State must be one of {', '.join(LIVE_STATES)}.", field="state")
    # The model is the slow part: the text is embedded before any row is locked (not for a
    # change held for the owner's review: it is embedded if and when they accept it).
    held = app_review.held(actor) or bool(screened and screened.instruction)
    # What is embedded and indexed is what apps read (credentials withheld).
    shown = (screened.app_text if screened else None) or new_text
    embedded = _embedded(actor, [shown]) if shown is not None and not held else None
    with transaction.atomic():
        # The owner's models first, before the memory's row (the switch locks in that order).
        models = moves.held(actor.user.pk) if embedded is not None else None
        memory = _locked(actor, memory_id)
        if cats is not None:
            check_relabel(actor, memory, cats, {n.slug for n in new_names if n.means})
        unchanged = (
            (new_text is None or new_text == memory.text)
            and (cats is None or cats == list(memory.categories))
            and (state is None or state == memory.state)
        )
        if held:  # nothing is written: the change waits for the owner (if it changes anything)
            if unchanged:
                return ChangeResult(memory=memory)
            why = screened.instruction if screened else ""
            pending = app_review.propose_change(
                actor, memory, text=new_text, categories=cats, state=state, reason=why
            )
            note = screened.note if screened and why else app_review.PENDING_NOTE
            return ChangeResult(memory=memory, note=note, pending=pending)
        if cats is not None:
            _hold_categories(actor, set(cats) - new_slugs)
            user_categories.categories_create(actor, new_names, cats)
        now = timezone.now()
        if new_text is not None and new_text != memory.text:
            assert embedded is not None and models is not None  # not held: embedded above
            _apply_text(
                actor,
                memory,
                new_text,
                embedded,
                models,
                kind=MemoryVersion.Kind.EDIT,
                reason=reason,
                app_text=screened.app_text if screened else None,
            )
            access_event_create(
                actor, AccessEvent.Action.UPDATE, [memory.id], detail={"text": "edited"}
            )
        if cats is not None:
            _apply_categories(actor, memory, cats, now)
        if state is not None:
            _apply_state(actor, memory, state, now)
        if private is not None:
            _apply_visibility(actor, memory, now, private=private)
    told = [screened.note if screened else "", readback_note(actor, [memory], changed=True)]
    return ChangeResult(memory=memory, note=" ".join(filter(None, told)))


def memory_update(*, actor: Actor, memory_id: object, text: str, reason: str = "") -> Memory:
    """Change the text (re-embedded); the prior text becomes a version (see `memory_change`)."""
    return memory_change(actor=actor, memory_id=memory_id, text=text, reason=reason).memory


def _apply_text(
    actor: Actor,
    memory: Memory,
    new_text: str,
    embedded: moves.Vectors,
    models: moves.Models,
    *,
    kind: str,
    reason: str,
    app_text: str | None = None,
) -> None:
    """`memory` (locked) takes `new_text`, with the vector of the owner's `models` (held in this
    transaction) of the one text of `embedded`: what apps read, `app_text` (the owner's text
    with its credentials withheld) or the text itself."""
    write_budget.charge(actor, 1)  # a new text (and a version) counts like a new memory
    key = text_key(new_text)
    echo_of, echo_app = memory.echo_of_id, memory.echo_app_id
    if key != memory.text_key:
        # A text another active memory holds: refused only when the caller may see that memory.
        # Otherwise this memory becomes the caller's echo of it (its history stays), exactly
        # as an add of that text would: the caller cannot tell the two worlds apart.
        holders, known = _text_holders(actor, {key})
        if key in known:
            raise Conflict(gettext_noop("Another active memory already has this text."))
        holder = holders.get(key)
        echo_of, echo_app = (holder, actor.app.pk) if holder else (None, None)
    MemoryVersion.objects.create(
        memory=memory,
        owner=memory.owner,
        text=memory.text,
        kind=kind,
        changed_by=actor.label,
        reason=reason[:500],
    )
    now = timezone.now()
    # A new text may be about something else: automatic labels follow it (those of a category
    # renamed, merged or deleted since the classifier was built are left out), keeping the
    # owner's labels and what this actor may not remove (a sensitive one, for an app).
    automatic = _auto_categories(actor, [[]], embedded)[0]
    if not memory.categories_set_by_user:
        gone = user_categories.categories_lock(actor, automatic)
        automatic = [c for c in automatic if c not in gone]
    (shown,) = embedded.texts
    analysed = lexical.for_memory(shown)
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(
                """
                    UPDATE memories_memory
                    SET text = %(text)s, text_key = %(key)s, embedding = %(emb)s::vector,
                        embedding_model = %(model)s, app_text = %(app_text)s,
                        tsv = memory_tsvector(%(cfg)s::regconfig, %(prefix)s, %(body)s),
                        language = %(language)s,
                        updated_at = %(now)s,
                        user_edited_at = CASE WHEN %(by_owner)s THEN %(now)s
                                              ELSE user_edited_at END,
                        categories = %(cats)s::varchar[],
                        changed_by_app_id = %(app)s, changed_by_name = %(by)s,
                        changed_at = %(now)s,
                        echo_of_id = %(echo_of)s, echo_app_id = %(echo_app)s
                    WHERE id = %(id)s AND owner_id = %(owner)s
                    """,
                {
                    "text": new_text,
                    "app_text": app_text,
                    "key": key,
                    "emb": _vector_literal(embedded.of(models.live)[0]),
                    "model": models.live,
                    "language": analysed.language,
                    "cfg": analysed.config,
                    "prefix": analysed.prefix,
                    "body": analysed.body,
                    "now": now,
                    "by_owner": actor.app.is_owner_app,
                    "cats": reclassified(actor, memory, automatic),
                    "app": actor.app.pk,
                    "by": actor.label[:120],
                    "echo_of": echo_of,
                    "echo_app": echo_app,
                    "id": memory.id,
                    "owner": memory.owner_id,
                },
            )
            # A memory that became an echo hands its own echoes on to the memory it restates
            # (run every time, so the statements do not depend on the answer).
            cur.execute(
                "UPDATE memories_memory SET echo_of_id = %(to)s::uuid "
                "WHERE owner_id = %(owner)s AND echo_of_id = %(id)s AND %(to)s::uuid IS NOT NULL",
                {"to": echo_of, "owner": memory.owner_id, "id": memory.id},
            )
            _stage(actor, models, [0], [memory.id], embedded)
    except IntegrityError:
        # Another write stored this text in between: say nothing about which one.
        raise Conflict(
            gettext_noop("The memory changed while it was being updated; try again.")
        ) from None
    memory.refresh_from_db()


def embedded_for(actor: Actor, texts: Sequence[str]) -> moves.Vectors:
    """The texts' vectors for a write of `actor`'s owner, before any transaction (see
    `_embedded`): for a service outside this module that writes a text through it."""
    return _embedded(actor, texts)


def apply_screened_text(
    actor: Actor,
    memory: Memory,
    text: str,
    app_text: str | None,
    embedded: moves.Vectors,
    models: moves.Models,
    *,
    reason: str,
) -> None:
    """A text (and what apps read of it) the owner decided after the store's check
    (memories/services/harm.py): a new text becomes an edit; the same text only changes what
    apps read, and the embedding and lexemes that come from it. `embedded`: of what apps read;
    `models`: held in this transaction, before the memory's row was locked."""
    if text != memory.text:
        _apply_text(
            actor,
            memory,
            text,
            embedded,
            models,
            kind=MemoryVersion.Kind.EDIT,
            reason=reason,
            app_text=app_text,
        )
        return
    (shown,) = embedded.texts
    analysed = lexical.for_memory(shown)
    with connection.cursor() as cur:
        cur.execute(
            """
            UPDATE memories_memory SET app_text = %(app_text)s, embedding = %(emb)s::vector,
                embedding_model = %(model)s,
                tsv = memory_tsvector(%(cfg)s::regconfig, %(prefix)s, %(body)s),
                language = %(language)s
            WHERE id = %(id)s AND owner_id = %(owner)s
            """,
            {
                "app_text": app_text,
                "emb": _vector_literal(embedded.of(models.live)[0]),
                "model": models.live,
                "cfg": analysed.config,
                "prefix": analysed.prefix,
                "body": analysed.body,
                "language": analysed.language,
                "id": memory.id,
                "owner": memory.owner_id,
            },
        )
    _stage(actor, models, [0], [memory.id], embedded)


def mark_private(actor: Actor, memory: Memory) -> None:
    """Make one locked memory private (the owner's own apps only)."""
    if not memory.is_private:
        _apply_visibility(actor, memory, timezone.now(), private=True)


def _apply_categories(actor: Actor, memory: Memory, cats: list[str], now: datetime) -> None:
    """Set the categories (checked by the caller: `ownership.check_relabel`). The owner's choice
    wins over every later automatic pass; an app's change leaves the owner's mark as it was."""
    by_owner = actor.app.is_owner_app
    previous = list(memory.categories)
    if previous == cats and (memory.categories_set_by_user or not by_owner):
        return
    memory.categories = cats
    memory.categories_set_by_user = memory.categories_set_by_user or by_owner
    memory.updated_at = now
    fields = ["categories", "categories_set_by_user", "updated_at"]
    memory.save(update_fields=[*fields, *mark_changed_by(actor, memory, now)])
    access_event_create(
        actor,
        AccessEvent.Action.UPDATE,
        [memory.id],
        detail={"categories": {"from": previous, "to": cats}},
    )


def _apply_state(actor: Actor, memory: Memory, state: str, now: datetime) -> bool:
    """Activate, pause or archive one locked memory, recorded with from and to."""
    if memory.state == state:
        return False
    previous = memory.state
    memory.state = state
    memory.updated_at = now
    fields = ["state", "updated_at", *mark_changed_by(actor, memory, now)]
    try:
        with transaction.atomic():
            memory.save(update_fields=fields)
    except IntegrityError:
        raise Conflict(
            gettext_noop("An identical active memory already exists; delete one of them first.")
        ) from None
    access_event_create(
        actor, AccessEvent.Action.STATE, [memory.id], detail={"from": previous, "to": state}
    )
    return True


def memory_supersede(
    *,
    actor: Actor,
    memory_id: object,
    text: str,
    reason: str,
    categories: Iterable[str] | None = None,
    provenance: dict[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
    respect_user_edits: bool = True,
) -> WriteResult:
    """A changed fact: a new memory replaces the old one in search; the old text stays reachable
    as a SUPERSEDE version of the new memory, with the reason. Refused with `UserEdited` when the
    old memory was edited by hand (unless the owner asked for it: `respect_user_edits=False`)."""
    require(actor, SCOPE_WRITE)
    screened = harm.screen_write(actor, clean_text(text))
    new_text = screened.text
    if not screened.stored:
        return WriteResult(
            memory=Memory(owner=actor.user, text="", origin_app=actor.app),
            created=False,
            note=screened.note,
            dropped=True,
        )
    with transaction.atomic():
        moves.held(actor.user.pk)  # before the old memory's row, as every write of a vector
        old = _locked(actor, memory_id)
        if old.superseded_by_id is not None or old.state != MemoryState.ACTIVE:
            raise Conflict("This memory is no longer active; it cannot be superseded.")
        if respect_user_edits and old.user_edited_at is not None:
            raise UserEdited("This memory was edited by hand; propose the change instead.")
        if text_key(new_text) == old.text_key:
            return WriteResult(memory=old, created=False)
        if app_review.held(actor) or screened.instruction:  # waits as an update of the old one
            pending = app_review.propose_change(
                actor, old, text=new_text, categories=None, state=None, reason=screened.instruction
            )
            return WriteResult(memory=old, created=False, pending=pending, note=screened.note)
        cats = list(categories or ())
        if not cats and old.categories_set_by_user:
            cats = list(old.categories)
        new = memory_create(
            actor=actor,
            text=new_text,
            categories=cats,
            provenance=provenance,
            metadata=metadata,
            reconcile=False,
        )
        memory_supersede_into(actor=actor, old=old, new=new.memory, reason=reason)
    return new


def memory_supersede_into(
    *,
    actor: Actor,
    old: Memory,
    new: Memory,
    reason: str,
    metadata: dict[str, Any] | None = None,
) -> None:
    """The one supersede path (`memory_supersede`, deferred extraction): `old` (locked by the
    caller, in its transaction) leaves search, linked to `new`, whose history keeps the old text
    as a SUPERSEDE version; the access event is recorded with it. What the actor may not remove
    from `old` (the owner's labels, a sensitive category) goes with the fact to `new`."""
    require(actor, SCOPE_WRITE)
    now = timezone.now()
    keep = protected_categories(actor, old)
    carried = [c for c in old.categories if c in keep and c not in new.categories]
    owners = old.categories_set_by_user and not new.categories_set_by_user
    if carried or owners:
        new.categories = [*new.categories, *carried]
        new.categories_set_by_user = True if owners else new.categories_set_by_user
        new.updated_at = now
        fields = ["categories", "categories_set_by_user", "updated_at"]
        new.save(update_fields=[*fields, *mark_changed_by(actor, new, now)])
    changes: dict[str, Any] = {"superseded_by": new, "updated_at": now}
    if metadata is not None:
        changes["metadata"] = metadata
    changes.update(changed_by_app=actor.app, changed_by_name=actor.label[:120], changed_at=now)
    Memory.objects.filter(owner_id=old.owner_id, pk=old.pk).update(**changes)
    old.refresh_from_db()
    MemoryVersion.objects.create(
        memory=new,
        owner=old.owner,
        text=old.text,
        kind=MemoryVersion.Kind.SUPERSEDE,
        changed_by=actor.label,
        reason=reason[:500],
    )
    access_event_create(
        actor,
        AccessEvent.Action.UPDATE,
        [old.id, new.id],
        detail={"superseded": str(old.id), "by": str(new.id)},
    )


def memory_restore_version(*, actor: Actor, memory_id: object, version_id: int) -> Memory:
    """Bring back an earlier text; the current text becomes a version in turn. The owner's own apps
    only: an old text may have been private, hidden or in another category when it was current."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        memory = _locked(actor, memory_id)
        version = MemoryVersion.objects.filter(
            memory=memory, owner=actor.user, pk=version_id
        ).first()
        if version is None:
            raise NotFound("version")
        old_text = version.text
    screened = harm.screen_write(actor, old_text)
    embedded = _embedded(actor, [screened.app_text or old_text])
    with transaction.atomic():
        models = moves.held(actor.user.pk)
        memory = _locked(actor, memory_id)
        _apply_text(
            actor,
            memory,
            old_text,
            embedded,
            models,
            kind=MemoryVersion.Kind.RESTORE,
            reason="restored",
            app_text=screened.app_text,
        )
        if screened.private and not memory.is_private:
            _apply_visibility(actor, memory, timezone.now(), private=True)
        access_event_create(
            actor, AccessEvent.Action.UPDATE, [memory.id], detail={"restored": version_id}
        )
    return memory


def memory_set_state(*, actor: Actor, memory_ids: Sequence[object], state: str) -> int:
    """Activate, pause or archive; each change is recorded with from and to."""
    require(actor, SCOPE_WRITE)
    if state not in LIVE_STATES:
        raise InvalidInput(f"State must be one of {', '.join(LIVE_STATES)}.", field="state")
    changed = 0
    with transaction.atomic():
        memories = _locked_many(actor, memory_ids)
        if app_review.held(actor):
            for memory in memories:
                if memory.state != state:
                    app_review.propose_change(
                        actor, memory, text=None, categories=None, state=state
                    )
            return 0
        now = timezone.now()
        for memory in memories:
            changed += _apply_state(actor, memory, state, now)
    return changed


def memory_set_categories(*, actor: Actor, memory_id: object, categories: Iterable[str]) -> Memory:
    """The categories of one memory (see `memory_change`; an app's change follows
    `memories/ownership.py`). The owner's choice wins over every later automatic pass."""
    return memory_change(actor=actor, memory_id=memory_id, categories=categories).memory


def memory_set_categories_many(
    *, actor: Actor, memory_ids: Sequence[object], categories: Iterable[str]
) -> int:
    """The same categories for several memories, all or none (the dashboard's bulk action)."""
    mids = [parse_memory_id(m) for m in memory_ids]
    if not mids:
        raise InvalidInput(gettext_noop("No memories given."), field="memory_ids")
    cats = clean_categories(categories)
    with transaction.atomic():
        for mid in dict.fromkeys(mids):
            memory_change(actor=actor, memory_id=mid, categories=cats)
    return len(set(mids))


def memory_set_visibility(
    *,
    actor: Actor,
    memory_id: object,
    private: bool | None = None,
    hide_from_app: int | None = None,
    show_to_app: int | None = None,
    unrestrict: bool = False,
) -> Memory:
    """Mark a memory private (no app sees it) or hidden from one app, or (`unrestrict`) let every
    app whose grant covers it see it again after a sensitive category was deleted from it
    (`Memory.seen_only_by`). The owner's own apps only."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        memory = _locked(actor, memory_id)
        _apply_visibility(
            actor,
            memory,
            timezone.now(),
            private=private,
            hide_from_app=hide_from_app,
            show_to_app=show_to_app,
            unrestrict=unrestrict,
        )
    return memory


def _apply_visibility(
    actor: Actor,
    memory: Memory,
    now: datetime,
    *,
    private: bool | None = None,
    hide_from_app: int | None = None,
    show_to_app: int | None = None,
    unrestrict: bool = False,
) -> None:
    """Private and hidden-from marks on one locked memory and its echoes (the owner's own apps only:
    the callers asked `require_owner` before looking at any id)."""
    before = _visibility_marks(memory)
    if private is not None:
        memory.is_private = private
    if unrestrict:
        memory.seen_only_by = None
    hidden = set(memory.hidden_from)
    for app_id, add in ((hide_from_app, True), (show_to_app, False)):
        if app_id is None:
            continue
        if not ConnectedApp.objects.filter(owner=actor.user, pk=app_id).exists():
            raise NotFound("app")
        (hidden.add if add else hidden.discard)(app_id)
    memory.hidden_from = sorted(hidden)
    memory.updated_at = now
    fields = ["is_private", "hidden_from", "seen_only_by", "updated_at"]
    memory.save(update_fields=[*fields, *mark_changed_by(actor, memory, now)])
    _restate_visibility(memory, private, hide_from_app, show_to_app)
    after = _visibility_marks(memory)
    access_event_create(
        actor, AccessEvent.Action.STATE, [memory.id], detail={"from": before, "to": after}
    )


def _visibility_marks(memory: Memory) -> dict[str, Any]:
    """What the access log records of a memory's visibility, before and after a change (the
    list of apps a deleted sensitive category kept it for only when there is one)."""
    marks: dict[str, Any] = {"private": memory.is_private, "hidden_from": list(memory.hidden_from)}
    if memory.seen_only_by is not None:
        marks["seen_only_by"] = list(memory.seen_only_by)
    return marks


def memory_set_private_many(*, actor: Actor, memory_ids: Sequence[object], private: bool) -> int:
    """Mark several memories private (no app sees them) or no longer private, all or none (the
    dashboard's bulk action): one access event for the batch, naming the memories that changed.
    The owner's own apps only; apps' statements of them (echoes) follow, as in
    `memory_set_visibility`."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        memories = _locked_many(actor, memory_ids)
        changed = [m.id for m in memories if m.is_private != private]
        if changed:
            now = timezone.now()
            owned = Memory.objects.filter(owner=actor.user)
            owned.filter(pk__in=changed).update(
                is_private=private,
                updated_at=now,
                changed_by_app=actor.app,
                changed_by_name=actor.label[:120],
                changed_at=now,
            )
            owned.filter(echo_of_id__in=changed).update(is_private=private)
            access_event_create(
                actor,
                AccessEvent.Action.STATE,
                changed,
                detail={"from": {"private": not private}, "to": {"private": private}},
            )
    return len(changed)


def memory_set_pinned(*, actor: Actor, memory_ids: Sequence[object], pinned: bool) -> int:
    """Pin memories (the profile an assistant loads first starts with them:
    memories/selectors/profile.py) or unpin them, all or none; returns how many changed. The owner's
    own apps only: an app is refused with `OwnerOnly` before any id is looked at. One access event
    names the memories that changed. A pin is not a change of the memory: its text, dates and
    "changed by" stay."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        memories = _locked_many(actor, memory_ids)
        changed = [m.id for m in memories if (m.pinned_at is not None) != pinned]
        if changed:
            owned = Memory.objects.filter(owner=actor.user, pk__in=changed)
            owned.update(pinned_at=timezone.now() if pinned else None)
            access_event_create(
                actor,
                AccessEvent.Action.STATE,
                changed,
                detail={"from": {"pinned": not pinned}, "to": {"pinned": pinned}},
            )
    return len(changed)


def _restate_visibility(
    memory: Memory, private: bool | None, hide_from_app: int | None, show_to_app: int | None
) -> None:
    """The owner's choice about a memory reaches the apps' statements (echoes) of it too: a
    memory made private or hidden from an app takes its echoes out of that app's sight."""
    echoes = list(Memory.objects.filter(owner_id=memory.owner_id, echo_of=memory))
    for echo in echoes:
        if private is not None:
            echo.is_private = private
        hidden = set(echo.hidden_from)
        if hide_from_app is not None:
            hidden.add(hide_from_app)
        if show_to_app is not None:
            hidden.discard(show_to_app)
        echo.hidden_from = sorted(hidden)
    Memory.objects.filter(owner_id=memory.owner_id).bulk_update(
        echoes, ["is_private", "hidden_from"]
    )


def memory_delete(*, actor: Actor, memory_id: object) -> DeleteResult:
    """Into the owner's trash (memories/services/trash.py): restorable for TRASH_DAYS, then
    purged."""
    require(actor, SCOPE_DELETE)
    with transaction.atomic():
        memory = _locked(actor, memory_id)
        if app_review.held(actor):
            pending = app_review.propose_deletes(actor, [memory])[0]
            return DeleteResult(memory.id, None, None, pending=pending)
        readers = readers_of(actor.user.pk, [memory.id])
        batch = trash.move_to_trash(actor, [memory])
        access_event_create(
            actor,
            AccessEvent.Action.DELETE,
            [memory.id],
            detail={"read_by": readers, "trash": str(batch.id)},
        )
    return DeleteResult(memory.id, _told(actor, readers), batch.id)


def _told(actor: Actor, readers: list[str]) -> list[str] | None:
    """Which apps had read a deleted memory, as the deleting app is told: the owner's own apps
    hear it; an app is not told which other apps the owner connected."""
    return readers if actor.app.is_owner_app else None


def memory_delete_many(*, actor: Actor, memory_ids: Sequence[object]) -> list[DeleteResult]:
    """Several memories into the trash as one delete (one undo), all or none."""
    require(actor, SCOPE_DELETE)
    with transaction.atomic():
        memories = _locked_many(actor, memory_ids)
        if app_review.held(actor):
            held = app_review.propose_deletes(actor, memories)
            return [
                DeleteResult(m.id, None, None, pending=p)
                for m, p in zip(memories, held, strict=True)
            ]
        batch = trash.move_to_trash(actor, memories)
        results = [
            DeleteResult(m.id, _told(actor, readers_of(actor.user.pk, [m.id])), batch.id)
            for m in memories
        ]
        access_event_create(
            actor,
            AccessEvent.Action.DELETE,
            [m.id for m in memories],
            detail={"trash": str(batch.id)},
        )
    return results


def memory_delete_all(*, actor: Actor) -> int:
    """Move every memory this actor can see (for one of the owner's own apps: all of the user's
    memories) to the owner's trash, as one delete the owner can restore at once."""
    require(actor, SCOPE_DELETE)
    with transaction.atomic():
        memories = list(
            Memory.objects.select_for_update().filter(visible_q(actor)).defer(*UNSHOWN_COLUMNS)
        )
        if app_review.held(actor):  # one proposal per memory: the owner decides each
            return len(app_review.propose_deletes(actor, memories))
        batch = trash.move_to_trash(actor, memories)
        access_event_create(  # each memory's trail shows who deleted it, in bulk or not
            actor,
            AccessEvent.Action.DELETE,
            [m.id for m in memories],
            count=batch.memories_deleted,
            detail={"all": True, "trash": str(batch.id)},
        )
    # Memories, not rows: for the owner, predecessors go with their memory, uncounted.
    return batch.memories_deleted


def readback_note(actor: Actor, memories: Sequence[Memory], *, changed: bool = False) -> str:
    """A sentence for an app whose write (`changed`: whose change of a memory) left memories
    outside what it may read by its grant, or out of its sight, or that may not read at all;
    empty otherwise. Every entry point says it as it is, so the API and MCP answer in the same
    words. It depends only on what the app sent and its grant, never on memories it may not see."""
    app = actor.app
    if app.is_owner_app or not memories:
        return ""
    if not actor.has_scope(SCOPE_READ):
        return "This app may not read memories, so it cannot read back what it stored."
    resting = sorted(
        {m.get_state_display().lower() for m in memories if m.state != MemoryState.ACTIVE}
    )
    if changed and resting:
        return (
            f"This memory is now {resting[0]}: no app sees it until the owner makes it "
            "active again."
        )
    hidden = set(hidden_categories(app))
    beyond = [
        m
        for m in memories
        if hidden & set(m.categories) or (not m.categories and not app.sees_uncategorised)
    ]
    if not beyond:
        return ""
    outside = sorted({c for m in beyond for c in m.categories if c in hidden})
    where = (
        f"in {category_names(outside)}, which this app is not granted"
        if outside
        else "without a category, which this app's grant does not cover"
    )
    others = (
        f"other apps without {category_names(outside, 'or')}"
        if outside
        else "apps not granted uncategorised memories"
    )
    if any(m.origin_app_id != app.pk for m in beyond):
        return f"Now {where}, so this app can no longer read it."
    lead = "Now" if changed else "Stored"
    return f"{lead} {where}: this app can read it back because it wrote it; {others} cannot."


MENTIONS_KEPT = 50  # places a repeated memory lists in metadata["also_said_in"]


def memory_note_mentions(*, actor: Actor, mentions: dict[uuid.UUID, list[dict[str, Any]]]) -> int:
    """Record that memories were said again elsewhere (an import's near-duplicates).

    `provenance["mentions"]` becomes how many times the memory was said in all (the first time
    included), and `metadata["also_said_in"]` lists up to MENTIONS_KEPT of the other places.
    Text, embedding, categories and `updated_at` are untouched. Only memories a write of the actor
    may name (`dedup_q`: an import names any of the owner's) are counted; returns how many were.
    """
    require(actor, SCOPE_WRITE)
    if not mentions:
        return 0
    with transaction.atomic():
        memories = list(
            Memory.objects.select_for_update()
            .filter(dedup_q(actor), pk__in=list(mentions))
            .only("id", "owner_id", "provenance", "metadata")
        )
        for memory in memories:
            said = mentions[memory.id]
            provenance = dict(memory.provenance or {})
            provenance["mentions"] = int(provenance.get("mentions") or 1) + len(said)
            metadata = dict(memory.metadata or {})
            places = [*metadata.get("also_said_in", []), *said][:MENTIONS_KEPT]
            metadata["also_said_in"] = places
            Memory.objects.filter(owner=actor.user, pk=memory.id).update(
                provenance=provenance, metadata=metadata
            )
        if memories:
            access_event_create(
                actor,
                AccessEvent.Action.UPDATE,
                [m.id for m in memories],
                detail={"mentions": sum(len(mentions[m.id]) for m in memories)},
            )
    return len(memories)
