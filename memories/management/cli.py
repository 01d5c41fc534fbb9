"""What the data commands (backfill, export, erase) share: finding the user, drawing progress."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.core.management.base import CommandError, OutputWrapper

from accounts.models import User


def user_by_email(email: str) -> User:
    user = User.objects.filter(email__iexact=email.strip()).first()
    if user is None:
        raise CommandError(f"No user with the email {email!r}.")
    return user


def progress_bar(stream: OutputWrapper, label: str) -> Callable[[int, int], None]:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""
    last = [0.0]

    def draw(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < 0.1:
            return
        last[0] = now
        width = 30
        filled = width * done // max(total, 1)
        stream.write(
            f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}", ending=""
        )
        stream.flush()

    return draw
