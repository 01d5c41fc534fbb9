"""Reading memories: one, a filtered page, a count, a search, versions, echoes and readers. Every
function takes an explicit actor; another tenant's memory is simply not there."""

from __future__ import annotations

import base64
import binascii
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from django.db import connection
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from activity.selectors import activity_event
from activity.services import access_event_create, access_log_line
from kernel.category_names import fold
from kernel.errors import InvalidInput, NotFound
from kernel.gates import SCOPE_READ, require, require_owner
from memories.models import LIVE_STATES, UNSHOWN_COLUMNS, Memory, MemoryState, MemoryVersion
from memories.search import owner_marks, second_arm
from memories.search.model_profiles import profile_for
from memories.search.relevance import Candidate, meaning_relevance
from memories.search.scoring import UserSearch, dense_arm
from memories.selectors.pending import PendingWrite, pending_matching
from memories.selectors.search_rows import load_hits
from memories.text import clean_text
from memories.visibility import (
    sensitive_of,
    visible_q,
    visible_sql,
)

MAX_PAGE = 200
MAX_SEARCH = 100


def parse_memory_id(value: object) -> uuid.UUID:
    """A malformed id is a missing memory, exactly like another user's id."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (ValueError, TypeError, AttributeError):
        raise NotFound() from None


def get_visible(actor: Actor, memory_id: uuid.UUID, *, for_update: bool = False) -> Memory | None:
    qs = Memory.objects.filter(visible_q(actor), id=memory_id)
    if for_update:
        qs = qs.select_for_update()
    return qs.first()


def memory_get(*, actor: Actor, memory_id: object, record: bool = True) -> Memory:
    """One memory; records a `read` access event unless `record=False` (the owner's own
    dashboard views: GET changes nothing)."""
    require(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    if record:
        access_event_create(actor, AccessEvent.Action.READ, [memory.id])
    return memory


@dataclass(frozen=True)
class MemoryFilters:
    state: str | None = MemoryState.ACTIVE  # None: every state
    category: str | None = None
    app_name: str | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None
    text: str | None = None  # substring match (case-insensitive)
    uncategorised: bool = False  # only memories without any category
    pinned: bool = False  # only memories the owner pinned


@dataclass(frozen=True)
class Page:
    items: list[Memory]
    next_cursor: str | None


def _encode_cursor(memory: Memory) -> str:
    raw = f"{memory.created_at.isoformat()}|{memory.id}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, uuid.UUID]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        created, mid = base64.urlsafe_b64decode(padded.encode()).decode().split("|")
        return datetime.fromisoformat(created), uuid.UUID(mid)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidInput(
            gettext_noop("The cursor is not one this server issued."), field="cursor"
        ) from None


def _filtered(actor: Actor, filters: MemoryFilters) -> QuerySet[Memory]:
    qs = Memory.objects.filter(visible_q(actor))
    if filters.state is not None:
        if filters.state not in LIVE_STATES:
            raise InvalidInput(f"Unknown state {filters.state!r}.", field="state")
        qs = qs.filter(state=filters.state)
        if filters.state == MemoryState.ACTIVE:
            qs = qs.filter(superseded_by__isnull=True)
    if filters.category:
        qs = qs.filter(categories__contains=[fold(filters.category)])
    if filters.uncategorised:
        qs = qs.filter(categories__len=0)
    if filters.pinned:
        qs = qs.filter(pinned_at__isnull=False)
    if filters.app_name:
        # What the app wrote, or changed last: an app's rewrite of the owner's memory is its own.
        qs = qs.filter(Q(origin_app_name=filters.app_name) | Q(changed_by_name=filters.app_name))
    if filters.created_after:
        qs = qs.filter(created_at__gte=filters.created_after)
    if filters.created_before:
        qs = qs.filter(created_at__lt=filters.created_before)
    if filters.text:
        if actor.app.is_owner_app:
            qs = qs.filter(text__icontains=filters.text)
        else:  # what the app reads: never a match on a credential the owner's text holds
            qs = qs.annotate(shown=Coalesce("app_text", "text")).filter(
                shown__icontains=filters.text
            )
    return qs


def memory_list(
    *,
    actor: Actor,
    filters: MemoryFilters | None = None,
    cursor: str | None = None,
    limit: int = 50,
    record: bool = True,
) -> Page:
    """Newest first, keyset-paginated (stable under concurrent writes); records a `list` access
    event unless `record=False`."""
    require(actor, SCOPE_READ)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}.", field="limit")
    qs = _filtered(actor, filters or MemoryFilters())
    if cursor:
        created, mid = _decode_cursor(cursor)
        qs = qs.filter(Q(created_at__lt=created) | Q(created_at=created, id__lt=mid))
    rows = list(qs.defer(*UNSHOWN_COLUMNS).order_by("-created_at", "-id")[: limit + 1])
    items = rows[:limit]
    next_cursor = _encode_cursor(items[-1]) if len(rows) > limit else None
    if record:
        access_event_create(actor, AccessEvent.Action.LIST, [m.id for m in items])
    return Page(items=items, next_cursor=next_cursor)


def memory_count(*, actor: Actor, filters: MemoryFilters | None = None) -> int:
    require(actor, SCOPE_READ)
    return _filtered(actor, filters or MemoryFilters()).count()


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float


class SearchHits(list[SearchHit]):
    """Search results, best first. Empty means nothing relevant: no visible memory scored at least
    `min_score` (see `memories.search.relevance`), which every entry point says in its own words.
    `pending`: the calling app's own writes held for the owner's review that match the query
    (`pending_matching`); none for the owner's own apps."""

    def __init__(
        self,
        hits: Sequence[SearchHit],
        *,
        min_score: float,
        pending: Sequence[PendingWrite] = (),
    ) -> None:
        super().__init__(hits)
        self.min_score = min_score
        self.pending = list(pending)

    @property
    def nothing_relevant(self) -> bool:
        return not self


