"""Search profiles as a test changes them: multilingual-e5's search without its second arm
(memories/search/second_arm.py), to compare an answer with what the arm makes of it, or to test
the cut-offs the arm works after."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memories.search import model_profiles
from memories.search.embeddings import E5_MODEL
from memories.search.model_profiles import E5, SecondArm


def second_arm_as(monkeypatch: pytest.MonkeyPatch, arm: SecondArm | None) -> None:
    """e5's search with `arm` as its second arm (None: none) until the test ends, in every
    thread of this process (the MCP server's under uvicorn too)."""
    search = replace(E5.search, second_arm=arm)
    monkeypatch.setitem(model_profiles.PROFILES, E5_MODEL, replace(E5, search=search))


def without_second_arm(monkeypatch: pytest.MonkeyPatch) -> None:
    second_arm_as(monkeypatch, None)
