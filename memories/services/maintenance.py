"""Operator maintenance over every tenant: moving the store's vectors to another embedding model.

When a user's target model — the one they chose for their memories (`SearchModel.chosen`,
memories/services/search_model.py), else EMBEDDING_MODEL — is not the one their vectors are in
(a choice, an upgrade that changed the default, an operator's setting, or either put back), `move`
embeds each of their memories again with it, a batch per transaction, beside the live vector
(`StagedVector`), and once every memory of the user has one, `switch` makes them the user's own
in one transaction.
Until then the user's searches embed the query with the old model and compare it with the old
vectors (memories/search/moves.py): nothing drops out of search, and no search mixes two models.
Users are moved smallest first, so most people search with the new model early in a long move.

The background task (`memories.tasks.move_embeddings`) runs `move` in slices on the worker; the
state is in the database (the users' rows, the staged vectors), so a crash or a restart loses at
most the batch under way, and the next slice goes on from there. `manage.py reembed` runs the same
in the foreground and shows how far it is (`progress`).
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import OperationalError, connection, transaction

from kernel.tenancy import cross_tenant
from memories import language
from memories.search import moves, second_arm
from memories.search.embeddings import current_model, get_embedder, vector_literal

logger = logging.getLogger("contextlayer.embeddings")

# Memories embedded per transaction: one call of the e5 engine (`e5.BATCH`), about a second.
BATCH = 64
# One mover at a time on the database (a session-level advisory lock; released if it dies).
_MOVER_LOCK = 0x636C_6D6F_7665  # "clmove"
# The switch waits this long for a writer of the user to finish, then tries again later: it never
# waits long enough for PostgreSQL's deadlock check (1 s) to pick a writer instead.
SWITCH_LOCK_TIMEOUT = "200ms"
SWITCH_ATTEMPTS = 5


@dataclass
class MoveReport:
    """What one run of `move` did (the task stores it as its result)."""

    target: str
    embedded: int = 0  # memories embedded with the target (staged, or mended in place)
    users_switched: int = 0
    memories_switched: int = 0
    longest_switch: float = 0.0  # seconds: the user's writes wait for their switch's commit
    seconds: float = 0.0
    done: bool = False  # nothing left to move or mend
    busy: bool = False  # another mover holds the lock: this one did nothing
    postponed: list[int] = field(default_factory=list)  # users whose switch waited on writers

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# Users with memories (a statistics row) but no row of their model (memories written by raw SQL,
# none of them through the services): the model most of their memories have.
_ROWLESS_SQL = """
INSERT INTO memories_searchmodel (owner_id, model, next_model)
SELECT s.owner_id,
       coalesce((SELECT mode() WITHIN GROUP (ORDER BY m.embedding_model)
                 FROM memories_memory m
                 WHERE m.owner_id = s.owner_id
                   AND m.embedding IS NOT NULL AND m.embedding_model <> ''),
                %(target)s),
       ''
