"""`python -m bench coherence --steps N`: the search cache against a model, at length.

One owner, their three connected apps with different grants, and two search caches standing for
two server processes (`search_index.SearchCache`, chosen per search with `serving`). Random steps
through the service layer: add (by the owner, or by an app restating a memory: an echo when it
may not see it), update, delete into the trash, restore, delete for good, archive, reactivate,
private, hide from an app, category changes, the owner changing an app's grant (granting a
hidden category, unticking one), pausing and resuming an app, revoking one (another connects in
its place), evictions (a node's index, its masks, or both), a node's sweep, VACUUM, and the move
of the store to the other shipped embedding model (EMBEDDING_MODEL changed, then the worker's
batches, each user switching once all their memories have moved; changed back mid-way too). After
every step one node (chosen at random, so the other lags several writes behind) answers each
reader's searches through `memory_search`, and each answer must equal the exact computation in
PostgreSQL, bypassing every cache (same ids, same order, scores within 1e-9); a paused app must
be refused. The last line is one JSON object: steps, searches compared, divergences.

The same machine runs in the test suite under hypothesis
(tests/memories/search/test_index_coherence.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

WORDS = ["garden", "piano", "Lisbon", "invoice", "tennis", "medical", "condition", "salmon"]
CATEGORIES = ["health", "food", "travel", "hobbies"]
QUERIES = ["medical condition", "garden piano Lisbon tennis"]
# The grants the owner moves apps between: the default (sensitive categories hidden), a narrow
# one, and one that ticks health.
GRANTS: list[dict[str, Any]] = [
    {},
    {
        "categories": ["food", "hobbies"],
        "hidden_categories": ["travel"],
        "sees_uncategorised": False,
    },
    {"categories": ["health"]},
    {"hidden_categories": ["garden-party", "food"]},
]
# The REST search's filters (api/search.py, SearchQuery), combined at random.
FILTER_KINDS = [
    "category",
    "app_name",
    "created_after",
    "created_before",
    "uncategorised",
    "pinned",
]
SCORE_TOLERANCE = 1e-9
OPS = (
    "add",
    "app_add",
    "update",
    "delete",
    "restore",
    "purge",
    "archive",
    "activate",
    "private",
    "public",
    "hide",
    "pin",
    "categories",
    "grant",
    "pause",
    "revoke",
    "evict",
    "evict",  # evictions matter most (issue 24 item 2): drawn three times as often
    "evict",
    "sweep",
    "vacuum",
    "target",
    "move",
    "move",
    "move",
)
# The two shipped models the store moves between ("target" changes EMBEDDING_MODEL).
MODELS = ("sentence-transformers/all-MiniLM-L6-v2", "intfloat/multilingual-e5-small-q4")


@dataclass
class Divergence:
    step: int
    node: int
    reader: str
    query: str
    got: Any
    expected: Any


@dataclass
class Coherence:
    """The store, its readers and the two nodes; `do` applies one step, `check` compares."""

    owner: Any
    nodes: list[Any]
    apps: list[Any] = field(default_factory=list)
    steps: int = 0
    searches: int = 0
    last_checked: int = 0  # the node evictions and sweeps act on: the one holding the newest
    switches: int = 0  # the owner's switches to another embedding model
    divergences: list[Divergence] = field(default_factory=list)

    @classmethod
    def start(cls, label: str) -> Coherence:
        from accounts.models import User
        from memories.search import index as search_index

        owner = User.objects.create_user(f"coherence-{label}@example.invalid")
        model = cls(owner=owner, nodes=[search_index.SearchCache(), search_index.SearchCache()])
        for grant in GRANTS[:3]:
            model.apps.append(model._connect(grant))
        for n in range(6):
            model.do("add", n, [WORDS[n % 8], WORDS[(n * 3) % 8]], CATEGORIES[n % 4])
        return model

    # -- the actors --

    @property
    def owner_dash(self) -> Any:
        from accounts.actors import owner_actor

        return owner_actor(self.owner)

    def _actor(self, app: Any) -> Any:
        from accounts.actors import actor_for
        from accounts.models import ConnectedApp

        return actor_for(self.owner, ConnectedApp.objects.get(owner=self.owner, pk=app.pk))

    def _connect(self, grant: dict[str, Any]) -> Any:
        from accounts.models import ALL_SCOPES, ConnectedApp

        return ConnectedApp.objects.create(
            owner=self.owner,
            kind=ConnectedApp.Kind.TOKEN,
            name=f"app {ConnectedApp.objects.filter(owner=self.owner).count()}",
            scopes=list(ALL_SCOPES),
            **grant,
        )

    def _grant(self, app: Any, grant: dict[str, Any]) -> None:
        from accounts.models import ALL_SCOPES
        from accounts.services import Grant, app_update_grant

        full = Grant(
            scopes=tuple(ALL_SCOPES),
            categories=tuple(grant.get("categories", ())),
            hidden_categories=tuple(grant.get("hidden_categories", ())),
            sees_uncategorised=grant.get("sees_uncategorised", True),
        )
        app_update_grant(actor=self.owner_dash, app_id=app.pk, grant=full)

    # -- one step --

    def _ids(self, trashed: bool = False) -> list[Any]:
        from memories.models import Memory

        rows = Memory.objects.filter(owner=self.owner, echo_of__isnull=True)
        rows = rows.filter(state="trashed", trashed_with__isnull=True) if trashed else rows
        rows = rows if trashed else rows.exclude(state="trashed")
        return list(rows.order_by("text", "id").values_list("id", flat=True))

    def do(self, op: str, pick: int, words: list[str], category: str) -> None:
        """One step (`pick` chooses the memory, app or node; a step that cannot apply, such as
        restoring from an empty trash, does nothing)."""
        from django.conf import settings
        from django.db import connection

        from accounts.services import app_revoke, app_set_paused
        from kernel.errors import DomainError
        from memories.models import Memory
        from memories.search import index as search_index
        from memories.services import adding, changing, deleting, maintenance, marks
        from memories.services.trash import trash_delete_forever, trash_restore

        owner = self.owner_dash
        ids, trashed = self._ids(), self._ids(trashed=True)
        mid = ids[pick % len(ids)] if ids else None
        app = self.apps[pick % len(self.apps)]
        node = self.nodes[self.last_checked]
        key = (str(connection.settings_dict["NAME"]), self.owner.pk)
        text = f"{' '.join(words)} note {self.steps}"
        self.steps += 1
        try:
            if op == "add" or mid is None:
                memory = adding.memory_create(actor=owner, text=text).memory
                changing.memory_set_categories(
                    actor=owner, memory_id=memory.id, categories=[category]
                )
            elif op == "app_add":
                stated = Memory.objects.get(owner=self.owner, id=mid).text if pick % 2 else text
                adding.memory_create(actor=self._actor(app), text=stated)
            elif op == "update":
                changing.memory_update(actor=owner, memory_id=mid, text=text)
            elif op == "delete":
                deleting.memory_delete(actor=owner, memory_id=mid)
            elif op == "restore" and trashed:
                trash_restore(actor=owner, memory_ids=[trashed[pick % len(trashed)]])
            elif op == "purge" and trashed:
                trash_delete_forever(actor=owner, memory_ids=[trashed[pick % len(trashed)]])
            elif op in ("archive", "activate"):
                state = "archived" if op == "archive" else "active"
                changing.memory_set_state(actor=owner, memory_ids=[mid], state=state)
            elif op in ("private", "public"):
                marks.memory_set_visibility(actor=owner, memory_id=mid, private=op == "private")
            elif op == "hide":
                marks.memory_set_visibility(actor=owner, memory_id=mid, hide_from_app=app.pk)
            elif op == "pin":  # the owner pins or unpins: what the pinned filter reads
                pinned = not Memory.objects.get(owner=self.owner, id=mid).pinned_at
                marks.memory_set_pinned(actor=owner, memory_ids=[mid], pinned=pinned)
            elif op == "categories":
                chosen = [] if pick % 5 == 0 else [category]
                changing.memory_set_categories(actor=owner, memory_id=mid, categories=chosen)
            elif op == "grant":
                self._grant(app, GRANTS[(pick // 3) % len(GRANTS)])
            elif op == "pause":
                paused = not self._actor(app).app.paused
                app_set_paused(actor=owner, app_id=app.pk, paused=paused)
            elif op == "revoke":
                app_revoke(actor=owner, app_id=app.pk)
                self.apps[self.apps.index(app)] = self._connect(GRANTS[pick % len(GRANTS)])
            elif op == "evict":  # as the LRU does: the index, and the masks apart
                part = pick % 4
                if part in (0, 1, 3):
                    node.indexes.forget(lambda k: k == key)
                if part in (2, 3):
                    node.visible.forget(lambda k: k[:2] == key)
            elif op == "sweep":
                with search_index.serving(node):
                    search_index.sweep()
            elif op == "vacuum":
                with connection.cursor() as cur:
                    cur.execute("VACUUM memories_memory")
            elif op == "target":  # the operator sets the other model (or puts it back)
                settings.EMBEDDING_MODEL = MODELS[1 - MODELS.index(settings.EMBEDDING_MODEL)]
                maintenance.mark(settings.EMBEDDING_MODEL)
            elif op == "move":  # the worker's next batches; a user fully embedded switches
                report = maintenance.move(batch=1 + pick % 8, memories=1 + pick % 40)
                self.switches += report.users_switched
        except DomainError:
            pass  # refused (a text active elsewhere, a revoked app): nothing was written

    def _filter_values(self) -> tuple[list[Any], list[str]]:
        """What filters are cut from: the memories' creation times, and the apps' names (the
        owner's own first, and one no app has)."""
        from memories.models import Memory

        times = list(
            Memory.objects.filter(owner=self.owner)
            .order_by("created_at")
            .values_list("created_at", flat=True)
        )
        return times, [self.owner_dash.app.name, *(app.name for app in self.apps), "no such app"]

    def filters(self, pick: int, values: tuple[list[Any], list[str]]) -> Any:
        """Search filters as the REST search takes them, drawn from `pick`: a category, the app
        that wrote or last changed a memory, a date range cut at memories' own creation times,
        uncategorised, pinned, or several at once."""
        from memories.selectors.memories import MemoryFilters

        times, names = values
        draw = random.Random(pick)
        chosen: dict[str, Any] = {}
        for kind in draw.sample(FILTER_KINDS, draw.choice([1, 1, 1, 2, 2, 3])):
            if kind == "category":  # "Health" as a person types it; "unused" matches nothing
                chosen["category"] = draw.choice([*CATEGORIES, "Health", "unused"])
            elif kind == "app_name":  # mostly the owner's own writes; now and then no app
                chosen["app_name"] = draw.choice([names[0], *names])
            elif kind == "created_after" and times:
                chosen["created_after"] = draw.choice(times)
            elif kind == "created_before" and times:
                chosen["created_before"] = draw.choice(times)
            elif kind in ("uncategorised", "pinned"):
                chosen[kind] = True
        return MemoryFilters(**chosen)

    # -- the comparison --

    def check(self, pick: int, narrow: int = 0) -> int:
        """Every reader's searches on one node against PostgreSQL, each reader once more with
        filters drawn from `narrow`; returns the divergences found (also kept in
        `divergences`)."""
        from memories.selectors.memories import MemoryFilters

        n = self.last_checked = pick % len(self.nodes)
        found = 0
        readers = [("owner", self.owner_dash)] + [
            (f"app{i}", self._actor(app)) for i, app in enumerate(self.apps)
        ]
        values = self._filter_values() if narrow else ([], [])
        for r, (name, actor) in enumerate(readers):
            for i, query in enumerate(QUERIES):
                found += self._compare(n, name, actor, query, i, MemoryFilters())
            if narrow:  # each reader its own filters: views of one store side by side
                pick = narrow * len(readers) + r
                query = QUERIES[pick % len(QUERIES)]
                found += self._compare(n, name, actor, query, pick, self.filters(pick, values))
        return found

    def _compare(self, n: int, name: str, actor: Any, query: str, i: int, filters: Any) -> int:
        """One search on node `n` against PostgreSQL; 1 when they differ. A filtered search's
        exact hits must also be among what the memory list shows under the same filters."""
        from kernel.category_names import fold
        from kernel.errors import AppPaused
        from memories.search import index as search_index
        from memories.search import scoring
        from memories.selectors.memories import MAX_PAGE, memory_list, memory_search, search_scope

        # None: the cut-off of the model of the owner's vectors
        limit, floor = (3, 0.0) if (i + self.steps) % 2 else (10, None)
        expected: Any = "refused"
        if not actor.app.paused:
            visible, params, whole_store = search_scope(actor, filters)
            category = fold(filters.category) if filters.category else None
            exact_search = scoring.UserSearch(
                self.owner.pk,
                visible=visible,
                params={**params, "category": category},
                query=query,
                whole_store=whole_store,
                use_index=False,
            )  # the query embedded with the model of the owner's vectors, as PostgreSQL says
            exact = exact_search.best(exact_search.embed_query(), limit=limit, min_score=floor)
            expected = [(c.id, c.score) for c in exact]
            listed = memory_list(actor=actor, filters=filters, limit=MAX_PAGE, record=False)
            if not {m for m, _ in expected} <= {m.id for m in listed.items}:
                expected = ("beyond the list", expected)
        got: Any = "refused"
        with search_index.serving(self.nodes[n]):
            try:
                hits = memory_search(
                    actor=actor,
                    query=query,
                    limit=limit,
                    min_score=floor,
                    filters=filters,
                    record=False,
                )
                got = [(h.memory.id, h.score) for h in hits]
            except AppPaused:
                pass
        self.searches += 1
        if _same(got, expected):
            return 0
        where = f"{query} {filters}" if filters != filters.__class__() else query
        self.divergences.append(Divergence(self.steps, n, name, where, got, expected))
        return 1


def _same(got: Any, expected: Any) -> bool:
    if isinstance(got, str | tuple) or isinstance(expected, str | tuple):
        return bool(got == expected)
    return [m for m, _ in got] == [m for m, _ in expected] and all(
        abs(a - b) <= SCORE_TOLERANCE for (_, a), (_, b) in zip(got, expected, strict=True)
    )


@contextmanager
def remembered_queries() -> Iterator[None]:
    """Each query embedded once per run and model (a model's answer for a text does not change);
    EMBEDDING_MODEL as it was afterwards (the "target" steps change it)."""
    from django.conf import settings

    from memories.search.embeddings import Embedder

    original = Embedder.embed_query
    model = settings.EMBEDDING_MODEL
    seen: dict[tuple[str, str], Any] = {}

    def embed_query(self: Embedder, text: str) -> Any:
        key = (self.model_name, text)
        if key not in seen:
            seen[key] = original(self, text)
        return seen[key].copy()

    Embedder.embed_query = embed_query  # type: ignore[method-assign]
    try:
        yield
    finally:
        Embedder.embed_query = original  # type: ignore[method-assign]
        settings.EMBEDDING_MODEL = model


def run(args: Any) -> None:
    from bench.environment import emit
    from memories.search import index as search_index
    from memories.search.background import writer as search_writer

    # The stores here are small: snapshots from the first memory, written in the step's own
    # order, so an evicted index comes back from the snapshot and the change log.
    search_index.SNAPSHOT_MIN_MEMORIES = args.snapshot_min
    search_writer.background = False
    rng = random.Random(args.seed)
    started = time.perf_counter()
    with remembered_queries():
        model = Coherence.start(f"{args.seed}-{rng.randrange(10**9)}")
        for _ in range(args.steps):
            op = rng.choice(OPS)
            words = rng.sample(WORDS, rng.randint(1, 4))
            model.do(op, rng.randrange(1000), words, rng.choice(CATEGORIES))
            model.check(rng.randrange(2), rng.randrange(1000))
    elapsed = time.perf_counter() - started
    for d in model.divergences[:5]:
        print(f"divergence at step {d.step}, node {d.node}, {d.reader}, {d.query!r}:")
        print(f"    cache {d.got}\n    exact {d.expected}")
    print(
        f"{args.steps} steps, {model.searches} searches compared, "
        f"{len(model.divergences)} divergences, {model.switches} switches of embedding model "
        f"({elapsed:.0f} s, seed {args.seed})"
    )
    emit(
        {
            "steps": args.steps,
            "searches": model.searches,
            "divergences": len(model.divergences),
            "model_switches": model.switches,
            "seed": args.seed,
            "seconds": round(elapsed, 1),
        }
    )


def register(sub: Any) -> None:
    from bench.environment import add_common

    parser = sub.add_parser(
        "coherence", help="The search cache (two nodes) against exact search, random steps."
    )
    parser.add_argument("--steps", type=int, default=500, help="Random steps (500).")
    parser.add_argument("--seed", type=int, default=1, help="Seed of the random steps (1).")
    parser.add_argument(
        "--snapshot-min",
        type=int,
        default=1,
        help="Write search snapshots from this many memories (1; the server: 1000).",
    )
    add_common(parser)
    parser.set_defaults(run=run)
