"""A one-line text progress bar for management commands (no extra dependency)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.core.management.base import OutputWrapper

_WIDTH = 30


def progress_bar(stream: OutputWrapper, label: str = "") -> Callable[[int, int], None]:
    """Drawn on `stream` (stderr), redrawn at most ten times a second and always at the end."""
    last = [0.0]
    prefix = f"{label} " if label else ""

    def draw(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < 0.1:
            return
        last[0] = now
        width = 30
        filled = width * done // max(total, 1)
        stream.write(
            f"\r{prefix}[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", ending=""
        )
        stream.flush()

    return draw
