"""Import a Claude or ChatGPT export (or our own) into a user's memory. Dry run unless --yes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from accounts.actors import owner_actor
from accounts.management.base import UserCommand
from accounts.models import ConnectedApp
from kernel.errors import LLMNotConfigured
from memories.ingest.detect import load_export
from memories.ingest.types import SOURCES
from memories.management.progress import progress_bar
from memories.services.import_check import EXTRACTORS, Estimate, import_estimate
from memories.services.import_redo import Previous, previous_import
from memories.services.imports import import_execute, import_run_create
from memories.transfer_models import ImportRun


class Command(UserCommand):
    help = (
        "Import an export (.zip, unzipped folder or conversations.json). Without --yes only "
        "shows what would be imported and what it would cost."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="The export .zip, its unzipped folder, or a .json file.")
        parser.add_argument("--user", required=True, help="Email of the user to import into.")
        parser.add_argument(
            "--source", choices=("auto", *SOURCES), default="auto", help="Export format."
        )
        parser.add_argument(
            "--extractor",
            choices=EXTRACTORS,
            default="auto",
            help=(
                "local: keep only what your messages say about you, worked out on this machine; "
                "none: one memory per user message; llm: extract facts (EXTRACTION_MODE). "
                "auto: llm when EXTRACTION_MODE names an LLM, else local."
            ),
        )
        parser.add_argument("--limit", type=int, help="Only the first N conversations/memories.")
        parser.add_argument("--yes", action="store_true", help="Import (otherwise a dry run).")
        parser.add_argument(
            "--redo",
            action="store_true",
            help=(
                "Import an archive imported before again, with this extractor: its memories "
                "nobody edited go to the trash, every message is read again (deleted ones too)."
            ),
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        user = self.user_by_email(opts["user"])
        actor = owner_actor(user, ConnectedApp.CLI, operator="manage.py backfill")
        try:
            export = load_export(Path(opts["path"]), opts["source"])
            estimate = import_estimate(
                export=export, extractor=opts["extractor"], limit=opts["limit"]
            )
        except LLMNotConfigured:
            raise CommandError(
                "--extractor llm needs an LLM: set EXTRACTION_MODE (anthropic, openai or ollama)."
            ) from None
        self._estimate(estimate)
        previous = previous_import(user, export)
        self._previous(previous, estimate)
        if opts["redo"] and previous is None:
            raise CommandError("--redo: this archive was not imported before.")
        if not opts["yes"]:
            self.stdout.write("Dry run: nothing was imported. Add --yes to import.")
            return
        run = import_execute(
            actor=actor,
            export=export,
            extractor=opts["extractor"],
            limit=opts["limit"],
            run=import_run_create(
                actor=actor,
                source=export.source,
                extractor=estimate.extractor,
                limit=opts["limit"],
                redo=opts["redo"],
            ),
            progress=progress_bar(self.stderr, "importing"),
        )
        self.stderr.write("")
        self._outcome(run)

    def _estimate(self, estimate: Estimate) -> None:
        """What the export holds and what importing it would cost, with the local preview."""
        # Tokens and cost only mean something when a model is paid to read the text (as on the
        # import page); local and none work on this server and send nothing anywhere.
        paid = estimate.extractor == "llm"
        self.stdout.write(
            f"{estimate.source} export: {estimate.conversations} conversations, "
            f"{estimate.messages} messages ({estimate.user_messages} from the user)"
            + (f", {estimate.memories} memories" if estimate.memories else "")
            + f", {estimate.characters:,} characters"
            + (f", ~{estimate.tokens:,} tokens" if paid else "")
            + f"; extractor {estimate.extractor}"
            + (
                f"; estimated cost ${estimate.cost_usd:.2f}."
                if paid
                else "; nothing leaves this server."
            )
        )
        self.stdout.write(estimate.note)
        self._local_preview(estimate)

    def _outcome(self, run: ImportRun) -> None:
        """What the import did: counts, what a redo replaced, what the local extractor kept,
        and each conversation skipped or failed."""
        self.stdout.write(
            f"Imported {run.conversations_imported}, skipped {run.conversations_skipped} as "
            f"already imported, failed {run.conversations_failed}. Memories: "
            f"{run.memories_created} new, {run.memories_existing} already known, "
            f"{run.messages_skipped_deleted} not brought back (deleted by the user)."
        )
        if run.redo:
            self.stdout.write(
                f"Replaced the earlier import: {run.memories_replaced} of its memories went to "
                "the trash."
            )
        if run.extractor == "local":
            self.stdout.write(
                f"Local extractor: {run.messages_examined} of your messages examined, "
                f"{run.messages_kept} kept."
            )
        for error in run.errors:
            how = "skipped" if error.get("skipped") else "failed"
            self.stdout.write(f"  {how} {error['id']}: {error['error']}")

    def _previous(self, previous: Previous | None, estimate: Estimate) -> None:
        if previous is None:
            return
        self.stdout.write(
            f"You imported this archive on {previous.imported_at[:16].replace('T', ' ')} UTC "
            f"(extractor {previous.extractor or 'unknown'}); {previous.deleted} of its memories "
            "were deleted since. Without --redo only what is new is added. With --redo "
            f"(extractor {estimate.extractor}): {previous.replaced} replaced (to the trash), "
            f"{previous.deleted} back, {previous.stays} changed since stay."
        )

    def _local_preview(self, estimate: Estimate) -> None:
        if estimate.kept_messages is None:
            return
        measured = (
            f"estimated on {estimate.sampled_messages} of them"
            if estimate.sampled_messages < estimate.user_messages
            else "all of them read"
        )
        self.stdout.write(
            f"Would keep {estimate.kept_messages} of your {estimate.user_messages} messages, as "
            f"{estimate.kept_memories} memories ({measured})."
            + (" For example:" if estimate.sample else "")
        )
        for text in estimate.sample:
            self.stdout.write(f"  - {text}")
        if estimate.other_languages_note:
            self.stdout.write(estimate.other_languages_note + " (--extractor none)")