FROM memories_searchstats s
WHERE NOT EXISTS (SELECT 1 FROM memories_searchmodel e WHERE e.owner_id = s.owner_id)
ON CONFLICT (owner_id) DO NOTHING
"""
# A user's target: the model they chose for their memories, else the server's (`target`).
USER_TARGET_SQL = "coalesce(nullif(chosen, ''), %(target)s)"
# Users already on their target stop moving (the setting was put back before their switch);
# every other user moves to it (`again`: users on it too, to embed everything once more).
_STAY_SQL = f"""
UPDATE memories_searchmodel SET next_model = '', moving_since = NULL
WHERE model = {USER_TARGET_SQL} AND next_model <> '' AND NOT %(again)s
"""  # noqa: S608 - only constants; values are bound parameters
_MOVE_SQL = f"""
UPDATE memories_searchmodel SET next_model = {USER_TARGET_SQL}, moving_since = now()
WHERE (model <> {USER_TARGET_SQL} OR %(again)s) AND next_model <> {USER_TARGET_SQL}
"""  # noqa: S608 - only constants; values are bound parameters
_STALE_SQL = """
DELETE FROM memories_stagedvector s USING memories_searchmodel e
WHERE e.owner_id = s.owner_id AND s.model <> e.next_model
"""


@cross_tenant("the operator's move of every user's vectors to EMBEDDING_MODEL")
def mark(target: str, *, again: bool = False) -> int:
    """Set every user moving to their target (the model they chose, else `target`) who is not
    on it (`again`: every user), stop those whose move it would undo, and drop staged vectors
    of any other model. Returns how many users are moving."""
    args: dict[str, Any] = {"target": target, "again": again}
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(_ROWLESS_SQL, args)
        cur.execute(_STAY_SQL, args)
        cur.execute(_MOVE_SQL, args)
        cur.execute(_STALE_SQL)
        cur.execute("SELECT count(*) FROM memories_searchmodel e WHERE e.next_model <> ''")
        (moving,) = cur.fetchone()
    return int(moving)


# One user's move set by their target, as `mark` sets everyone's: moving to it unless on it.
_RETARGET_SQL = f"""
UPDATE memories_searchmodel
SET next_model = (CASE WHEN model = {USER_TARGET_SQL} THEN '' ELSE {USER_TARGET_SQL} END),
    moving_since = (CASE WHEN model = {USER_TARGET_SQL} THEN NULL ELSE now() END)
WHERE owner_id = %(owner)s
  AND next_model <> (CASE WHEN model = {USER_TARGET_SQL} THEN '' ELSE {USER_TARGET_SQL} END)
"""  # noqa: S608 - only constants; values are bound parameters
_USER_STALE_SQL = """
DELETE FROM memories_stagedvector s USING memories_searchmodel e
WHERE e.owner_id = s.owner_id AND s.owner_id = %(owner)s AND s.model <> e.next_model
"""


def retarget(owner_id: int, target: str) -> bool:
    """Set one user moving to their target (the model they chose, else `target`), or stop their
    move when they are on it, inside the caller's transaction; whether they are moving now."""
    args: dict[str, Any] = {"owner": owner_id, "target": target}
    with connection.cursor() as cur:
        cur.execute(_RETARGET_SQL, args)
        cur.execute(_USER_STALE_SQL, args)
        cur.execute("SELECT next_model FROM memories_searchmodel WHERE owner_id = %(owner)s", args)
        row = cur.fetchone()
    return bool(row and row[0])


@cross_tenant("whether any user's vectors are of another model than EMBEDDING_MODEL")
def move_needed(target: str | None = None) -> bool:
    """Whether some user is on another model than their target (the one they chose, else
    `target`: EMBEDDING_MODEL), or moving."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT EXISTS (SELECT 1 FROM memories_searchmodel "  # noqa: S608 - constants only
            f"WHERE model <> {USER_TARGET_SQL} OR next_model <> '')",
            {"target": target or current_model()},
        )
        (needed,) = cur.fetchone()
    return bool(needed)


# ---- one user: embed what is missing, then switch --------------------------------------------

# The user's memories without a valid vector of the model they move to, in id order from `after`.
_MISSING_SQL = f"""
SELECT m.id, {moves.EMBEDDED_TEXT} FROM memories_memory m
WHERE m.owner_id = %(owner)s AND m.id > %(after)s
  AND NOT EXISTS ({moves.staged_sql("%(model)s")})
