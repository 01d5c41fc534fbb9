import contextlib
import functools
import hashlib
import importlib.util
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import numpy as np
import pytest
from django.test import override_settings
from hypothesis import strategies as st

from memories.search import e5, embeddings, model_profiles
from memories.search.relevance import meaning_relevance


def test_torch_is_not_installed() -> None:
    # The model must load without PyTorch; a package that pulls it in adds gigabytes.
    assert importlib.util.find_spec("torch") is None
    assert importlib.util.find_spec("sentence_transformers") is None


def test_minilm_model_folder_holds_the_checked_model() -> None:
    folder = embeddings.minilm_model_dir()
    onnx = (folder / "model.onnx").resolve()
    assert hashlib.sha256(onnx.read_bytes()).hexdigest() == embeddings.MODEL_SHA256
    configs = ("tokenizer.json", "config.json", "tokenizer_config.json", "special_tokens_map.json")
    for name in configs:
        assert (folder / name).exists()


def test_a_process_loading_the_minilm_folder_while_another_assembles_it_finds_every_file(
    settings: Any, tmp_path: Path
) -> None:
    # gunicorn's workers start together on a fresh data folder: one may load the model while
    # another is still putting the folder together.
    settings.HOME = str(tmp_path)
    folder = embeddings.minilm_model_dir()
    names = ("model.onnx", "tokenizer.json", "config.json", "tokenizer_config.json")
    done = threading.Event()
    missing: list[str] = []

    def assemble_again() -> None:
        for _ in range(60):
            (folder / ".verified").unlink(missing_ok=True)  # as if first seen by this process
            embeddings.minilm_model_dir()
        done.set()

    assembler = threading.Thread(target=assemble_again)
    assembler.start()
    while not done.is_set():
        missing.extend(name for name in names if not (folder / name).exists())
    assembler.join()
    assert missing == []
    staged = [p.name for p in folder.iterdir() if p.name.startswith(".") and p.name != ".verified"]
    assert staged == []


def test_embeddings_are_normalised_384_dims_and_meaningful() -> None:
    embedder = embeddings.get_embedder()
    a, b, c = embedder.embed(
        ["My daughter starts kindergarten", "My child begins school", "The boiler is broken"]
    )
    assert a.shape == (384,)
    assert np.isclose(np.linalg.norm(a), 1.0, atol=1e-3)
    # In the model's own scale (its baseline and a near paraphrase, `model_profiles`): the
    # paraphrase is clearly more evidence than the unrelated sentence, whatever the model.
    w = model_profiles.current().search.weights
    assert meaning_relevance(float(a @ b), w) > meaning_relevance(float(a @ c), w) + 0.25


def test_an_unloadable_model_gives_a_clear_error() -> None:
    broken = embeddings.Embedder("no-such/model-anywhere")
    with pytest.raises(embeddings.EmbeddingModelUnavailable, match="offline"):
        broken.embed(["hello"])


def test_the_thread_setting_reaches_onnxruntime(settings: Any) -> None:
    settings.EMBEDDING_THREADS = 1
    pinned = embeddings.Embedder(embeddings.MINILM_MODEL)
    pinned.embed(["one thread"])
    backend = pinned._model
    assert isinstance(backend, embeddings._FastEmbed)
    session = backend.model.model.model  # TextEmbedding -> OnnxTextEmbedding -> session
    assert session.get_session_options().intra_op_num_threads == 1


# ---- multilingual-e5-small: the engine built here from its package's checked source ----


def test_the_e5_engine_is_compiled_from_the_checked_source_and_recorded(tmp_path: Path) -> None:
    library = e5.build(tmp_path)
    manifest = json.loads((library.parent / "build.json").read_text())
    assert library.parent.parent == tmp_path / "models"
    assert manifest["library_sha256"] == hashlib.sha256(library.read_bytes()).hexdigest()
    assert "-march=native" not in manifest["flags"]
    assert e5.build(tmp_path) == library  # built once
    assert library.stat().st_mtime_ns == (library.parent / "libe5.so").stat().st_mtime_ns