def _narrowing(filters: MemoryFilters) -> tuple[str, dict[str, Any]]:
    """A list's filters as SQL over the search's rows (`m`), so the search itself narrows and a
    page of hits is full: the same meaning as `_filtered`'s, for active memories only."""
    if filters.state != MemoryState.ACTIVE:
        raise InvalidInput("Search covers active memories only.", field="state")
    if filters.text:
        raise InvalidInput("A search matches its query: no text filter.", field="text")
    clauses: list[str] = []
    params: dict[str, Any] = {}
    if filters.app_name:
        clauses.append("(m.origin_app_name = %(f_app)s OR m.changed_by_name = %(f_app)s)")
        params["f_app"] = filters.app_name
    if filters.uncategorised:
        clauses.append("cardinality(m.categories) = 0")
    if filters.pinned:
        clauses.append("m.pinned_at IS NOT NULL")
    if filters.created_after:
        clauses.append("m.created_at >= %(f_after)s")
        params["f_after"] = filters.created_after
    if filters.created_before:
        clauses.append("m.created_at < %(f_before)s")
        params["f_before"] = filters.created_before
    return " AND ".join(clauses), params


def search_scope(
    actor: Actor, filters: MemoryFilters, sensitive: frozenset[str] | None = None
) -> tuple[str, dict[str, Any], bool]:
    """The rows a search by `actor` ranks (an SQL fragment and its arguments), and whether they
    are the owner's whole searchable store (the owner, unfiltered). `sensitive`: the owner's
    sensitive categories, when the caller holds them (else they are read)."""
    visible, params = visible_sql(actor, sensitive=sensitive)
    narrowing, narrowing_params = _narrowing(filters)
    if not narrowing:
        return visible, params, actor.app.is_owner_app
    return f"{visible} AND {narrowing}", {**params, **narrowing_params}, False


@dataclass(frozen=True)
class _Asked:
    """A search's arguments once checked: the gate's half of `memory_search`."""

    query: str
    filters: MemoryFilters
    category: str | None  # folded


def _asked(
    actor: Actor,
    query: str,
    limit: int,
    category: str | None,
    filters: MemoryFilters | None,
    min_score: float | None,
) -> _Asked:
    require(actor, SCOPE_READ)
    filters = filters or MemoryFilters()
    if category is not None and filters.category is not None:
        raise ValueError("category is given twice")
    category = category if category is not None else filters.category
    query = clean_text(query, field="query")
    if not 1 <= limit <= MAX_SEARCH:
        raise InvalidInput(f"limit must be between 1 and {MAX_SEARCH}.", field="limit")
    if min_score is not None and not 0 <= min_score <= 1:
        raise InvalidInput("min_score must be between 0 and 1.", field="min_score")
    return _Asked(query, filters, fold(category) if category else None)


def _ranking(actor: Actor, asked: _Asked, expand: bool) -> UserSearch:
    """The user's searchable memories as `actor` sees them, for the query: the consent fragment
    built from the owner's marks this process remembers (`owner_marks`)."""

    def rank(marks: owner_marks.Marks | None) -> UserSearch:
        sensitive = None if marks is None else sensitive_of(marks)
        visible, params, whole_store = search_scope(actor, asked.filters, sensitive)
        return UserSearch(
            actor.user.pk,
            visible=visible,
            params={**params, "category": asked.category},
            query=asked.query,
            whole_store=whole_store,
            expand=expand,
        )

    return owner_marks.ranked(actor.user.pk, owner_app=actor.app.is_owner_app, rank=rank)