ORDER BY m.id
LIMIT %(batch)s
"""  # noqa: S608 - only constants; values are bound parameters
_NO_ID = uuid.UUID(int=0)


class _Stopped(Exception):
    """The user no longer moves to the model being embedded (the setting changed meanwhile)."""


def _stage_batch(owner_id: int, model: str, after: uuid.UUID, batch: int) -> tuple[int, uuid.UUID]:
    """Embed the next `batch` memories of the user that lack a vector of `model` (after
    `after`), keep them staged; returns (how many were embedded, the last id read)."""
    with connection.cursor() as cur:
        cur.execute(
            _MISSING_SQL, {"owner": owner_id, "after": after, "model": model, "batch": batch}
        )
        rows = cur.fetchall()
    if not rows:
        return 0, after
    ids, texts = [r[0] for r in rows], [r[1] for r in rows]
    vectors = get_embedder(model).embed(texts)
    with transaction.atomic():
        if moves.held(owner_id).next != model:
            raise _Stopped()
        moves.stage(owner_id, model, ids, texts, vectors)
    return len(rows), ids[-1]


_LOCK_ROWS_SQL = """
SELECT count(*) FROM (SELECT 1 FROM memories_memory m WHERE m.owner_id = %(owner)s FOR UPDATE) r
"""
_UNSTAGED_SQL = f"""
SELECT count(*) FROM memories_memory m
WHERE m.owner_id = %(owner)s AND NOT EXISTS ({moves.staged_sql("%(model)s")})
"""  # noqa: S608 - only constants; values are bound parameters
_SWITCH_SQL = """
UPDATE memories_memory m SET embedding = s.embedding, embedding_model = s.model
FROM memories_stagedvector s
WHERE s.memory_id = m.id AND s.owner_id = %(owner)s AND m.owner_id = %(owner)s
"""
_SWITCHED_SQL = """
UPDATE memories_searchmodel
SET model = next_model, next_model = '', moving_since = NULL, moved_at = now()
WHERE owner_id = %(owner)s
"""


def switch(owner_id: int) -> int | None:
    """Make the user's staged vectors their memories' own, in one transaction, if every memory
    has one for the text it holds: the user's searches use the new model from the commit on.
    Their search generation moves on (every process reads their index again), their snapshot
    goes (a later one is of the new vectors), and so do the staged vectors. Returns how many
    memories switched; None when some memory still lacks its vector, or a writer of the user
    held on for longer than SWITCH_LOCK_TIMEOUT (nothing changed: try again)."""
    args: dict[str, Any] = {"owner": owner_id}
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(
                "SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true)",
                [SWITCH_LOCK_TIMEOUT],
            )
            (before, _) = cur.fetchone()
            switched = _switch_locked(cur, args)
            cur.execute("SELECT set_config('lock_timeout', %s, true)", [before])
    except OperationalError:  # a lock not granted in time, or PostgreSQL's deadlock check
        return None
    if switched is not None:
        logger.info(
            "embeddings switched",
            extra={"owner": owner_id, "model": args["model"], "memories": switched},
        )
    return switched


def _switch_locked(cur: Any, args: dict[str, Any]) -> int | None:
    """`switch` within its transaction and lock timeout."""
    # Locks in the writers' order (the user's models, then their memories), each wait bounded:
    # a writer never waits on the switch for long, nor deadlocks with it.
    cur.execute(
        "SELECT e.next_model FROM memories_searchmodel e WHERE e.owner_id = %(owner)s FOR UPDATE",
        args,
    )
    row = cur.fetchone()
    if row is None or not row[0]:
        return None
    args["model"] = row[0]
    cur.execute(_LOCK_ROWS_SQL, args)
    cur.execute(_UNSTAGED_SQL, args)
    (unstaged,) = cur.fetchone()
    if unstaged:
        return None
    cur.execute(_SWITCH_SQL, args)
    switched = int(cur.rowcount)
    cur.execute("DELETE FROM memories_stagedvector WHERE owner_id = %(owner)s", args)
    if second_arm.arm_of([args["model"]]) is None:  # a model without the second arm: none kept
        cur.execute("DELETE FROM memories_memoryaltvector WHERE owner_id = %(owner)s", args)
    cur.execute("DELETE FROM memories_searchsnapshot WHERE owner_id = %(owner)s", args)
    cur.execute(_SWITCHED_SQL, args)
    return switched


@dataclass(frozen=True)
class _Budget:
    """How long a run may go on (a monotonic deadline), and how many memories it may embed."""

    until: float
    memories: int | None = None

    def left(self, report: MoveReport) -> bool:
        in_time = time.monotonic() < self.until
        return in_time and (self.memories is None or report.embedded < self.memories)


def _move_user(
    owner_id: int,
    model: str,
    report: MoveReport,
    budget: _Budget,
    batch: int,
    tick: Callable[[], None],
) -> bool:
    """Embed the user's missing vectors of `model` while the budget lasts, then switch them;
    whether they switched."""
    for _ in range(SWITCH_ATTEMPTS):
        after = _NO_ID
        while budget.left(report):
            try:
                embedded, after = _stage_batch(owner_id, model, after, batch)
            except _Stopped:
                return False
            report.embedded += embedded
            tick()
            if embedded < batch:  # nothing after these
                break
        else:
            return False  # time is up; the next run goes on from the staged vectors
        started = time.monotonic()
        switched = switch(owner_id)
        if switched is not None:
            # Onto a model with the second search arm: its vectors of the user's memories, now
            # (about a millisecond a memory), so a store moved to e5 needs no operator's fill.
            if second_arm.arm_of([model]) is not None:
                _second_arm_fill_user(owner_id, batch)
            report.users_switched += 1
            report.memories_switched += switched
            report.longest_switch = max(report.longest_switch, time.monotonic() - started)
            return True
        time.sleep(0.05)  # a writer of the user held on, or wrote in between: once more
    return False


# ---- memories whose vector is not of their owner's model ---------------------------------------

# Users who are not moving whose memories have no vector of their model: written by something
# that did not embed (a raw insert), or before this store recorded its users' models.
_ASTRAY_SQL = f"""
SELECT m.owner_id, e.model, m.id, {moves.EMBEDDED_TEXT} FROM memories_memory m
JOIN memories_searchmodel e ON e.owner_id = m.owner_id
WHERE e.next_model = '' AND (m.embedding IS NULL OR m.embedding_model <> e.model)
  AND m.id > %(after)s
