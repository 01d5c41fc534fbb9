"""A thread-safe least-recently-used map with a budget: the search cache's indexes, callers' masks
and view totals are each one (`index.SearchCache`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class Lru:
    """A thread-safe least-recently-used map with a budget (sizes are the caller's units)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[Any, Any] = OrderedDict()
        self._sizes: dict[Any, int] = {}
        self._total = 0

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Any, value: Any, size: int, budget: int) -> None:
        with self._lock:
            if key in self._entries:
                del self._entries[key]
                self._total -= self._sizes.pop(key)
            if size > budget:
                return
            self._entries[key] = value
            self._sizes[key] = size
            self._total += size
            while self._total > budget:
                old, _ = self._entries.popitem(last=False)
                self._total -= self._sizes.pop(old)

    def items(self) -> list[tuple[Any, Any]]:
        """A snapshot of the entries, least recently used first."""
        with self._lock:
            return list(self._entries.items())

    def swap(self, key: Any, old: Any, new: Any, size: int, budget: int) -> None:
        """Replace `old` by `new` (None: remove it), unless another thread put something else
        under `key` since `old` was read."""
        with self._lock:
            if self._entries.get(key) is not old:
                return
            del self._entries[key]
            self._total -= self._sizes.pop(key)
        if new is not None:
            self.put(key, new, size, budget)

    def forget(self, drop: Any) -> None:
        """Remove every entry whose key `drop(key)` is true."""
        with self._lock:
            for key in [k for k in self._entries if drop(k)]:
                del self._entries[key]
                self._total -= self._sizes.pop(key)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._sizes.clear()
            self._total = 0
