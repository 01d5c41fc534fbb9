"""Per-user jobs on threads of their own: the search path hands them the slow writes of a cache
(a snapshot into PostgreSQL, its copy into a file) so the search that read the index does not
wait for them."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable

from django.db import connection

logger = logging.getLogger(__name__)


class Jobs:
    """One job per key at a time (a key whose job is under way is not queued again), each on a
    daemon thread with its own connection, closed when it ends. `background = False` runs a job
    on the caller's thread, in its transaction (tests)."""

    def __init__(self) -> None:
        self.background = True
        self._lock = threading.Lock()
        self._running: dict[Hashable, threading.Thread] = {}

    def run(self, key: Hashable, job: Callable[[], object], name: str) -> None:
        if not self.background:
            job()
            return
        with self._lock:
            if key in self._running:
                return
            thread = threading.Thread(target=self._run, args=(key, job), name=name, daemon=True)
            self._running[key] = thread
        thread.start()

    def _run(self, key: Hashable, job: Callable[[], object]) -> None:
        try:
            job()
        except Exception:  # a cache not written: the next cold load reads from further back
            logger.exception("search cache write failed")
        finally:
            connection.close()
            with self._lock:
                self._running.pop(key, None)

    def flush(self) -> None:
        """Wait for the jobs under way (tests, benchmarks)."""
        with self._lock:
            running = list(self._running.values())
        for thread in running:
            thread.join()


# The search path's one instance: tests switch it to inline (`tests/conftest.py`).
writer = Jobs()
