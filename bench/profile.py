"""The profile an assistant loads first (`memories/selectors/profile.py`), against a physical floor.

One user with `--memories` memories (`--pinned` of them pinned, some in a category the app was
not granted) and `--events` search events over the last 90 days, each naming 10 memories picked
with a skew (a few memories are read far more than the rest, as in use); another user holds as
many events again, so the table is shared. The profile is taken as the app sees it, without
recording (the recorded event is one INSERT, measured elsewhere). The floor, measured in the same
run: reading the memory ids of the user's newest counted events (`READ_EVENTS` of them), the
input the "most read" ranking must see. Rows go in by SQL (no embedding model is needed: the
profile does not search)."""

from __future__ import annotations

import time
from typing import Any

from bench.environment import add_common, bench_user, drop_users, emit, percentile

_MEMORIES_SQL = """
INSERT INTO memories_memory (id, owner_id, text, text_key, embedding_model, state, categories,
    categories_set_by_user, is_private, hidden_from, origin, origin_app_name, provenance,
    metadata, created_at, updated_at, pinned_at)
SELECT gen_random_uuid(), %(owner)s,
       'Fact ' || g || ' about the owner: ' || md5(g::text) || ' ' || md5((g * 7)::text),
       md5('fact' || g), '', 'active',
       CASE WHEN g %% 10 = 0 THEN ARRAY['health']::varchar[] ELSE ARRAY['work']::varchar[] END,
       false, false, '{}', 'app', 'Bench', '{}', '{}', now(), now(),
       CASE WHEN g <= %(pinned)s THEN now() - make_interval(secs => g) END
FROM generate_series(1, %(n)s) g
"""

_EVENTS_SQL = """
INSERT INTO memories_accessevent (owner_id, app_id, app_name, actor, action, memory_ids, count,
    detail, created_at)
SELECT %(owner)s, NULL, 'Bench', 'Bench', 'search',
       ARRAY(SELECT b.id
             FROM (SELECT floor(%(n)s * power(random(), 3))::int AS n
                   FROM generate_series(1, 10) k WHERE k > g * 0) pick
             JOIN bench_ids b USING (n)),
       10, '{}', now() - make_interval(secs => random() * 89 * 86400)
FROM generate_series(1, %(events)s) g
"""

_FLOOR_SQL = """
SELECT count(*) FROM (
    SELECT unnest(recent.memory_ids) FROM (
        SELECT e.memory_ids FROM memories_accessevent e
        WHERE e.owner_id = %s AND e.created_at >= now() - interval '90 days'
          AND e.action = ANY(ARRAY['search', 'read'])
        ORDER BY e.created_at DESC LIMIT %s
    ) recent
) ids
"""


def _fill(owner_id: int, memories: int, pinned: int, events: int) -> None:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(_MEMORIES_SQL, {"owner": owner_id, "n": memories, "pinned": pinned})
        cur.execute("DROP TABLE IF EXISTS bench_ids")
        cur.execute(
            "CREATE TEMP TABLE bench_ids AS SELECT (row_number() OVER (ORDER BY id)) - 1 AS n, id "
            "FROM memories_memory WHERE owner_id = %s",
            [owner_id],
        )
        cur.execute("CREATE INDEX ON bench_ids (n)")
        cur.execute(_EVENTS_SQL, {"owner": owner_id, "n": memories, "events": events})
        cur.execute("ANALYZE memories_memory")
        cur.execute("ANALYZE memories_accessevent")


def _timed(work: Any, runs: int) -> list[float]:
    work()  # warm: plans and caches
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def measure(memories: int, pinned: int, events: int, runs: int) -> dict[str, Any]:
    from django.db import connection

    from accounts.actors import actor_for
    from accounts.models import ALL_SCOPES, ConnectedApp
    from memories.selectors.profile import READ_EVENTS, memory_profile

    owner, other = bench_user("profile"), bench_user("profile-crowd")
    try:
        _fill(owner.pk, memories, pinned, events)
        _fill(other.pk, memories, pinned, events)
        app = ConnectedApp.objects.create(
            owner=owner, kind=ConnectedApp.Kind.TOKEN, name="Bench app", scopes=list(ALL_SCOPES)
        )
        actor = actor_for(owner, app)  # 'health' is sensitive and not granted: hidden
        shown = memory_profile(actor=actor, record=False)
        profile_ms = _timed(lambda: memory_profile(actor=actor, record=False), runs)

        def floor() -> None:
            with connection.cursor() as cur:
                cur.execute(_FLOOR_SQL, [owner.pk, READ_EVENTS])
                cur.fetchone()

        floor_ms = _timed(floor, runs)
    finally:
        with connection.cursor() as cur:
            cur.execute(
                "DELETE FROM memories_accessevent WHERE owner_id = ANY(%s)", [[owner.pk, other.pk]]
            )
        drop_users([owner, other])
    p50, floor_p50 = percentile(profile_ms, 50), percentile(floor_ms, 50)
    return {
        "bench": "profile",
        "memories": memories,
        "pinned": pinned,
        "events": events,
        "returned": len(shown.memories),
        "omitted": shown.omitted,
        "profile_p50_ms": round(p50, 2),
        "profile_p95_ms": round(percentile(profile_ms, 95), 2),
        "floor_p50_ms": round(floor_p50, 2),
        "ratio_p50": round(p50 / floor_p50, 2),
    }


def run(args: Any) -> None:
    result = measure(args.memories, args.pinned, args.events, args.runs)
    print(
        f"profile of {result['memories']} memories, {result['events']} search events: "
        f"p50 {result['profile_p50_ms']} ms, p95 {result['profile_p95_ms']} ms; floor (reading "
        f"the events' ids) p50 {result['floor_p50_ms']} ms; ratio {result['ratio_p50']}"
    )
    emit(result)


def register(sub: Any) -> None:
    parser = sub.add_parser("profile", help="The profile an assistant loads first vs a floor.")
    parser.add_argument("--memories", type=int, default=10_000, help="Memories of the user.")
    parser.add_argument("--pinned", type=int, default=20, help="How many of them are pinned.")
    parser.add_argument("--events", type=int, default=100_000, help="Search events (90 days).")
    parser.add_argument("--runs", type=int, default=30, help="Timed profile reads.")
    add_common(parser)
    parser.set_defaults(run=run)