ORDER BY m.id
LIMIT %(batch)s
"""  # noqa: S608 - only constants; values are bound parameters
_MEND_SQL = f"""
UPDATE memories_memory m SET embedding = u.emb::vector, embedding_model = %(model)s
FROM unnest(%(ids)s::uuid[], %(texts)s::text[], %(embs)s::text[]) AS u(id, text, emb)
WHERE m.owner_id = %(owner)s AND m.id = u.id AND {moves.EMBEDDED_TEXT} = u.text
"""  # noqa: S608 - only constants; values are bound parameters


def _mend(budget: _Budget, batch: int, report: MoveReport) -> bool:
    """Embed, with their owner's model, memories whose vector is of another or missing; whether
    none is left."""
    after = _NO_ID
    while budget.left(report):
        with connection.cursor() as cur:
            cur.execute(_ASTRAY_SQL, {"after": after, "batch": batch})
            rows = cur.fetchall()
        if not rows:
            return True
        after = rows[-1][2]
        groups: dict[tuple[int, str], list[tuple[uuid.UUID, str]]] = {}
        for owner_id, model, memory_id, text in rows:
            groups.setdefault((owner_id, model), []).append((memory_id, text))
        for (owner_id, model), items in groups.items():
            texts = [t for _, t in items]
            vectors = get_embedder(model).embed(texts)
            with transaction.atomic(), connection.cursor() as cur:
                if moves.held(owner_id) != moves.Models(model):
                    continue  # started moving meanwhile: the move embeds them
                cur.execute(
                    _MEND_SQL,
                    {
                        "owner": owner_id,
                        "model": model,
                        "ids": [i for i, _ in items],
                        "texts": texts,
                        "embs": [vector_literal(v) for v in vectors],
                    },
                )
            report.embedded += len(items)
    return False


# ---- the whole store -----------------------------------------------------------------------------

_NEXT_USER_SQL = """
SELECT e.owner_id, e.next_model FROM memories_searchmodel e
LEFT JOIN memories_searchstats s ON s.owner_id = e.owner_id
WHERE e.next_model <> '' AND NOT e.owner_id = ANY(%(skip)s::bigint[])
ORDER BY coalesce(s.documents, 0), e.owner_id
LIMIT 1
"""
_TO_EMBED_SQL = f"""
SELECT count(*) FROM memories_memory m
JOIN memories_searchmodel e ON e.owner_id = m.owner_id
WHERE (e.next_model <> '' AND NOT EXISTS ({moves.staged_sql("e.next_model")}))
   OR (e.next_model = '' AND (m.embedding IS NULL OR m.embedding_model <> e.model))
