"""This process's count of committed changes to who may call: an app revoked, paused or given a
narrower grant, a token revoked, an account erased. A credential this process cached before the
latest change is read again (`accounts.credentials.CredentialCache`), so the process that made
the change refuses at once; every other process within `CREDENTIAL_CACHE_SECONDS`.
"""

from __future__ import annotations

import threading

from django.db import transaction

_lock = threading.Lock()
_count = 0


def access_changes() -> int:
    """How many such changes this process has committed so far."""
    return _count


def _committed() -> None:
    global _count
    with _lock:
        _count += 1


def access_changed() -> None:
    """Call inside the transaction of the change: counted once it commits (counted before, a
    request in between would cache what the uncommitted change has not yet replaced)."""
    transaction.on_commit(_committed)
