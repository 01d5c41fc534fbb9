"""Benchmarks: `uv run python -m bench NAME [options]`."""