def memory_search(
    *,
    actor: Actor,
    query: str,
    limit: int = 10,
    category: str | None = None,
    filters: MemoryFilters | None = None,
    record: bool = True,
    min_score: float | None = None,
    expand: bool = True,
    use_second_arm: bool = True,
) -> SearchHits:
    """Hybrid search over the actor's active memories, best first, down to the relevance cut-off
    (`min_score`, by default the model's cut-off for the query, `UserSearch.cut_off`; 0 returns
    the `limit` best whatever they score), with the calling app's pending writes that match.

    `filters` narrow the search as they narrow a list (`category` is `filters.category`);
    `record=False` is for the server's own look-ups (reconciliation), which no app reads;
    `expand=False` searches a short query's own words only (benchmarks compare the two);
    `use_second_arm=False` leaves a query not in English the shipped ranking (reconciliation's
    neighbours, measured without it).
    """
    asked = _asked(actor, query, limit, category, filters, min_score)
    ranking = _ranking(actor, asked, expand)
    # Embedded with the model of the user's vectors, which the search just read; held to that
    # model's cut-off for this query (`UserSearch.cut_off`) unless the caller gave one.
    qvec = ranking.embed_query()
    candidates = ranking.best(qvec, limit=limit, min_score=min_score)
    cut_off = ranking.applied_cut_off
    if use_second_arm:
        candidates = _second_arm(ranking, qvec, candidates)
    # The arm may answer with a memory of the uncut ranking below the cut-off: the caller is told
    # the score every result was held to (a no-op without the arm).
    cut_off = min([cut_off, *(c.score for c in candidates)])
    # A read's event need not wait for the disk (docs/reliability.md, "Access events"); in
    # autocommit it is written by the rows' own statement.
    folded = record and not connection.in_atomic_block
    ids = [c.id for c in candidates]
    rows = load_hits(ids, ranking.visible, ranking.params, actor if folded else None)
    hits = [SearchHit(memory=rows[c.id], score=c.score) for c in candidates if c.id in rows]
    found = [h.memory.id for h in hits]
    if folded:
        access_log_line(actor, AccessEvent.Action.SEARCH, found, count=len(found))
    elif record:
        access_event_create(actor, AccessEvent.Action.SEARCH, found, durable=False)
    pending = pending_matching(actor, ranking.lexemes, found)
    return SearchHits(hits, min_score=cut_off, pending=pending)


def _second_arm(
    ranking: UserSearch, qvec: np.ndarray, candidates: list[Candidate]
) -> list[Candidate]:
    """The answer re-ranked by the profile's second arm for a query not in English
    (`memories/search/second_arm.py`): as many memories as the cut-off gave, the best of the
    uncut ranking by relevance + the arm's weight x USE cosine (each keeps its relevance as its
    score, so the answer is no longer in score order). Otherwise `candidates`."""
    arm = ranking.profile.second_arm
    if not candidates or arm is None or not second_arm.applies(arm, ranking.query):
        return candidates
    uncut = [(c.id, c.score) for c in ranking.best(qvec, limit=arm.depth, min_score=0.0)]
    cosine = second_arm.cosines(
        ranking.owner_id, ranking.query, [i for i, _ in uncut], ranking.visible, ranking.params
    )
    picked = second_arm.rerank(uncut, cosine, arm, len(candidates))
    return [Candidate(memory_id, score) for memory_id, score in picked]


