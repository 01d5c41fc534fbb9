"""Re-embed every memory with the current (or a named) model, so search compares like with like."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from memories.management.progress import progress_bar
from memories.search.embeddings import get_embedder
from memories.services.maintenance import reembed_all


class Command(BaseCommand):
    help = "Re-embed every memory with EMBEDDING_MODEL (or --model); shows progress."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--model", help="fastembed model name; defaults to the EMBEDDING_MODEL setting."
        )
        parser.add_argument(
            "--all", action="store_true", help="Also re-embed rows already on that model."
        )
        parser.add_argument("--batch", type=int, default=256, help="Rows per batch.")

    def handle(self, *args: Any, **opts: Any) -> None:
        embedder = get_embedder(opts["model"])

        count = reembed_all(
            embedder=embedder,
            only_stale=not opts["all"],
            batch=opts["batch"],
            progress=progress_bar(self.stderr),
        )
        self.stderr.write("")
        self.stdout.write(f"Re-embedded {count} memories with {embedder.model_name}.")
