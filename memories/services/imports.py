"""The import engine: turn a parsed export into memories, idempotently (`import_estimate` for a
dry run, `import_execute` to import), as the source's own `import` ConnectedApp. Runs are
prepared and queued by `memories.services.import_runs`; the engine imports neither it nor the
task. Extractors, the manifest and redo: ARCHITECTURE.md ("Imports")."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor, actor_for, live_app
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import DomainError, InvalidInput, LLMNotConfigured, NotFound
from kernel.gates import SCOPE_WRITE, require_owner
from memories.categories import SENSITIVE
from memories.extraction.llm import llm_configured
from memories.extraction.local import (
    Kept,
    Turn,
    local_extractor,
    other_languages,
    other_languages_note,
)
from memories.extraction.local_context import extended
from memories.extraction.repeats import RepeatIndex
from memories.ingest.types import Conversation, ExportedMemory, Message, ParsedExport
from memories.models import (
    ImportedConversation,
    ImportRun,
    Memory,
    MemoryState,
    MemoryTombstone,
    MemoryVersion,
    TrashBatch,
)
from memories.provenance import excerpt, source_ref_hash
from memories.search import moves
from memories.search.embeddings import current_model, get_embedder
from memories.services.import_redo import REDOABLE_SOURCES, Redo, refuse_second_redo
from memories.services.memories import (
    NewMemory,
    WriteResult,
    memory_create_many,
    memory_note_mentions,
)
from memories.services.remember import memory_remember
from memories.services.trash import trash_batch_create, trash_batch_drop_if_empty

logger = logging.getLogger("contextlayer.imports")

EXTRACTORS = ("auto", "local", "llm", "none")
# Input prices (USD per million tokens) used for the dry-run estimate in LLM modes.
LLM_PRICE_PER_MTOK = {"anthropic": 3.0, "openai": 2.5, "ollama": 0.0}
CHARS_PER_TOKEN = 4
EMBED_WINDOW = 256  # texts embedded together, ahead of the writes that use them
# In `none` mode, smaller: the last window's writes wait for nothing and hide behind nothing, so
# they add to the import's time whole (a quarter of 1,000 memories' writes at 256). 64 is the
# engines' own batch (embeddings.BATCH_SIZE, e5.BATCH): the model runs as fast either way.
MESSAGE_WINDOW = 64
RESTORE_BATCH = 100  # memories per transaction when restoring our own export
ESTIMATE_SAMPLE = 200  # user messages a dry run extracts (it runs inside the upload request)
SAMPLE_SHOWN = 5  # memories a dry run shows as examples

Progress = Callable[[int, int], None]


def import_app(user: Any, source: str) -> ConnectedApp:
    """The user's import app for this source: write-only, allowed every category."""
    name = ConnectedApp.IMPORT_NAMES[source]
    kind = ConnectedApp.Kind.IMPORT
    return live_app(user, kind, name, scopes=[SCOPE_WRITE], categories=sorted(SENSITIVE))


def resolve_extractor(extractor: str) -> str:
    """'auto' means an LLM when EXTRACTION_MODE names one, else the local extractor."""
    if extractor not in EXTRACTORS:
        raise InvalidInput(f"Extractor must be one of {', '.join(EXTRACTORS)}.", field="extractor")
    if extractor == "auto":
        return "llm" if llm_configured() else "local"
    if extractor == "llm" and not llm_configured():
        raise LLMNotConfigured()
    return extractor


# --- Dry run -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    source: str
    extractor: str
    conversations: int
    messages: int
    user_messages: int
    memories: int  # our own export: memories to restore
    characters: int
    tokens: int
    cost_usd: float
    note: str
    # The local extractor, measured on up to ESTIMATE_SAMPLE of the user's messages (exact when
    # there are no more): messages that would yield a memory, the memories, a few examples.
    kept_messages: int | None = None
    kept_memories: int | None = None
    sampled_messages: int = 0
    sample: list[str] = field(default_factory=list)
    # The messages the local extractor does not read as English, by language (most first), and
    # what that means for them: said at the check step, before anything is imported.
    other_languages: list[tuple[str, int]] = field(default_factory=list)
    other_languages_note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _limited(export: ParsedExport, limit: int | None) -> ParsedExport:
    if limit is None:
        return export
    if limit < 1:
        raise InvalidInput("--limit must be at least 1.", field="limit")
    return ParsedExport(
        source=export.source,
        conversations=export.conversations[:limit],
        memories=export.memories[:limit],
    )


