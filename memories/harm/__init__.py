"""What must never reach an app, recognised in a text: credentials and identifiers
(`credentials.py`), and text that instructs an AI assistant instead of saying something about the
person (`instructions.py`); `screen.py` puts both together and cuts a text down to what may be
kept. Pure code, like `memories/extraction/`: no models, no database, no services.

What happens to a text that holds either is the services' decision (memories/services/harm.py).
Tuned on the dev split of bench/data/harm.json only; `uv run python -m bench harm` reports the
dev and held-out figures (docs/benchmarks.md).
"""
