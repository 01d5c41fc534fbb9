"""A model-based test of the search cache: two caches standing for two server processes, random
writes, consent changes, pins, evictions (back from the snapshot and the machine's files), sweeps,
VACUUM and the move to another embedding model, and after every step each reader's
search on one of the nodes, unfiltered and with random filters (category, app, dates,
uncategorised, pinned), equals the exact search in PostgreSQL that no cache touches. The machine is
`bench/coherence.py` (`python -m bench coherence --steps N` runs it at length)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from bench.coherence import CATEGORIES, OPS, WORDS, Coherence, remembered_queries
from memories.search import index as search_index

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def empty_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Snapshots from the first memory (as `bench coherence` runs), so an evicted index comes
    back from the user's snapshot, mapped from the machine's file the two nodes share, with the
    apps' kept masks, brought up to date from the change log."""
    monkeypatch.setattr(search_index, "SNAPSHOT_MIN_MEMORIES", 1)
    search_index.clear()
    yield
    search_index.clear()


class SearchCacheMachine(RuleBasedStateMachine):
    model: Coherence
    examples = 0

    @initialize()
    def store(self) -> None:
        SearchCacheMachine.examples += 1
        self.model = Coherence.start(f"hypothesis-{SearchCacheMachine.examples}")
        assert self.model.check(0) == 0, self.model.divergences

    @rule(
        op=st.sampled_from(OPS),
        pick=st.integers(0, 999),
        words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
        category=st.sampled_from(CATEGORIES),
        node=st.integers(0, 1),
        narrow=st.integers(1, 999),
    )
    def step(
        self, op: str, pick: int, words: list[str], category: str, node: int, narrow: int
    ) -> None:
        self.model.do(op, pick, words, category)
        assert self.model.check(node, narrow) == 0, self.model.divergences[-1]


class MovingStoreMachine(SearchCacheMachine):
    """The same steps on a store whose move to the other shipped model is under way from the
    start: the owner searched with the old model until all their memories have moved, then with
    the new one, on both nodes, whatever the caches held."""

    @initialize()
    def store(self) -> None:
        super().store()
        self.model.do("target", 0, [], "")
        self.model.do("move", 1, [], "")  # two memories embedded with the new model
        assert self.model.check(1) == 0, self.model.divergences


_SETTINGS = settings(
    max_examples=3,
    stateful_step_count=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.django_db(transaction=True)  # VACUUM runs outside a transaction
def test_every_search_on_every_node_equals_the_exact_search_after_any_steps() -> None:
    with remembered_queries():
        run_state_machine_as_test(SearchCacheMachine, settings=_SETTINGS)


@pytest.mark.django_db(transaction=True)
def test_every_search_equals_the_exact_search_while_the_store_moves_to_another_model() -> None:
    with remembered_queries():
        run_state_machine_as_test(MovingStoreMachine, settings=_SETTINGS)


@pytest.mark.django_db(transaction=True)
def test_both_nodes_answer_as_postgresql_across_a_switch_and_back_whatever_they_held() -> None:
    """Both nodes hold the owner's MiniLM index (and masks) when the switch to e5 lands, one of
    them evicted half way; each answers exactly as PostgreSQL at every batch, there and back."""
    from memories.models import SearchModel

    with remembered_queries():
        model = Coherence.start("switch")
        assert model.check(0, 1) + model.check(1, 2) == 0, model.divergences
        for there in (1, 0):  # to e5, then back to MiniLM
            model.do("target", 0, [], "")
            for step in range(12):
                model.do("move", 0, [], "")  # one memory embedded with the other model
                if step in (1, 3):  # mid-move: a node reads the user again, and a write
                    model.do("evict", 3, [], "")  # the last node checked forgets index, masks
                    model.do("add", step, ["piano", "salmon"], "food")
                if step == 4:
                    model.do("sweep", 0, [], "")
                assert model.check(step % 2, step + 1) == 0, model.divergences[-1]
            assert model.switches == 2 - there
            assert SearchModel.objects.get(owner=model.owner).next_model == ""