def test_an_altered_engine_source_is_refused(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setitem(e5.SHA256, "e5.c", "0" * 64)
    with pytest.raises(embeddings.EmbeddingModelUnavailable, match=r"refusing an unknown e5\.c"):
        e5.build(tmp_path)
    assert not list((tmp_path / "models").glob("*/libe5.so"))


def test_altered_weights_are_refused(tmp_path: Path, monkeypatch: Any) -> None:
    library = e5.build(tmp_path)
    monkeypatch.setitem(e5.SHA256, e5.WEIGHTS, "0" * 64)
    with pytest.raises(embeddings.EmbeddingModelUnavailable, match="refusing an unknown"):
        e5.Engine(library)


def test_a_built_library_whose_bytes_changed_is_built_again_not_loaded(tmp_path: Path) -> None:
    library = e5.build(tmp_path)
    with library.open("ab") as handle:
        handle.write(b"\0")
    tampered = hashlib.sha256(library.read_bytes()).hexdigest()
    rebuilt = e5.build(tmp_path)
    assert hashlib.sha256(rebuilt.read_bytes()).hexdigest() != tampered


def test_a_build_recorded_before_the_link_flags_were_is_built_again(tmp_path: Path) -> None:
    """A home whose engine an earlier release built (its manifest has no "link") is rebuilt,
    not refused with an error."""
    library = e5.build(tmp_path)
    manifest = library.parent / "build.json"
    recorded = json.loads(manifest.read_text())
    del recorded["link"]
    manifest.write_text(json.dumps(recorded))
    assert e5.build(tmp_path) == library
    assert "link" in json.loads(manifest.read_text())


def test_without_a_compiler_the_earlier_build_then_only_a_pinned_prebuilt_library_loads(
    tmp_path: Path, monkeypatch: Any
) -> None:
    library = e5.build(tmp_path / "built")
    monkeypatch.setattr(e5, "find_compiler", lambda: None)
    assert e5.build(tmp_path / "built") == library  # an image's runtime: built at image build
    prebuilt = e5.build(tmp_path / "empty")  # this machine's wheel carries a pinned library
    assert prebuilt.name.startswith("_engine")
    assert hashlib.sha256(prebuilt.read_bytes()).hexdigest() in e5.PREBUILT_SHA256
    monkeypatch.setattr(e5, "PREBUILT_SHA256", frozenset())
    with pytest.raises(embeddings.EmbeddingModelUnavailable, match="No C compiler"):
        e5.build(tmp_path / "empty")


def test_e5_vectors_are_normalised_and_close_across_languages() -> None:
    embedder = embeddings.get_embedder(embeddings.E5_MODEL)
    english, german, chinese, japanese, unrelated = embedder.embed(
        [
            "I work as a nurse in Lyon.",
            "Ich arbeite als Krankenschwester in Lyon.",
            "我在里昂当护士。",
            "私はリヨンで看護師として働いています。",
            "My favourite band is Radiohead.",
        ]
    )
    assert english.shape == (384,)
    assert np.isclose(np.linalg.norm(english), 1.0, atol=1e-3)
    for translation in (german, chinese, japanese):
        assert float(english @ translation) > float(english @ unrelated) + 0.02
    # A search query is embedded with its own prefix, so it is not the passage's vector.
    query = embedder.embed_query("I work as a nurse in Lyon.")
    assert 0.8 < float(query @ english) < 0.9999


def test_loading_the_e5_engine_keeps_subnormal_floats(tmp_path: Path) -> None:
    # A library linked with -ffast-math would make the whole process flush subnormals to zero,
    # changing every float computed afterwards (hypothesis refuses to run; scores shift).
    smallest = np.array([1e-310])
    e5.Engine(e5.build(tmp_path))
    assert float((smallest * 1.0)[0]) == 1e-310


def test_the_e5_engine_embeds_one_text_on_one_thread_and_a_batch_on_the_setting(
    tmp_path: Path,
) -> None:
    """OpenMP's thread count is per calling thread, so each call sets it: a search query's few
    dozen tokens are not worth a second thread that a busy machine lends late."""
    engine = e5.Engine(e5.build(tmp_path), threads=2)
    engine.embed(["one query"], query=True)
    assert engine._lib.omp_get_max_threads() == 1
    engine.embed(["a memory", "another memory", "a third"], query=False)
    assert engine._lib.omp_get_max_threads() == 2


def test_a_repeated_query_is_not_embedded_again_and_the_oldest_is_forgotten(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.EMBEDDING_QUERY_CACHE = 2
    embedder = embeddings.Embedder(embeddings.E5_MODEL)
    backend = embedder._load()
    asked: list[str] = []
    query = backend.query

    def counted(text: str) -> np.ndarray:
        asked.append(text)
        return query(text)

    monkeypatch.setattr(backend, "query", counted)
    kids = embedder.embed_query("kids")
    assert embedder.embed_query("kids") is kids and asked == ["kids"]
    assert not kids.flags.writeable  # handed out again: nobody may change it
    embedder.embed_query("Kinder")
    embedder.embed_query("子供")  # "kids" was the oldest of three
    embedder.embed_query("kids")
    assert asked == ["kids", "Kinder", "子供", "kids"]
    assert np.array_equal(embedder.embed_query("kids"), kids)
    settings.EMBEDDING_QUERY_CACHE = 0
    embedder.embed_query("Kinder")
    assert asked[-1] == "Kinder" and len(asked) == 5


_CACHE_QUERIES = ("kids", "Kinder", "子供", "孩子", "niños")


@hypothesis.settings(max_examples=60, deadline=None, database=None)
@hypothesis.given(
    size=st.integers(min_value=0, max_value=3),
    asks=st.lists(st.integers(min_value=0, max_value=len(_CACHE_QUERIES) - 1), max_size=14),
)
def test_the_query_cache_answers_every_sequence_as_a_fresh_embedding_would_and_as_an_lru_forgets(
    size: int, asks: list[int]
) -> None:
    """Whatever the order of queries and the cache's size, every vector handed out equals the
    model's own answer for that text, and the model is asked exactly when a least-recently-used
    cache of that size would not hold the text."""
    embedder = _cache_embedder()
    embedder._queries.clear()
    backend = embedder._load()
    asked: list[str] = []
    remembered: list[str] = []  # the reference LRU, oldest first
    with override_settings(EMBEDDING_QUERY_CACHE=size), _counting(backend, asked):
        for index in asks:
            text = _CACHE_QUERIES[index]
            expected_miss = text not in remembered
            if not expected_miss:
                remembered.remove(text)
            if size:
                remembered = [*remembered, text][-size:]
            before = len(asked)
            vector = embedder.embed_query(text)
            assert (len(asked) > before) == expected_miss
            assert np.array_equal(vector, _fresh_query_vectors()[text])
            assert not vector.flags.writeable
    assert len(embedder._queries) == len(remembered)


def test_threads_asking_at_once_each_get_their_own_querys_vector() -> None:
    embedder = _cache_embedder()
    embedder._queries.clear()
    wrong: list[str] = []

    def ask(offset: int) -> None:
        for step in range(40):
            text = _CACHE_QUERIES[(offset + step * 3) % len(_CACHE_QUERIES)]
            if not np.array_equal(embedder.embed_query(text), _fresh_query_vectors()[text]):
                wrong.append(text)

    with override_settings(EMBEDDING_QUERY_CACHE=2):
        threads = [threading.Thread(target=ask, args=(offset,)) for offset in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert wrong == []
    assert len(embedder._queries) <= 2


@functools.cache
def _cache_embedder() -> embeddings.Embedder:
    """One MiniLM embedder for the cache's tests (MiniLM: the cheaper model to ask)."""
    return embeddings.Embedder(embeddings.MINILM_MODEL)


@functools.cache
def _fresh_query_vectors() -> dict[str, np.ndarray]:
    """Each query's vector from the model itself, past any cache."""
    backend = _cache_embedder()._load()
    return {text: backend.query(text) for text in _CACHE_QUERIES}


@contextlib.contextmanager
def _counting(backend: Any, asked: list[str]) -> Iterator[None]:
    query = backend.query

    def counted(text: str) -> np.ndarray:
        asked.append(text)
        return query(text)

    backend.query = counted
    try:
        yield
    finally:
        del backend.query
