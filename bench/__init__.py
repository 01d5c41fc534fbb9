"""Benchmarks for the memory core: `uv run python -m bench <name> ...` (see docs/benchmarks.md)."""

from contextlayer.process import SERVE, set_threads

# Before any benchmark module imports numpy: the server's one BLAS thread (contextlayer/process.py).
# A benchmark that stands for a gunicorn worker sets that layout before Django (bench/__main__.py).
set_threads(SERVE)