"""  # noqa: S608 - only constants; values are bound parameters


@contextlib.contextmanager
def _the_mover() -> Iterator[bool]:
    """Whether this process is the one mover (PostgreSQL's advisory lock, per session)."""
    with connection.cursor() as cur:
        cur.execute("SELECT pg_try_advisory_lock(%s)", [_MOVER_LOCK])
        (mine,) = cur.fetchone()
    try:
        yield bool(mine)
    finally:
        if mine:
            with connection.cursor() as cur:
                cur.execute("SELECT pg_advisory_unlock(%s)", [_MOVER_LOCK])


@cross_tenant("the operator's move of every user's vectors to EMBEDDING_MODEL")
def move(
    *,
    target: str | None = None,
    seconds: float | None = None,
    batch: int = BATCH,
    again: bool = False,
    progress: Callable[[int, int], None] | None = None,
    memories: int | None = None,
) -> MoveReport:
    """Move every user to `target` (EMBEDDING_MODEL), for at most `seconds` (None: to the end):
    users smallest first, each embedded batch by batch and switched once whole; then mend
    memories whose vector is missing or of another model than their owner's. `again`: also
    users already on the target (every memory embedded once more). `progress(done, total)`
    counts memories embedded. `memories`: stop once that many were embedded (whole batches;
    a run cut short as a slice is, where the tests want it)."""
    target = target or current_model()
    report = MoveReport(target)
    started = time.monotonic()
    until = started + seconds if seconds is not None else float("inf")
    budget = _Budget(until, memories)
    with _the_mover() as mine:
        if not mine:
            report.busy = True
            return report
        mark(target, again=again)
        total = _count(_TO_EMBED_SQL) if progress else 0  # a scan of every moving memory

        def tick() -> None:
            if progress:
                progress(min(report.embedded, total), total)

        tick()
        skip: list[int] = []
        while budget.left(report):
            with connection.cursor() as cur:
                cur.execute(_NEXT_USER_SQL, {"skip": skip})
                row = cur.fetchone()
            if row is None:
                break
            owner_id, model = int(row[0]), str(row[1])
            if not _move_user(owner_id, model, report, budget, batch, tick):
                skip.append(owner_id)  # time is up, or its writers kept it busy: next run
        report.postponed = skip
        if not skip and budget.left(report):
            report.done = _mend(budget, batch, report)
        tick()
    report.seconds = round(time.monotonic() - started, 3)
    logger.info("embeddings moved", extra=report.as_dict())
    return report


def _count(sql: str) -> int:
    with connection.cursor() as cur:
        cur.execute(sql)
        (n,) = cur.fetchone()
    return int(n)


# ---- how far it is -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelShare:
    """Users on one model (and moving to another, or not), their memories, and how many of
    those already have their vector of the model they move to."""

    model: str
    next_model: str
    users: int
    memories: int
    staged: int
    chosen: bool = False  # they chose this model (the server's does not move them)


def user_counts_sql(user: str) -> str:
    """SQL: one row (memories, staged) for the user whose model row (`SearchModel`) is `user` (a
    table name or alias): their memories, and how many of those have their vector of the model
    they move to (`moves.staged_sql`). `progress` sums it; the admin shows it per user."""
    return (
        "SELECT count(*) AS memories, "  # noqa: S608 - constants only
        f"count(*) FILTER (WHERE EXISTS ({moves.staged_sql(f'{user}.next_model')})) AS staged "
        f"FROM memories_memory m WHERE m.owner_id = {user}.owner_id"
    )


_PROGRESS_SQL = f"""
SELECT e.model, e.next_model, count(*), coalesce(sum(n.memories), 0), coalesce(sum(n.staged), 0),
       e.chosen <> ''
FROM memories_searchmodel e
CROSS JOIN LATERAL ({user_counts_sql("e")}) n
GROUP BY e.model, e.next_model, e.chosen <> ''
ORDER BY e.model, e.next_model, e.chosen <> ''
"""  # noqa: S608 - only constants


@cross_tenant("the operator's view of how far the move to EMBEDDING_MODEL is, counts only")
def progress() -> list[ModelShare]:
    """Users and memories per (model, model moving to, whether they chose it): what `reembed
    --status` shows."""
    with connection.cursor() as cur:
        cur.execute(_PROGRESS_SQL)
        return [
            ModelShare(str(a), str(b), int(c), int(d), int(e), bool(f)) for a, b, c, d, e, f in cur
        ]


# ---- the search's second arm: USE vectors of existing memories (memories/search/second_arm.py) --

_ARM_USERS_SQL = "SELECT e.owner_id, e.model, e.next_model FROM memories_searchmodel e"
# The user's memories not in English without a USE vector for the text apps read now.
_ARM_MISSING_SQL = f"""
SELECT m.id, {moves.EMBEDDED_TEXT} FROM memories_memory m
WHERE m.owner_id = %(owner)s AND m.language <> %(english)s AND m.id > %(after)s
  AND NOT EXISTS (
    SELECT 1 FROM memories_memoryaltvector a
    WHERE a.owner_id = m.owner_id AND a.memory_id = m.id AND a.model = %(model)s
      AND a.text_md5 = md5(m.text))
ORDER BY m.id
LIMIT %(batch)s
"""  # noqa: S608 - only constants; values are bound parameters


def second_arm_fill(*, batch: int = BATCH) -> int:
    """Write the missing USE vectors of every user whose models have the second arm (a store
    that was on multilingual-e5 before the arm, or moved to it): their memories not in English
    without a current one, a batch per transaction as a write writes them. Idempotent: a memory
    whose vector holds for its text is not embedded again. Returns how many were written."""
    reason = "the operator's fill of every e5 user's second-arm vectors"
    with cross_tenant(reason), connection.cursor() as cur:
        cur.execute(_ARM_USERS_SQL)
        users = [(owner, (model, nxt)) for owner, model, nxt in cur.fetchall()]
    return sum(
        _second_arm_fill_user(owner_id, batch)
        for owner_id, models in users
        if second_arm.arm_of(m for m in models if m) is not None
    )


def _second_arm_fill_user(owner_id: int, batch: int) -> int:
    """`second_arm_fill` for one user whose models have the arm (else nothing is written, after
    a scan of their memories not in English)."""
    written = 0
    after = _NO_ID
    while True:
        with connection.cursor() as cur:
            cur.execute(
                _ARM_MISSING_SQL,
                {
                    "owner": owner_id,
                    "english": language.ENGLISH,
                    "after": after,
                    "model": second_arm.MODEL,
                    "batch": batch,
                },
            )
            rows = cur.fetchall()
        if not rows:
            return written
        after = rows[-1][0]
        with transaction.atomic():
            held = moves.held(owner_id)  # the models of this transaction decide
            written += second_arm.write(
                owner_id, held.written, [r[0] for r in rows], [r[1] for r in rows]
            )
