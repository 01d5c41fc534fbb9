import hashlib
import importlib.util
from typing import Any

import numpy as np
import pytest

from memories.search import embeddings


def test_torch_is_not_installed() -> None:
    # The model must load without PyTorch; a package that pulls it in adds gigabytes.
    assert importlib.util.find_spec("torch") is None
    assert importlib.util.find_spec("sentence_transformers") is None


def test_default_model_folder_holds_the_checked_model() -> None:
    folder = embeddings.default_model_dir()
    onnx = (folder / "model.onnx").resolve()
    assert hashlib.sha256(onnx.read_bytes()).hexdigest() == embeddings.MODEL_SHA256
    configs = ("tokenizer.json", "config.json", "tokenizer_config.json", "special_tokens_map.json")
    for name in configs:
        assert (folder / name).exists()


def test_embeddings_are_normalised_384_dims_and_meaningful() -> None:
    embedder = embeddings.get_embedder()
    a, b, c = embedder.embed(
        ["My daughter starts kindergarten", "My child begins school", "The boiler is broken"]
    )
    assert a.shape == (384,)
    assert np.isclose(np.linalg.norm(a), 1.0, atol=1e-3)
    assert float(a @ b) > float(a @ c) + 0.2


def test_an_unloadable_model_gives_a_clear_error() -> None:
    broken = embeddings.Embedder("no-such/model-anywhere")
    with pytest.raises(embeddings.EmbeddingModelUnavailable, match="offline"):
        broken.embed(["hello"])


def test_the_thread_setting_reaches_onnxruntime(settings: Any) -> None:
    settings.EMBEDDING_THREADS = 1
    pinned = embeddings.Embedder(embeddings.DEFAULT_MODEL)
    pinned.embed(["one thread"])
    session = pinned._model.model.model  # fastembed TextEmbedding -> OnnxTextEmbedding -> session
    assert session.get_session_options().intra_op_num_threads == 1