def import_estimate(
    *, export: ParsedExport, extractor: str = "auto", limit: int | None = None
) -> Estimate:
    """What an import would process and cost. Reads nothing from and writes nothing to the store."""
    mode = "none" if export.source == "contextlayer" else resolve_extractor(extractor)
    export = _limited(export, limit)
    messages = [m for c in export.conversations for m in c.messages]
    user = [m for m in messages if m.role == "user"]
    preview: _Preview | None = None
    if export.source == "contextlayer":
        chars = sum(len(m.text) for m in export.memories)
        note = "Restores memories as exported; everything is worked out on this server."
        cost = 0.0
    elif mode == "none":
        chars = sum(len(m.text) for m in user)
        note = "One memory per message you wrote; everything is worked out on this server."
        cost = 0.0
    elif mode == "local":
        chars = sum(len(m.text) for m in user)
        preview = _local_preview(
            [(c, m) for c in export.conversations for m in c.messages if m.role == "user"]
        )
        note = (
            "Keeps only what your messages say about you (who you are, work, home, people, "
            "preferences, tools, health, plans), worked out on this server. The same "
            "fact said in several chats becomes one memory."
        )
        cost = 0.0
    else:
        chars = sum(len(m.text) for m in messages)
        price = LLM_PRICE_PER_MTOK.get(settings.EXTRACTION_MODE, 0.0)
        cost = round(chars / CHARS_PER_TOKEN / 1_000_000 * price, 4)
        note = (
            f"Each conversation is sent to the {settings.EXTRACTION_MODE} LLM for extraction; "
            f"input tokens at ${price}/M (output tokens not included)."
        )
    return Estimate(
        source=export.source,
        extractor=mode,
        conversations=len(export.conversations),
        messages=len(messages),
        user_messages=len(user),
        memories=len(export.memories),
        characters=chars,
        tokens=chars // CHARS_PER_TOKEN,
        cost_usd=cost,
        note=note,
        **(asdict(preview) if preview else {}),
    )


@dataclass(frozen=True)
class _Preview:
    kept_messages: int
    kept_memories: int
    sampled_messages: int
    sample: list[str]
    other_languages: list[tuple[str, int]]
    other_languages_note: str


