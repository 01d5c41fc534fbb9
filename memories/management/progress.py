"""A one-line text progress bar for management commands (no extra dependency)."""

from __future__ import annotations

from collections.abc import Callable

from django.core.management.base import OutputWrapper


def progress_bar(stream: OutputWrapper, width: int = 30) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        filled = width * done // max(total, 1)
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", ending="")

    return show
