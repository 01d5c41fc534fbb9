"""What a server process loads before its first request needs it.

Loaded lazily inside a request, each of these holds that worker's thread: the embedding model
and the classifier's prototype vectors (seconds), the harm screen's few hundred patterns and its
instruction model (about half a second: an app's first write paid it, `bench add --as-app`), the
sensitive-label model's weights (memories/sensitive_model.py, read and hash-checked once), the
classifier's signal words in every language (about 40 ms each, paid by a language's first
write), the language identifier, and local reconciliation's wording pattern. `serve`, the MCP
worker's lifespan and `mcp` (stdio) call this once.
"""

from __future__ import annotations

from memories import language, sensitive_model
from memories.classify import classifier_for
from memories.harm.screen import screen
from memories.reconciliation.wording import said
from memories.search.embeddings import get_embedder


def warm_up() -> None:
    classifier_for()
    get_embedder().embed_query("warm up")
    screen("I warm up the screen: its patterns and its instruction model.")
    language.detect("warm up the language identifier")
    sensitive_model.category("I warm up the sensitive-label model.")
    said("I warm up the wording pattern of local reconciliation.")
    classifier_for().warm_signals()  # last: the calls above are what a first search waits for
