"""Benchmarks: `uv run python -m bench NAME`; each prints one JSON object last."""