def _local_preview(messages: Sequence[tuple[Conversation, Message]]) -> _Preview:
    """What the local extractor would keep, from messages spread evenly over the export, each
    read in its conversation as the import will read it (a sample lacks the skipped ones)."""
    n = len(messages)
    if n <= ESTIMATE_SAMPLE:
        chosen = list(messages)
    else:
        chosen = [messages[i * n // ESTIMATE_SAMPLE] for i in range(ESTIMATE_SAMPLE)]
    extracted = local_extractor().extract(
        [Turn(m.text, c.id, c.title, c.asked_before(m)) for c, m in chosen]
    )
    seen: RepeatIndex[int] = RepeatIndex()
    texts: list[str] = []  # what the import would write, a joined memory in its anchor's place
    for kept in extracted:
        for k in kept:
            at = extended(texts, k.text)
            if at is None and seen.find(k.text, k.vector) is not None:
                continue
            at = len(texts) if at is None else at
            seen.add(at, k.text, k.vector)
            texts[at : at + 1] = [k.text]
    sample = [t if len(t) <= 200 else t[:199] + "…" for t in texts[:SAMPLE_SHOWN]]
    kept_messages = sum(1 for kept in extracted if kept)
    scale = n / len(chosen) if chosen else 0.0
    other = other_languages([m.text for _, m in messages])
    return _Preview(
        kept_messages=round(kept_messages * scale),
        kept_memories=round(len(texts) * scale),
        sampled_messages=len(chosen),
        sample=sample,
        other_languages=other,
        other_languages_note=other_languages_note(other, n),
    )


# --- Runs ----------------------------------------------------------------------------------


def import_run_create(
    *,
    actor: Actor,
    source: str,
    extractor: str,
    filename: str = "",
    limit: int | None = None,
    estimate: Estimate | None = None,
    upload_path: str = "",
    redo: bool = False,
) -> ImportRun:
    require_owner(actor, SCOPE_WRITE)  # only the owner's own apps import
    with transaction.atomic():
        if redo:  # run at once by its caller (backfill --redo): running from the start
            refuse_second_redo(actor.user)
        return ImportRun.objects.create(
            redo=redo,
            status=ImportRun.Status.RUNNING if redo else ImportRun.Status.PENDING,
            heartbeat_at=timezone.now() if redo else None,
            owner=actor.user,
            source=source,
            extractor=extractor,
            filename=filename[:255],
            limit=limit,
            estimate=estimate.as_dict() if estimate else {},
            upload_path=upload_path,
            started_by=actor.label,
        )


@dataclass
class _Counter:
    run: ImportRun
    progress: Progress | None
    last_save: float = field(default_factory=time.monotonic)
    # A redo (memories/services/import_redo.py): where its replaced memories go, and which they are.
    redo: Redo | None = None

    def step(self, *, force: bool = False) -> None:
        run = self.run
        run.conversations_done += 1
        if self.progress:
            self.progress(run.conversations_done, run.conversations_total)
        now = time.monotonic()
        if force or now - self.last_save > 0.5:
            self.save()
            self.last_save = now

    def save(self) -> None:
        self.run.heartbeat_at = timezone.now()
        self.run.save(
            update_fields=[
                "conversations_done",
                "conversations_imported",
                "conversations_skipped",
                "conversations_failed",
                "memories_created",
                "memories_existing",
                "messages_skipped_deleted",
                "messages_examined",
                "messages_kept",
                "memories_replaced",
                "errors",
                "status",
                "finished_at",
                "started_at",
                "heartbeat_at",
            ]
        )

    def skip(self, item_id: str, message: str) -> None:
        """An item left out on purpose, with why (shown with the run's errors, marked skipped)."""
        self.run.conversations_skipped += 1
        if len(self.run.errors) < 200:
            self.run.errors.append({"id": item_id, "error": message, "skipped": True})
        self.step()

    def fail(self, item_id: str, exc: Exception) -> None:
        self.run.conversations_failed += 1
        if len(self.run.errors) < 200:
            self.run.errors.append({"id": item_id, "error": failure_message(exc)})
        logger.warning(
            "import item failed",
            extra={"run": str(self.run.pk), "item": item_id, "error": type(exc).__name__},
        )


def failure_message(exc: BaseException) -> str:
    """What a run stores about a failure: our own message for a domain error (written for the
    owner, naming the file or field), else a plain sentence. Another exception's text may quote
    what it could not store (PostgreSQL quotes the JSON it refused) and its class name means
    nothing to the owner; the run's errors are read back by the dashboard, the API and whoever
    looks at the database (the log keeps the kind)."""
    if isinstance(exc, DomainError):
        return exc.message[:500]
    return "This could not be imported (the server could not store it); nothing of it was stored."


def import_execute(
    *,
    actor: Actor,
    export: ParsedExport,
    extractor: str = "auto",
    limit: int | None = None,
    run: ImportRun | None = None,
    progress: Progress | None = None,
) -> ImportRun:
    """Import every conversation (or memory) of the export, each in its own transaction."""
    require_owner(actor, SCOPE_WRITE)  # only the owner's own apps import
    mode = "none" if export.source == "contextlayer" else resolve_extractor(extractor)
    export = _limited(export, limit)
    if run is None:
        run = import_run_create(actor=actor, source=export.source, extractor=mode, limit=limit)
    elif run.owner_id != actor.user.pk:
        raise NotFound("import")
    run.source, run.extractor = export.source, mode
    run.status = ImportRun.Status.RUNNING
    run.started_at = run.heartbeat_at = timezone.now()
    run.conversations_total = export.items
    # A resumed run counts again from the start: what the first attempt imported is now
    # "skipped as already imported"; the memories it created stay counted.
    run.conversations_done = run.conversations_imported = 0
    run.conversations_skipped = run.conversations_failed = 0
    run.save()
    app = import_app(actor.user, export.source)
    writer = actor_for(actor.user, app)
    counter = _Counter(run, progress)
    try:
        counter.redo = _redo(writer, run, export)
        if export.source == "contextlayer":
            _restore(writer, export.memories, counter)
        elif mode == "none":
            _import_messages(writer, export.source, export.conversations, counter)
        elif mode == "local":
            _import_local(writer, export.source, export.conversations, counter)
        else:
            _import_with_llm(writer, export.source, export.conversations, counter)
    except Exception:
        run.status = ImportRun.Status.FAILED
        run.finished_at = timezone.now()
        counter.save()
        raise
    run.status = ImportRun.Status.DONE
    run.finished_at = timezone.now()
    counter.save()
    if counter.redo is not None:
        trash_batch_drop_if_empty(writer, counter.redo.batch.pk)
    if run.upload_path:
        _discard_upload(run)
    access_event_create(
        actor,
        AccessEvent.Action.IMPORT,
        count=run.memories_created,
        detail={
            "run": str(run.pk),
            "source": run.source,
            "imported": run.conversations_imported,
            "skipped": run.conversations_skipped,
            "failed": run.conversations_failed,
            **({"redo": True, "replaced": run.memories_replaced} if run.redo else {}),
        },
    )
    return run


def _redo(writer: Actor, run: ImportRun, export: ParsedExport) -> Redo | None:
    """A redo's one trash batch, made once (a resumed redo goes on filling the same one), and
    what it replaces."""
    if not run.redo:
        return None
    if run.source not in REDOABLE_SOURCES:
        raise InvalidInput(
            gettext_noop("Only a Claude or ChatGPT export can be imported again."), field="redo"
        )
    batch = None
    if run.trash_batch_id is not None:
        batch = TrashBatch.objects.filter(owner=run.owner_id, pk=run.trash_batch_id).first()
    if batch is None:
        batch = trash_batch_create(writer, seen=True)
        run.trash_batch = batch
        run.save(update_fields=["trash_batch"])
    ids = [c.id[:255] for c in export.conversations]
    return Redo.start(batch, writer.user, run.source, ids)


def _discard_upload(run: ImportRun) -> None:
    Path(run.upload_path).unlink(missing_ok=True)
    run.upload_path = ""
    run.save(update_fields=["upload_path"])


# --- One memory per user message -------------------------------------------------------------


@dataclass
class _Plan:
    conversation: Conversation
    manifest: ImportedConversation | None
    items: list[NewMemory]
    keys: list[str]  # manifest keys (message ids, '#n' for later parts of a long message)
    skipped_deleted: int
    messages: list[Message] = field(default_factory=list)  # local: the messages to examine


def _split(text: str, limit: int) -> list[str]:
    """A message longer than a memory may be becomes several, cut at paragraph/line/space."""
    parts: list[str] = []
    while len(text) > limit:
        cut = max(
            text.rfind("\n\n", 0, limit), text.rfind("\n", 0, limit), text.rfind(" ", 0, limit)
        )
        if cut < limit // 2:
            cut = limit
        parts.append(text[:cut].strip())
        text = text[cut:].strip()
    if text:
        parts.append(text)
    return [p for p in parts if p]


def _provenance(source: str, conversation: Conversation, message: Message) -> dict[str, Any]:
    when = message.created_at or conversation.created_at
    return {
        "source": source,
        "conversation_id": conversation.id,
        "conversation_title": conversation.title,
        "message_id": message.id,
        "message_created_at": when.isoformat() if when else None,
    }


def _manifests(
    user: Any, source: str, conversations: Sequence[Conversation]
) -> dict[str, ImportedConversation]:
    rows = ImportedConversation.objects.filter(
        owner=user, source=source, conversation_id__in=[c.id for c in conversations]
    )
    return {m.conversation_id: m for m in rows}


def _unchanged(
    manifest: ImportedConversation | None, conversation: Conversation, counter: _Counter
) -> bool:
    """Already imported as it is now (in a redo: already redone by this run): counted as
    skipped."""
    if manifest is None:
        return False
    if counter.redo is not None:
        if manifest.run_id != counter.run.pk:
            return False
    elif manifest.content_hash != conversation.content_hash:
        return False
    counter.run.conversations_skipped += 1
    counter.step()
    return True


def _plans(
    writer: Actor,
    source: str,
    conversations: Sequence[Conversation],
    counter: _Counter,
    *,
    examine: bool = False,
) -> list[_Plan]:
    """What each conversation of a window still needs; unchanged ones are counted as skipped.

    `examine` (the local extractor): new messages are listed whole in `messages`, each id a
    manifest key whether or not it will yield a memory, instead of becoming items.
    """
    user = writer.user
    manifests = _manifests(user, source, conversations)
    refs: dict[tuple[str, str], str] = {}
    for c in conversations:
        for m in c.messages:
            if m.role == "user":
                refs[c.id, m.id] = source_ref_hash(_provenance(source, c, m))
    # The owner's explicit redo reads the archive's deleted messages again.
    deleted = set() if counter.redo is not None else _deleted(user, set(refs.values()))
    limit = settings.MEMORY_MAX_CHARS
    plans: list[_Plan] = []
    for c in conversations:
        manifest = manifests.get(c.id)
        if _unchanged(manifest, c, counter):
            continue
        done = _done(manifest, counter)
        plan = _Plan(c, manifest, [], [], 0)
        for m in c.messages:
            if m.role != "user" or m.id in done:
                continue
            if refs[c.id, m.id] in deleted:
                plan.keys.append(m.id)
                plan.skipped_deleted += 1
                continue
            if examine:
                plan.messages.append(m)
                plan.keys.append(m.id)
                continue
            when = m.created_at or c.created_at
            for index, part in enumerate(_split(m.text, limit)):
                key = m.id if index == 0 else f"{m.id}#{index + 1}"
                if key in done:
                    continue
                prov = {**_provenance(source, c, m), "excerpt": excerpt(m.text, part)}
                if index:
                    prov["part"] = index + 1
                plan.items.append(NewMemory(text=part, provenance=prov, created_at=when))
                plan.keys.append(key)
        plans.append(plan)
    return plans


def _deleted(user: Any, refs: set[str]) -> set[str]:
    return set(
        MemoryTombstone.objects.filter(owner=user, source_ref_hash__in=refs).values_list(
            "source_ref_hash", flat=True
        )
    )


def _done(manifest: ImportedConversation | None, counter: _Counter) -> set[str]:
    """The conversation's messages already handled; a redo handles them all again."""
    if manifest is None or counter.redo is not None:
        return set()
    return set(manifest.message_ids)


def _replace(writer: Actor, conversation: Conversation, counter: _Counter) -> int:
    """In a redo, inside the conversation's transaction: its earlier memories nobody edited go
    to the redo's trash batch before the new ones are written."""
    if counter.redo is None:
        return 0
    return counter.redo.replace(writer, conversation, str(counter.run.pk))


def _windows(
    conversations: Sequence[Conversation], size: int = EMBED_WINDOW
) -> Iterator[list[Conversation]]:
    """Whole conversations, about `size` user messages a window."""
    window: list[Conversation] = []
    texts = 0
    for c in conversations:
        window.append(c)
        texts += sum(1 for m in c.messages if m.role == "user")
        if texts >= size:
            yield window
            window, texts = [], 0
    if window:
        yield window


_R = TypeVar("_R")  # what a window's model work gives the writer


def _pipelined(
    windows: Iterable[list[_Plan]],
    work: Callable[[list[_Plan]], _R],
    write: Callable[[list[_Plan], _R], None],
    *,
    thread: str,
) -> None:
    """Each window's model work (embedding or extraction) in a worker thread while the previous
    window is written: the model and the database work at once, in window order."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix=thread) as pool:
        pending: tuple[list[_Plan], Future[_R]] | None = None
        for plans in windows:
            future = pool.submit(work, plans)
            if pending is not None:
                write(pending[0], pending[1].result())
            pending = (plans, future)
        if pending is not None:
            write(pending[0], pending[1].result())


def _import_messages(
    writer: Actor, source: str, conversations: Sequence[Conversation], counter: _Counter
) -> None:
    """Each user message a memory: a window's texts embedded while the previous one is written."""
    embedder = get_embedder()
    _pipelined(
        (
            _plans(writer, source, window, counter)
            for window in _windows(conversations, MESSAGE_WINDOW)
        ),
        lambda plans: embedder.embed([item.text for plan in plans for item in plan.items]),
        lambda plans, vectors: _write_window(writer, source, plans, vectors, counter),
        thread="import-embed",
    )


def _write_window(
    writer: Actor, source: str, plans: list[_Plan], vectors: list[Any], counter: _Counter
) -> None:
    offset = 0
    for plan in plans:
        own = vectors[offset : offset + len(plan.items)]
        offset += len(plan.items)
        _commit(writer, source, plan, counter, partial(_write_items, writer, plan.items, own))


def _commit(
    writer: Actor,
    source: str,
    plan: _Plan,
    counter: _Counter,
    write: Callable[[], tuple[int, int]],
) -> bool:
    """One conversation: its writes (-> created, already known) and its manifest row in one
    transaction. A failure is recorded and the import goes on; returns whether it committed."""
    try:
        with transaction.atomic():
            replaced = _replace(writer, plan.conversation, counter)
            created, existing = write()
            _record(writer, source, plan.conversation, plan.manifest, plan.keys, counter.run)
    except Exception as exc:
        counter.fail(plan.conversation.id, exc)
        counter.step()
        return False
    run = counter.run
    run.memories_replaced += replaced
    run.conversations_imported += 1
    run.memories_created += created
    run.memories_existing += existing
    run.messages_skipped_deleted += plan.skipped_deleted
    counter.step()
    return True


def _write_items(writer: Actor, items: list[NewMemory], vectors: Sequence[Any]) -> tuple[int, int]:
    results = _create_all(writer, items, vectors)
    created = sum(1 for r in results if r.created)
    return created, len(results) - created


def _create_all(writer: Actor, items: list[NewMemory], vectors: Sequence[Any]) -> list[WriteResult]:
    results: list[WriteResult] = []
    batch = settings.MEMORY_BATCH_MAX
    for start in range(0, len(items), batch):
        results += memory_create_many(
            actor=writer,
            items=items[start : start + batch],
            vectors=vectors[start : start + batch],
        )
    return results


def _record(
    writer: Actor,
    source: str,
    conversation: Conversation,
    manifest: ImportedConversation | None,
    keys: list[str],
    run: ImportRun,
) -> None:
    """Upsert the manifest row, inside the conversation's transaction."""
    if manifest is None:
        ImportedConversation.objects.create(
            owner=writer.user,
            source=source,
            conversation_id=conversation.id[:255],
            content_hash=conversation.content_hash,
            message_ids=keys,
            run=run,
        )
        return
    merged = list(dict.fromkeys([*manifest.message_ids, *keys]))
    ImportedConversation.objects.filter(owner=writer.user, pk=manifest.pk).update(
        content_hash=conversation.content_hash,
        message_ids=merged,
        run=run,
        updated_at=timezone.now(),
    )


# --- The local extractor ---------------------------------------------------------------------


def _oldest_first(conversations: Sequence[Conversation]) -> list[Conversation]:
    """So that of a fact said in many chats, the earliest saying is the one kept."""
    never = datetime.max.replace(tzinfo=UTC)
    return sorted(conversations, key=lambda c: c.created_at or never)


def _said_before(
    user: Any, source: str, conversations: Sequence[Conversation], counter: _Counter
) -> RepeatIndex[uuid.UUID]:
    """Memories the local extractor made in earlier imports (any source, any state): a fact
    said again is counted on them, not added twice, and an archived one is not brought back.
    A redo leaves out the archive's memories it replaces and those in the trash."""
    index: RepeatIndex[uuid.UUID] = RepeatIndex()
    rows = Memory.objects.filter(
        owner=user, superseded_by__isnull=True, provenance__extractor="local"
    )
    if counter.redo is not None:
        ids = [c.id[:255] for c in conversations]
        rows = rows.exclude(pk__in=[i for same in counter.redo.targets.values() for i in same])
        rows = rows.exclude(
            state=MemoryState.TRASHED,
            provenance__source=source,
            provenance__conversation_id__in=ids,
        )
    said = list(rows.order_by("created_at").values_list("id", "text"))
    # Vectors of the extractor's model, whatever model the user's own vectors are in (a store
    # moving to another one: memories/search/moves.py).
    vectors = moves.vectors_of(
        user.pk, current_model(), [i for i, _ in said], [text for _, text in said]
    )
    for (memory_id, text), vector in zip(said, vectors, strict=True):
        index.add(memory_id, text, vector)
    return index


def _import_local(
    writer: Actor, source: str, conversations: Sequence[Conversation], counter: _Counter
) -> None:
    """Like `_import_messages`, but a window's messages go through the local extractor (in the
    worker thread) and only what it keeps is written, repeats counted on the earlier memory."""
    extractor = local_extractor()
    said = _said_before(writer.user, source, conversations, counter)
    _pipelined(
        (
            _plans(writer, source, window, counter, examine=True)
            for window in _windows(_oldest_first(conversations))
        ),
        # Each message with its conversation and title: a later message's "it" or "her name
        # is ..." is read against the earlier ones, a short answer against the assistant's
        # question before it.
        lambda plans: extractor.extract(
            [
                Turn(
                    m.text, p.conversation.id, p.conversation.title, p.conversation.asked_before(m)
                )
                for p in plans
                for m in p.messages
            ]
        ),
        lambda plans, kept: _write_local_window(writer, source, plans, kept, said, counter),
        thread="import-extract",
    )


def _write_local_window(
    writer: Actor,
    source: str,
    plans: list[_Plan],
    extracted: list[list[Kept]],
    said: RepeatIndex[uuid.UUID],
    counter: _Counter,
) -> None:
    offset = 0
    for plan in plans:
        kept = extracted[offset : offset + len(plan.messages)]
        offset += len(plan.messages)
        new: list[tuple[uuid.UUID, str, Any]] = []
        write = partial(_write_kept, writer, source, plan, kept, said, new)
        if _commit(writer, source, plan, counter, write):
            said.extend(new)  # only once committed
            counter.run.messages_examined += len(plan.messages)
            counter.run.messages_kept += sum(1 for k in kept if k)


def _write_kept(
    writer: Actor,
    source: str,
    plan: _Plan,
    kept: Sequence[list[Kept]],
    said: RepeatIndex[uuid.UUID],
    new: list[tuple[uuid.UUID, str, Any]],
) -> tuple[int, int]:
    """One conversation's kept memories: new ones created (appended to `new` for the index),
    repeats counted on the memory they repeat. Returns (created, already known or repeated)."""
    c = plan.conversation
    items: list[NewMemory] = []
    vectors: list[Any] = []
    here: RepeatIndex[int] = RepeatIndex()  # this conversation's new memories, by item index
    repeats: dict[uuid.UUID, list[dict[str, Any]]] = {}
    repeats_here: dict[int, list[dict[str, Any]]] = {}
    repeated = 0
    for message, memories in zip(plan.messages, kept, strict=True):
        provenance = {**_provenance(source, c, message), "extractor": "local"}
        for k in memories:
            place = {key: provenance[key] for key in _PLACE}
            # A later message's clause joined to a memory kept earlier here holds it whole:
            # one memory, in the earlier one's place ("I run three times a week; mostly easy").
            at = extended([e.text for e in items], k.text)
            earlier = said.find(k.text, k.vector) if at is None else None
            item = here.find(k.text, k.vector) if earlier is None and at is None else None
            if earlier is not None:
                repeats.setdefault(earlier, []).append(place)
            elif item is not None:
                repeats_here.setdefault(item, []).append(place)
            if earlier is not None or item is not None:
                repeated += 1
                continue
            when = message.created_at or c.created_at
            own = {**provenance, "excerpt": excerpt(message.text, k.text)}
            at = len(items) if at is None else at
            here.add(at, k.text, k.vector)
            items[at : at + 1] = [NewMemory(text=k.text, provenance=own, created_at=when)]
            vectors[at : at + 1] = [k.vector]
    results = _create_all(writer, items, vectors) if items else []
    for index, result in enumerate(results):
        if result.created:
            new.append((result.memory.id, result.memory.text, vectors[index]))
            if index in repeats_here:
                repeats.setdefault(result.memory.id, []).extend(repeats_here[index])
    memory_note_mentions(actor=writer, mentions=repeats)
    return len(new), len(results) - len(new) + repeated


_PLACE = ("source", "conversation_id", "message_id", "message_created_at")


# --- LLM extraction --------------------------------------------------------------------------


def _import_with_llm(
    writer: Actor, source: str, conversations: Sequence[Conversation], counter: _Counter
) -> None:
    """Each conversation's new messages go, as a transcript, through `memory_remember`, which
    extracts and reconciles facts in LLM modes (see memories.services.memories)."""
    limit = settings.MEMORY_MAX_CHARS
    for window in _windows(conversations):
        manifests = _manifests(writer.user, source, window)
        for c in window:
            manifest = manifests.get(c.id)
            if _unchanged(manifest, c, counter):
                continue
            done = _done(manifest, counter)
            new = [m for m in c.messages if m.id not in done]
            transcript = "\n".join(f"{m.role}: {m.text}" for m in new)
            try:
                with transaction.atomic():
                    replaced = _replace(writer, c, counter)
                    created = existing = 0
                    for part in _split(transcript, limit) if new else []:
                        result = memory_remember(
                            actor=writer,
                            text=part,
                            provenance={
                                **_provenance(source, c, new[-1]),
                                "message_ids": [m.id for m in new][:200],
                            },
                        )
                        created += sum(1 for r in result.results if r.created)
                        existing += sum(1 for r in result.results if not r.created)
                    _record(writer, source, c, manifest, [m.id for m in new], counter.run)
            except Exception as exc:
                counter.fail(c.id, exc)
            else:
                counter.run.conversations_imported += 1
                counter.run.memories_created += created
                counter.run.memories_existing += existing
                counter.run.memories_replaced += replaced
            counter.step()


# --- Restoring our own export ----------------------------------------------------------------


def _restore(writer: Actor, memories: Sequence[ExportedMemory], counter: _Counter) -> None:
    """Bring memories back as exported: text, categories, state, provenance, timestamps, pins,
    history.

    Superseded memories are not restored as memories: their text is in their successor's
    history. Memories that were in the trash are not brought back (counted as deleted by the
    user), nor is one whose id is still the owner's memory (a restore onto the account it was
    exported from): it is there, or in the trash. An id the file names again is skipped, with a
    message: only its first occurrence is restored. hidden_from (app ids of the old server) is
    not restored.
    """
    user = writer.user
    seen: set[str] = set()  # the file's ids met so far, across batches
    for start in range(0, len(memories), RESTORE_BATCH):
        batch = memories[start : start + RESTORE_BATCH]
        done = set(
            ImportedConversation.objects.filter(
                owner=user, source="contextlayer", conversation_id__in=[m.id for m in batch]
            ).values_list("conversation_id", flat=True)
        )
        deleted = set(
            MemoryTombstone.objects.filter(
                owner=user,
                source_ref_hash__in=[h for m in batch if (h := source_ref_hash(m.provenance))],
            ).values_list("source_ref_hash", flat=True)
        )
        held = _still_held(user, batch)
        todo: list[ExportedMemory] = []
        for m in batch:
            if m.id in seen:
                counter.skip(m.id, repeated_id_message(m.id))
                continue
            seen.add(m.id)
            trashed = held.get(m.id)  # None: not a memory of the owner's on this server
            if m.id in done or m.superseded_by or trashed is False:
                counter.run.conversations_skipped += 1
                counter.step()
            elif m.in_trash or trashed or ((h := source_ref_hash(m.provenance)) and h in deleted):
                counter.run.messages_skipped_deleted += 1
                counter.run.conversations_skipped += 1
                counter.step()
            else:
                todo.append(m)
        if todo:
            _restore_group(writer, todo, counter)


def repeated_id_message(memory_id: str) -> str:
    """What the owner reads about an id their file names more than once."""
    return (
        f"The file names memory {memory_id} more than once: only its first occurrence is "
        "restored, and this repeat was skipped."
    )


def _still_held(user: Any, batch: Sequence[ExportedMemory]) -> dict[str, bool]:
    """The batch's ids that are the owner's own memories on this server: id -> in the trash."""
    ids: dict[uuid.UUID, str] = {}
    for m in batch:
        try:
            ids[uuid.UUID(m.id)] = m.id
        except ValueError:
            continue
    rows = Memory.objects.filter(owner=user, pk__in=list(ids)).values_list("pk", "state")
    return {ids[pk]: state == MemoryState.TRASHED for pk, state in rows}


def _restore_group(writer: Actor, todo: list[ExportedMemory], counter: _Counter) -> None:
    """Restore `todo` in one transaction; if that fails, each item in its own, so one bad item
    fails alone and every item is restored whole (memory, history, manifest row) or not at all."""
    try:
        with transaction.atomic():
            created, existing = _restore_batch(writer, todo)
    except Exception as exc:
        if len(todo) > 1:
            for m in todo:
                _restore_group(writer, [m], counter)
        else:
            counter.fail(todo[0].id, exc)
            counter.step()
        return
    counter.run.conversations_imported += len(todo)
    counter.run.memories_created += created
    counter.run.memories_existing += existing
    for _ in todo:
        counter.step()


def _restore_batch(writer: Actor, todo: list[ExportedMemory]) -> tuple[int, int]:
    results = memory_create_many(
        actor=writer,
        reconcile=False,
        items=[
            NewMemory(
                text=m.text,
                categories=m.categories,
                provenance=m.provenance,
                metadata=m.metadata,
                created_at=m.created_at,
                state=m.state,
            )
            for m in todo
        ],
    )
    created = 0
    for exported, result in zip(todo, results, strict=True):
        if result.created:
            created += 1
            _restore_fields(result.memory, exported)
        ImportedConversation.objects.create(
            owner=writer.user,
            source="contextlayer",
            conversation_id=exported.id,
            content_hash=exported.content_hash,
            message_ids=[exported.id],
        )
    return created, len(todo) - created


def _restore_fields(memory: Memory, exported: ExportedMemory) -> None:
    Memory.objects.filter(owner_id=memory.owner_id, pk=memory.pk).update(
        updated_at=exported.updated_at,
        user_edited_at=exported.user_edited_at,
        categories_set_by_user=exported.categories_set_by_user,
        # A memory that holds a credential stays private whatever an older export said
        # (memories/services/harm.py made it so when it was written again).
        is_private=exported.is_private or memory.is_private,
        pinned_at=exported.pinned_at,
        origin=exported.origin,
        origin_app_name=exported.origin_app_name,
    )
    for version in exported.versions:
        row = MemoryVersion.objects.create(
            memory=memory,
            owner=memory.owner,
            text=version.text,
            kind=version.kind,
            changed_by=version.changed_by[:120],
            reason=version.reason[:500],
        )
        if version.created_at:
            MemoryVersion.objects.filter(owner_id=row.owner_id, pk=row.pk).update(
                created_at=version.created_at
            )
