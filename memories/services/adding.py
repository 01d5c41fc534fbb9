"""Adding memories: one or a batch, validated, screened for credentials and instructions,
reconciled, embedded and classified before one transaction that inserts them and records the
access event. Every function is keyword-only, takes an explicit actor and checks consent."""

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.category_names import category_name
from kernel.errors import Conflict, InvalidInput
from kernel.gates import SCOPE_WRITE, require
from memories import write_budget
from memories.models import LIVE_STATES, Memory, MemoryState, Origin
from memories.search import moves
from memories.search.embeddings import current_model, get_embedder
from memories.selectors.pending import PendingWrite
from memories.services import app_review, batch_insert, harm
from memories.services import categories as user_categories
from memories.services.batch_reconcile import (
    Reconciled,
    apply_batch_matches,
    reconcile_batch,
    supersede_planned,
)
from memories.services.locks import hold_categories, known_texts, text_holders
from memories.services.write_vectors import auto_categories, embedded_for, stage
from memories.text import clean_text, text_key


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
    """What an add (or a supersede) answers, per text."""

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


@dataclass(frozen=True)
class Cleaned:
    """One item of a batch once validated: its text as stored, that text's key (`text_key`), its
    categories in their one form, and the item as given (state, provenance, metadata, date)."""

    text: str
    key: str
    categories: list[str]
    item: NewMemory


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
    (`reconcile_batch`) unless `reconcile` is False (a caller that reconciled already: a
    supersede, the LLM's decisions, an accepted proposal, an export restored as it was).

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
    cleaned: list[Cleaned] = []
    states = set(LIVE_STATES)
    for index, item in enumerate(items):
        text = clean_text(item.text, field=f"texts[{index}]" if len(items) > 1 else "text")
        cats = clean_categories(item.categories)
        if item.state not in states:
            raise InvalidInput(f"Unknown state {item.state!r}.", field="state")
        cleaned.append(Cleaned(text=text, key=text_key(text), categories=cats, item=item))
    screened = [harm.screen_write(actor, c.text) for c in cleaned]
    if any(x.note or x.app_text is not None for x in screened):
        return _create_screened(actor, cleaned, screened, vectors, reconcile=reconcile)
    return _create_cleaned(actor, cleaned, [None] * len(cleaned), vectors, reconcile=reconcile)


def _create_screened(
    actor: Actor,
    cleaned: list[Cleaned],
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
                dataclasses.replace(
                    cleaned[i], text=screened[i].text, key=text_key(screened[i].text)
                )
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
                [(screened[i].text, cleaned[i].categories, cleaned[i].item.state) for i in held],
                reasons=[screened[i].instruction for i in held],
            )
            for i, p in zip(held, pending, strict=True):
                results[i] = WriteResult(
                    memory=_stand_in(actor, p), created=False, pending=p, note=screened[i].note
                )
    return [r for r in results if r is not None]


def _create_cleaned(
    actor: Actor,
    cleaned: list[Cleaned],
    screened: Sequence[harm.Screened | None],
    vectors: Sequence[Any] | None,
    *,
    reconcile: bool,
) -> list[WriteResult]:
    """Store validated texts (see `memory_create_many`); `screened`: per text, what apps read
    instead and whether it is made private (None: as given). Held for the owner's review, or
    embedded and classified outside any transaction, then stored in one (`_store_batch`)."""
    if app_review.held(actor):
        with transaction.atomic():
            held = app_review.propose_adds(
                actor, [(c.text, c.categories, c.item.state) for c in cleaned]
            )
        return [WriteResult(memory=_stand_in(actor, p), created=False, pending=p) for p in held]
    new_names = new_category_names(actor, [c.categories for c in cleaned])
    # Embed each distinct text once, outside the transaction: the model is the slow part.
    first_by_key: dict[str, int] = {}
    for index, c in enumerate(cleaned):
        if c.item.state == MemoryState.ACTIVE:
            first_by_key.setdefault(c.key, index)
    to_insert = [
        i
        for i, c in enumerate(cleaned)
        if c.item.state != MemoryState.ACTIVE or first_by_key[c.key] == i
    ]
    embedded = _embedded_batch(actor, cleaned, screened, vectors, to_insert)
    # Classified before the row exists, so no app ever reads it uncategorised.
    auto_cats = auto_categories(actor, [cleaned[i].categories for i in to_insert], embedded)
    batch = _Batch(to_insert=to_insert, ids=[uuid.uuid4() for _ in to_insert])
    params = _batch_params(actor, cleaned, screened, batch, auto_cats, embedded.texts)
    return _store_batch(actor, cleaned, batch, params, embedded, new_names, reconcile=reconcile)


@dataclass(frozen=True)
class _Batch:
    """The rows a batch inserts: `to_insert[n]` is the index in the batch of row n, which gets
    the new id `ids[n]` (an active text given twice is inserted once)."""

    to_insert: list[int]
    ids: list[uuid.UUID]


def _embedded_batch(
    actor: Actor,
    cleaned: list[Cleaned],
    screened: Sequence[harm.Screened | None],
    vectors: Sequence[Any] | None,
    to_insert: list[int],
) -> moves.Vectors:
    """The vectors of the rows to insert, before any transaction: the caller's own (`vectors`,
    one per item) where given, except for a text whose credentials are withheld from apps."""
    # What is embedded and indexed is what apps read (the owner's text, credentials withheld).
    shown = [_app_text(screened[i]) or cleaned[i].text for i in to_insert]
    if vectors is not None and len(vectors) != len(cleaned):
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
    return embedded_for(actor, shown, given)


def _batch_params(
    actor: Actor,
    cleaned: list[Cleaned],
    screened: Sequence[harm.Screened | None],
    batch: _Batch,
    auto_cats: list[list[str]],
    shown: Sequence[str],
) -> dict[str, Any]:
    """The batch INSERT's parameters (memories/services/batch_insert.py) but for the model and
    vectors, which are read in the transaction (`moves.held`)."""
    now = timezone.now()
    app = actor.app
    rows = [cleaned[i] for i in batch.to_insert]
    kept = [screened[i] for i in batch.to_insert]
    return {
        "owner": actor.user.pk,
        "origin": _origin_for(app),
        "app": app.pk,
        "app_name": app.name,
        "now": now,
        "ids": batch.ids,
        "texts": [c.text for c in rows],
        "keys": [c.key for c in rows],
        "states": [c.item.state for c in rows],
        "cats": [json.dumps([*c.categories, *auto_cats[n]]) for n, c in enumerate(rows)],
        "cats_user": [bool(c.categories) and app.is_owner_app for c in rows],
        "provs": [json.dumps(_provenance(app, c.item.provenance, now)) for c in rows],
        "metas": [json.dumps(c.item.metadata) for c in rows],
        "created": [c.item.created_at or now for c in rows],
        "echo_of": [""] * len(rows),
        "app_texts": [_app_text(s) for s in kept],
        "privates": [bool(s and s.private) for s in kept],
        **batch_insert.lexical_rows(shown),
    }


def _store_batch(
    actor: Actor,
    cleaned: list[Cleaned],
    batch: _Batch,
    params: dict[str, Any],
    embedded: moves.Vectors,
    new_names: list[user_categories.NewCategory],
    *,
    reconcile: bool,
) -> list[WriteResult]:
    """The batch's one transaction: reconciled, inserted (`_insert_new`), staged, charged,
    superseding what it updates, and recorded with one access event."""
    ids, now = batch.ids, params["now"]
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
        hold_categories(actor, labels - new_slugs)
        known = known_texts(actor, set(params["keys"]))
        done = (
            reconcile_batch(actor, params, known, models.live, now) if reconcile else Reconciled()
        )
        made = _insert_new(actor, params, known, done)
        stage(actor, models, [n for n in range(len(ids)) if ids[n] in made], ids, embedded)
        used = {c for n, i in enumerate(ids) if i in made for c in json.loads(params["cats"][n])}
        user_categories.categories_create(actor, new_names, used)
        # Counted against the app's write budget in this transaction: past it, nothing stays.
        write_budget.charge(actor, len(made))
        # The new rows are built from what was just written instead of read back (tsv, the one
        # column computed by the database, loads lazily): reading 500 rows back, vectors and all,
        # cost more than the INSERT itself (bench add).
        built = {
            ids[n]: batch_insert.built_memory(actor, params, n, params["embs"][n])
            for n in range(len(ids))
            if ids[n] in made
        }
        supersede_planned(actor, done.plans, ids, built)
        apply_batch_matches(actor, params, done, ids, built, known, now)
        results = _results(cleaned, batch, built, done, known)
        received = list(dict.fromkeys(r.memory.id for r in results if r.pending is None))
        duplicates = sum(1 for r in results if not r.created)
        access_event_create(
            actor,
            AccessEvent.Action.ADD,
            received,
            detail={"duplicates": duplicates} if duplicates else None,
        )
    return results


def _insert_new(
    actor: Actor, params: dict[str, Any], known: dict[str, Memory], done: Reconciled
) -> set[uuid.UUID]:
    """Insert the rows neither known to the caller nor answered by reconciliation; returns the
    ids that went in. A text another active memory holds becomes the caller's echo of it, and
    one the caller may see is added to `known`."""
    ids = params["ids"]
    fresh = [
        n
        for n in range(len(ids))
        if (params["states"][n] != MemoryState.ACTIVE or params["keys"][n] not in known)
        and params["keys"][n] not in done.held_as
        and params["keys"][n] not in done.same_as
    ]
    inserted = batch_insert.insert_rows(batch_insert.rows_of(params, fresh))
    # Texts that did not go in are held by an active memory already. Every write runs the
    # same statements whatever the answer turns out to be (so neither the work done nor the
    # time taken says whether a memory the caller may not see holds the text).
    late = [n for n in fresh if ids[n] not in inserted]
    holders, known_now = text_holders(actor, {params["keys"][n] for n in late})
    known.update(known_now)
    for n in late:
        key = params["keys"][n]
        holder = holders.get(key) if key not in known_now else None
        params["echo_of"][n] = str(holder) if holder else ""
    # The caller's statement of a text held by a memory it may not see becomes an echo of
    # that memory; a text whose holder went away meanwhile is stored as a memory after all.
    retry = [n for n in late if params["keys"][n] not in known_now]
    echoed = batch_insert.insert_rows(batch_insert.rows_of(params, retry))
    if len(echoed) != len(retry):
        raise Conflict(
            gettext_noop("The memories changed while these were being stored; try again.")
        )
    return inserted | echoed


def _results(
    cleaned: list[Cleaned],
    batch: _Batch,
    built: dict[uuid.UUID, Memory],
    done: Reconciled,
    known: dict[str, Memory],
) -> list[WriteResult]:
    """One result per item, in order: the memory inserted for it, the change held for the
    owner's review, or the memory that already held its text."""
    id_for_index = dict(zip(batch.to_insert, batch.ids, strict=True))
    for memory in built.values():
        if memory.state == MemoryState.ACTIVE:
            known.setdefault(memory.text_key, memory)
    results: list[WriteResult] = []
    for index, c in enumerate(cleaned):
        new_id = id_for_index.get(index)
        if new_id in built:
            results.append(WriteResult(memory=built[new_id], created=True))
        elif c.key in done.held_as:
            held = done.held_as[c.key]
            results.append(WriteResult(memory=held.memory, created=False, pending=held.pending))
        else:
            results.append(WriteResult(memory=known[c.key], created=False))
    return results


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


def _provenance(app: ConnectedApp, given: dict[str, Any], now: datetime) -> dict[str, Any]:
    base = {"app": app.name, "app_kind": app.kind, "recorded_at": now.isoformat()}
    return {**base, **given}
