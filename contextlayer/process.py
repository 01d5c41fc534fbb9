"""The threads a server process runs with: one home for `serve`, gunicorn's workers and the
benchmarks, which must measure a process set up like the one that answers clients.

- One OpenBLAS thread, always, set before numpy is first imported (OpenBLAS reads it once):
  search's matrix-vector product is memory-bound, and OpenBLAS's thread hand-off turned a 0.2 ms
  scan of 5,000 vectors into 20 ms at the median on a busy machine (docs/benchmarks.md).
- The embedding model's onnxruntime threads (`EMBEDDING_THREADS`): onnxruntime's own choice
  (0: a pool over every core) for `serve`, a single process; one per worker under gunicorn,
  whose workers already fill the cores (spinning pools in every worker fight over them).

Imports nothing that loads numpy or Django, so callers can run it first.
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Any

SERVE = "serve"  # manage.py serve: one process
GUNICORN = "gunicorn"  # gunicorn.conf.py: WEB_CONCURRENCY worker processes


def set_threads(layout: str) -> None:
    """The thread settings of a `layout` process, unless the environment already says."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if layout == GUNICORN:
        os.environ.setdefault("EMBEDDING_THREADS", "1")


def blas_threads() -> int | None:
    """How many threads the OpenBLAS that numpy loaded really uses (None: none loaded yet, or
    not OpenBLAS). Asked of the library itself, as threadpoolctl does."""
    if "numpy" not in sys.modules:
        return None
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    except OSError:
        return None
    for path in sorted(paths):
        library = ctypes.CDLL(path)
        for symbol in (
            "scipy_openblas_get_num_threads64_",
            "openblas_get_num_threads64_",
            "openblas_get_num_threads",
        ):
            getter = getattr(library, symbol, None)
            if getter is not None:
                return int(getter())
    return None


def describe(layout: str, workers: int = 1) -> dict[str, Any]:
    """What a benchmark states about the process it measured in (needs Django's settings)."""
    from django.conf import settings

    return {
        "layout": layout,
        "workers": workers,
        "blas_threads": blas_threads(),
        "embedding_threads": settings.EMBEDDING_THREADS or "onnxruntime default (every core)",
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "loadavg_1m": round(os.getloadavg()[0], 2),
    }
