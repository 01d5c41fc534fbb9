"""Every threshold tied to an embedding model's space has one home, a profile per model
(memories/search/model_profiles.py). all-MiniLM-L6-v2 keeps the values it was tuned with, so a
store can go back to it and search, classify and extract as before."""

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from memories.classify import classifier_for
from memories.extraction.local import local_extractor
from memories.extraction.repeats import RepeatIndex
from memories.search import model_profiles
from memories.search.embeddings import E5_MODEL, MINILM_MODEL
from memories.search.model_profiles import LocalThresholds, Thresholds, Weights


def test_minilm_keeps_the_values_it_was_tuned_with() -> None:
    minilm = model_profiles.profile_for(MINILM_MODEL)
    assert minilm.search.bm25_k1 == 1.6 and minilm.search.bm25_b == 0.3
    assert minilm.search.weights == Weights(
        cosine_full=0.8,
        keyword_full=1.25,
        semantic_weight=0.5,
        keyword_weight=1.4,
        unknown_floor=0.25,
        store_full=200,
    )
    assert minilm.search.short_unknown_floor == 0.7
    assert minilm.search.short_weights.unknown_floor == 0.7
    assert minilm.search.min_score == 0.2
    assert minilm.classifier == Thresholds(
        minimum=0.25,
        margin=0.02,
        sensitive=0.50,
        uncertain_margin=0.03,
        uncertain_floor=0.20,
        ordinary_margin=0.03,
        max_labels=3,
        top_k=3,
    )
    assert minilm.extractor == LocalThresholds(threshold=0.0, top_k=3)
    assert minilm.repeat_cosine == 0.6


def test_a_model_without_a_profile_of_its_own_gets_minilms() -> None:
    assert model_profiles.profile_for("BAAI/bge-small-en-v1.5") is model_profiles.MINILM
    assert set(model_profiles.PROFILES) == {MINILM_MODEL, E5_MODEL}


@pytest.mark.parametrize("model", [MINILM_MODEL, E5_MODEL])
def test_the_classifier_extractor_and_repeats_read_the_current_models_profile(
    settings: SettingsWrapper, model: str
) -> None:
    settings.EMBEDDING_MODEL = model
    profile = model_profiles.profile_for(model)
    assert model_profiles.current() is profile
    assert classifier_for().thresholds == profile.classifier
    assert local_extractor().thresholds == profile.extractor
    assert RepeatIndex[str]().cosine == profile.repeat_cosine
