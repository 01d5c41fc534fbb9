"""Benchmarks for the memory core: `uv run python -m bench <name> ...` (see docs/benchmarks.md)."""
