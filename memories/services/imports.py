"""The import engine: turn a parsed export into memories, idempotently (`import_execute`), as the
source's own `import` ConnectedApp, and finish the run (its counts, the redo's trash batch, the
upload, the access event). Checked beforehand by `memories.services.import_check`; runs are
prepared and queued by `memories.services.import_runs`; the engine imports neither it nor the
task. Extractors, the manifest and redo: ARCHITECTURE.md ("Imports")."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor, actor_for
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import InvalidInput, NotFound
from kernel.gates import SCOPE_WRITE, require_owner
from memories.ingest.types import Conversation, ParsedExport
from memories.models import TrashBatch
from memories.search.embeddings import get_embedder
from memories.services.adding import NewMemory
from memories.services.import_check import Estimate, import_app, limited, resolve_extractor
from memories.services.import_local import import_local
from memories.services.import_plans import (
    Counter,
    Plan,
    Progress,
    already_imported,
    commit,
    create_all,
    handled_messages,
    manifests_of,
    message_provenance,
    pipelined,
    plans_of,
    record_manifest,
    replace_earlier,
    split_text,
    windows_of,
)
from memories.services.import_redo import REDOABLE_SOURCES, Redo, refuse_second_redo
from memories.services.import_restore import restore_export
from memories.services.remember import memory_remember
from memories.services.trash import trash_batch_create, trash_batch_drop_if_empty
from memories.transfer_models import ImportRun

# In `none` mode, smaller: the last window's writes wait for nothing and hide behind nothing, so
# they add to the import's time whole (a quarter of 1,000 memories' writes at 256). 64 is the
# engines' own batch (embeddings.BATCH_SIZE, e5.BATCH): the model runs as fast either way.
MESSAGE_WINDOW = 64


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
    export = limited(export, limit)
    run = _started(actor, export, mode, limit, run)
    app = import_app(actor.user, export.source)
    writer = actor_for(actor.user, app)
    counter = Counter(run, progress)
    try:
        counter.redo = _redo(writer, run, export)
        if export.source == "contextlayer":
            restore_export(writer, export.memories, counter)
        elif mode == "none":
            _import_messages(writer, export.source, export.conversations, counter)
        elif mode == "local":
            import_local(writer, export.source, export.conversations, counter)
        else:
            _import_with_llm(writer, export.source, export.conversations, counter)
    except Exception:
        run.status = ImportRun.Status.FAILED
        run.finished_at = timezone.now()
        counter.save()
        raise
    _finish(actor, writer, counter)
    return run


def _started(
    actor: Actor, export: ParsedExport, mode: str, limit: int | None, run: ImportRun | None
) -> ImportRun:
    """The run, new or resumed (the owner's only), marked running and counted from the start."""
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
    return run


def _finish(actor: Actor, writer: Actor, counter: Counter) -> None:
    """A run that went through: marked done, its redo's trash batch dropped if nothing went
    into it, its upload deleted, and one access event with its counts."""
    run = counter.run
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


def _import_messages(
    writer: Actor, source: str, conversations: Sequence[Conversation], counter: Counter
) -> None:
    """Each user message a memory: a window's texts embedded while the previous one is written."""
    embedder = get_embedder()
    pipelined(
        (
            plans_of(writer, source, window, counter)
            for window in windows_of(conversations, MESSAGE_WINDOW)
        ),
        lambda plans: embedder.embed([item.text for plan in plans for item in plan.items]),
        lambda plans, vectors: _write_window(writer, source, plans, vectors, counter),
        thread="import-embed",
    )


def _write_window(
    writer: Actor, source: str, plans: list[Plan], vectors: list[Any], counter: Counter
) -> None:
    offset = 0
    for plan in plans:
        own = vectors[offset : offset + len(plan.items)]
        offset += len(plan.items)
        commit(writer, source, plan, counter, partial(_write_items, writer, plan.items, own))


def _write_items(writer: Actor, items: list[NewMemory], vectors: Sequence[Any]) -> tuple[int, int]:
    results = create_all(writer, items, vectors)
    created = sum(1 for r in results if r.created)
    return created, len(results) - created


def _import_with_llm(
    writer: Actor, source: str, conversations: Sequence[Conversation], counter: Counter
) -> None:
    """Each conversation's new messages go, as a transcript, through `memory_remember`, which
    extracts and reconciles facts in LLM modes (see memories/services/remember.py)."""
    limit = settings.MEMORY_MAX_CHARS
    for window in windows_of(conversations):
        manifests = manifests_of(writer.user, source, window)
        for c in window:
            manifest = manifests.get(c.id)
            if already_imported(manifest, c, counter):
                continue
            done = handled_messages(manifest, counter)
            new = [m for m in c.messages if m.id not in done]
            transcript = "\n".join(f"{m.role}: {m.text}" for m in new)
            try:
                with transaction.atomic():
                    replaced = replace_earlier(writer, c, counter)
                    created = existing = 0
                    for part in split_text(transcript, limit) if new else []:
                        result = memory_remember(
                            actor=writer,
                            text=part,
                            provenance={
                                **message_provenance(source, c, new[-1]),
                                "message_ids": [m.id for m in new][:200],
                            },
                        )
                        created += sum(1 for r in result.results if r.created)
                        existing += sum(1 for r in result.results if not r.created)
                    record_manifest(writer, source, c, manifest, [m.id for m in new], counter.run)
            except Exception as exc:
                counter.fail(c.id, exc)
            else:
                counter.run.conversations_imported += 1
                counter.run.memories_created += created
                counter.run.memories_existing += existing
                counter.run.memories_replaced += replaced
            counter.step()
