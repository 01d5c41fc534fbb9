"""Embeddings of prototype texts (a category's description, examples and look-alikes; the local
extractor's lasting and passing statements), each embedded once per process and model.

The classifier (memories/classify.py) and the local extractor (memories/extraction/local.py) both
compare memories with prototypes; this is the one cache of their vectors, and the one store of the
default vocabulary's on disk, so a server starting again does not embed them again.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from django.conf import settings

from memories.categories.vocabulary import DEFAULT_CATEGORIES
from memories.search.embeddings import DIMENSIONS, get_embedder

_VECTORS_MAX = 4096
_DEFAULT_TEXTS = frozenset(
    text
    for category in DEFAULT_CATEGORIES
    for text in (category.description, *category.examples, *category.ordinary)
)
_vectors: dict[tuple[str, str], np.ndarray] = {}
_vectors_lock = threading.Lock()


def prototype_vectors(texts: Sequence[str]) -> list[np.ndarray]:
    """Embeddings of prototype texts, each embedded once per process and model.

    A user's own category then costs a classifier its few texts, not the whole default vocabulary
    again (hundreds of texts: seconds of CPU inside a request). The default vocabulary's are also
    kept on disk (`_stored`), so a server starting again does not embed them again.
    """
    embedder = get_embedder()
    model = embedder.model_name
    with _vectors_lock:
        known = {t: _vectors[(model, t)] for t in texts if (model, t) in _vectors}
    missing = [t for t in dict.fromkeys(texts) if t not in known]
    ours = [t for t in missing if t in _DEFAULT_TEXTS]
    theirs = [t for t in missing if t not in _DEFAULT_TEXTS]  # a user's category: never on disk
    if ours:
        known.update(zip(ours, _stored(model, ours, embedder.embed), strict=True))
    if theirs:
        known.update(zip(theirs, embedder.embed(theirs), strict=True))
    with _vectors_lock:
        if len(_vectors) + len(missing) > _VECTORS_MAX:
            _vectors.clear()
        _vectors.update({(model, t): known[t] for t in missing})
    return [known[t] for t in texts]


def _stored(
    model: str, texts: list[str], embed: Callable[[Sequence[str]], list[np.ndarray]]
) -> list[np.ndarray]:
    """`embed(texts)` of the default vocabulary's prototypes, read from CONTEXT_LAYER_HOME/models
    when this model embedded exactly these texts before (every start-up would otherwise spend
    about a second of CPU on them). Only the shipped vocabulary is written there, never a user's
    category."""
    digest = hashlib.sha256("\n".join([model, *texts]).encode()).hexdigest()[:32]
    path = Path(settings.HOME) / "models" / f"prototypes-{digest}.npy"
    try:
        stored = np.load(path, allow_pickle=False)
        if stored.shape == (len(texts), DIMENSIONS):
            return list(stored)
    except (OSError, ValueError):
        pass
    vectors = embed(texts)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as handle:
            np.save(handle, np.asarray(vectors, dtype=np.float32), allow_pickle=False)
        partial.replace(path)  # atomic: another process never reads half a file
    except OSError:
        pass  # a read-only home: embed again next time
    return vectors