def memory_versions(*, actor: Actor, memory_id: object) -> list[MemoryVersion]:
    """Earlier texts: the owner's own apps only. Each was current under other conditions (another
    category, private, hidden from an app) that a version does not record, so no app reads them."""
    require_owner(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    return list(
        MemoryVersion.objects.filter(memory=memory, owner=actor.user).order_by("-created_at")
    )


# --- Dashboard reads: stats, readers, access trail, related memories, map, activity ------------
# Owner-facing views of the store. They never record access events: looking at your own memory
# in the dashboard is not an app reading it, and GET changes nothing.


def _with_echoes(owner_id: int, memory_ids: Sequence[uuid.UUID]) -> list[uuid.UUID]:
    """These memories and the apps' echoes of them (which go wherever the memory goes)."""
    echoes = Memory.objects.filter(owner_id=owner_id, echo_of_id__in=list(memory_ids))
    return [*memory_ids, *echoes.values_list("id", flat=True)]


def readers_of(owner_id: int, memory_ids: Sequence[uuid.UUID]) -> list[str]:
    """Apps (not the owner's own apps) that have read any of these memories (or an app's echo
    of one), per the access log."""
    rows = (
        AccessEvent.objects.filter(
            owner_id=owner_id,
            memory_ids__overlap=_with_echoes(owner_id, memory_ids),
            action__in=AccessEvent.READS,
        )
        .exclude(app__kind=ConnectedApp.Kind.BUILTIN)
        .values_list("app_name", flat=True)
        .distinct()
    )
    return sorted(set(rows))


def memory_readers(*, actor: Actor, memory_ids: Sequence[object]) -> list[str]:
    """Who has read these memories: shown to the owner before a delete, since apps cannot be
    made to forget. The owner's own apps only: an app is not told which other apps the owner
    connected."""
    require_owner(actor, SCOPE_READ)
    mids = [parse_memory_id(m) for m in memory_ids]
    if Memory.objects.filter(visible_q(actor), id__in=mids).count() != len(set(mids)):
        raise NotFound()
    return readers_of(actor.user.pk, mids)


def memory_access_trail(*, actor: Actor, memory_id: object, limit: int = 50) -> list[AccessEvent]:
    """Which app read or changed this memory, newest first."""
    require_owner(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    return list(
        AccessEvent.objects.filter(
            owner=actor.user, memory_ids__overlap=_with_echoes(actor.user.pk, [memory.id])
        )
        .select_related("app")
        .order_by("-created_at", "-id")[:limit]
    )


@dataclass(frozen=True)
class EventMemories:
    """The memories one access event names, as the owner can open them now."""

    event: AccessEvent
    memories: list[Memory]  # still in the store, in the event's order (at most `limit`)
    trashed: list[Memory]  # in the trash now
    gone: int  # deleted for good since (or never the owner's memory: none are)
    more: int  # beyond `limit`, not listed


def event_memories(*, actor: Actor, event_id: object, limit: int = 200) -> EventMemories:
    """What an access event that names several memories touched, for the owner: their own
    memories only (an event is the owner's, and its ids are read under the owner)."""
    event = activity_event(actor=actor, event_id=event_id)
    ids = list(dict.fromkeys(event.memory_ids))
    shown, more = ids[:limit], max(0, len(ids) - limit)
    owned = Memory.objects.filter(owner=actor.user).defer(*UNSHOWN_COLUMNS)
    rows = {m.id: m for m in owned.filter(pk__in=shown)}
    # An app's own statement of a memory (an echo) is shown as the memory it restates.
    restated = {m.id: m for m in owned.filter(pk__in=[r.echo_of_id for r in rows.values()])}
    for mid, row in list(rows.items()):
        if row.echo_of_id is not None:
            rows[mid] = restated[row.echo_of_id]
    ordered = list({rows[i].id: rows[i] for i in shown if i in rows}.values())
    live = [m for m in ordered if m.state != MemoryState.TRASHED]
    trashed = [m for m in ordered if m.state == MemoryState.TRASHED]
    return EventMemories(event, live, trashed, gone=len(shown) - len(ordered), more=more)


def memory_echoes(*, actor: Actor, memory_id: object) -> list[Memory]:
    """Apps' own statements of this memory (echoes), oldest first: each app that may not see
    the memory reads back its statement instead. The owner's own apps only."""
    require_owner(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    return list(
        Memory.objects.filter(owner=actor.user, echo_of=memory)
        .select_related("echo_app")
        .defer(*UNSHOWN_COLUMNS)
        .order_by("created_at", "id")
    )


def memory_related(*, actor: Actor, memory_id: object, limit: int = 5) -> list[SearchHit]:
    """Nearest neighbours by embedding among the actor's active memories (exact scan), only
    those related enough to pass search's cut-off (`meaning_relevance`): a store with
    nothing close shows nothing rather than its least unrelated memories."""
    require(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    if memory.embedding is None:
        return []
    visible, params = visible_sql(actor)
    near = dense_arm(
        np.asarray(memory.embedding),
        owner_id=actor.user.pk,
        visible=visible,
        params=params,
        depth=limit + 1,
        model=memory.embedding_model,  # nothing when the user's vectors are of another model
    )
    ids = [mid for mid, _ in near if mid != memory.id][:limit]
    profile = profile_for(memory.embedding_model).search
    rows = Memory.objects.filter(owner=actor.user).defer(*UNSHOWN_COLUMNS).in_bulk(ids)
    return [
        SearchHit(memory=rows[mid], score=sim)
        for mid, sim in near
        if mid in rows and meaning_relevance(sim, profile.weights) >= profile.min_score
    ]
