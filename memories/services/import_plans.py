"""What a running import shares between its ways of reading an export: the run's counters, what
each conversation still needs (`plans_of`, by the manifest and the tombstones), windows of
conversations whose model work runs beside the previous window's writes (`pipelined`), and one
conversation's writes committed with its manifest row (`commit`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.actors import Actor
from kernel.errors import DomainError
from memories.ingest.types import Conversation, Message
from memories.models import MemoryTombstone
from memories.provenance import excerpt, source_ref_hash
from memories.services.adding import NewMemory, WriteResult, memory_create_many
from memories.services.import_redo import Redo
from memories.transfer_models import ImportedConversation, ImportRun

logger = logging.getLogger("contextlayer.imports")

EMBED_WINDOW = 256  # texts embedded together, ahead of the writes that use them

Progress = Callable[[int, int], None]


@dataclass
class Counter:
    """A run's counts as it goes, saved at most twice a second (and the redo it belongs to)."""

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


@dataclass
class Plan:
    """What one conversation of a window still needs written (and the manifest keys it adds)."""

    conversation: Conversation
    manifest: ImportedConversation | None
    items: list[NewMemory]
    keys: list[str]  # manifest keys (message ids, '#n' for later parts of a long message)
    skipped_deleted: int
    messages: list[Message] = field(default_factory=list)  # local: the messages to examine


def split_text(text: str, limit: int) -> list[str]:
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


def message_provenance(source: str, conversation: Conversation, message: Message) -> dict[str, Any]:
    when = message.created_at or conversation.created_at
    return {
        "source": source,
        "conversation_id": conversation.id,
        "conversation_title": conversation.title,
        "message_id": message.id,
        "message_created_at": when.isoformat() if when else None,
    }


def manifests_of(
    user: Any, source: str, conversations: Sequence[Conversation]
) -> dict[str, ImportedConversation]:
    rows = ImportedConversation.objects.filter(
        owner=user, source=source, conversation_id__in=[c.id for c in conversations]
    )
    return {m.conversation_id: m for m in rows}


def already_imported(
    manifest: ImportedConversation | None, conversation: Conversation, counter: Counter
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


def plans_of(
    writer: Actor,
    source: str,
    conversations: Sequence[Conversation],
    counter: Counter,
    *,
    examine: bool = False,
) -> list[Plan]:
    """What each conversation of a window still needs; unchanged ones are counted as skipped.

    `examine` (the local extractor): new messages are listed whole in `messages`, each id a
    manifest key whether or not it will yield a memory, instead of becoming items.
    """
    user = writer.user
    manifests = manifests_of(user, source, conversations)
    refs: dict[tuple[str, str], str] = {}
    for c in conversations:
        for m in c.messages:
            if m.role == "user":
                refs[c.id, m.id] = source_ref_hash(message_provenance(source, c, m))
    # The owner's explicit redo reads the archive's deleted messages again.
    deleted = set() if counter.redo is not None else _deleted_refs(user, set(refs.values()))
    limit = settings.MEMORY_MAX_CHARS
    plans: list[Plan] = []
    for c in conversations:
        manifest = manifests.get(c.id)
        if already_imported(manifest, c, counter):
            continue
        done = handled_messages(manifest, counter)
        plan = Plan(c, manifest, [], [], 0)
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
            for index, part in enumerate(split_text(m.text, limit)):
                key = m.id if index == 0 else f"{m.id}#{index + 1}"
                if key in done:
                    continue
                prov = {**message_provenance(source, c, m), "excerpt": excerpt(m.text, part)}
                if index:
                    prov["part"] = index + 1
                plan.items.append(NewMemory(text=part, provenance=prov, created_at=when))
                plan.keys.append(key)
        plans.append(plan)
    return plans


def _deleted_refs(user: Any, refs: set[str]) -> set[str]:
    return set(
        MemoryTombstone.objects.filter(owner=user, source_ref_hash__in=refs).values_list(
            "source_ref_hash", flat=True
        )
    )


def handled_messages(manifest: ImportedConversation | None, counter: Counter) -> set[str]:
    """The conversation's messages already handled; a redo handles them all again."""
    if manifest is None or counter.redo is not None:
        return set()
    return set(manifest.message_ids)


def replace_earlier(writer: Actor, conversation: Conversation, counter: Counter) -> int:
    """In a redo, inside the conversation's transaction: its earlier memories nobody edited go
    to the redo's trash batch before the new ones are written."""
    if counter.redo is None:
        return 0
    return counter.redo.replace(writer, conversation, str(counter.run.pk))


def windows_of(
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


def pipelined(
    windows: Iterable[list[Plan]],
    work: Callable[[list[Plan]], _R],
    write: Callable[[list[Plan], _R], None],
    *,
    thread: str,
) -> None:
    """Each window's model work (embedding or extraction) in a worker thread while the previous
    window is written: the model and the database work at once, in window order."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix=thread) as pool:
        pending: tuple[list[Plan], Future[_R]] | None = None
        for plans in windows:
            future = pool.submit(work, plans)
            if pending is not None:
                write(pending[0], pending[1].result())
            pending = (plans, future)
        if pending is not None:
            write(pending[0], pending[1].result())


def commit(
    writer: Actor,
    source: str,
    plan: Plan,
    counter: Counter,
    write: Callable[[], tuple[int, int]],
) -> bool:
    """One conversation: its writes (-> created, already known) and its manifest row in one
    transaction. A failure is recorded and the import goes on; returns whether it committed."""
    try:
        with transaction.atomic():
            replaced = replace_earlier(writer, plan.conversation, counter)
            created, existing = write()
            record_manifest(
                writer, source, plan.conversation, plan.manifest, plan.keys, counter.run
            )
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


def create_all(writer: Actor, items: list[NewMemory], vectors: Sequence[Any]) -> list[WriteResult]:
    results: list[WriteResult] = []
    batch = settings.MEMORY_BATCH_MAX
    for start in range(0, len(items), batch):
        results += memory_create_many(
            actor=writer,
            items=items[start : start + batch],
            vectors=vectors[start : start + batch],
        )
    return results


def record_manifest(
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
