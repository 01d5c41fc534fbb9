"""Reconciliation: each new fact against the user's most similar memories -> add, skip or
supersede. The model sees short ids (m1, m2 ...) that we hand out; any other id is rejected."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from django.conf import settings

from accounts.actors import Actor
from memories.extraction.llm import LLMUnavailable, ask_json
from memories.extraction.prompts import RECONCILE_SYSTEM, reconcile_user_message
from memories.harm.screen import for_model
from memories.models import Memory
from memories.selectors.memories import memory_search
from memories.visibility import dedup_reader

ADD, SKIP, SUPERSEDE = "add", "skip", "supersede"


@dataclass(frozen=True)
class FactCase:
    fact_id: str
    text: str
    neighbours: dict[str, Memory] = field(default_factory=dict)  # short id -> memory


@dataclass(frozen=True)
class Decision:
    case: FactCase
    action: str
    target: Memory | None = None
    reason: str = ""
    rejected: str = ""  # why the model's own decision was not accepted (then action is "add")


def gather(
    actor: Actor, facts: Sequence[str], *, exclude: Collection[uuid.UUID] = ()
) -> list[FactCase]:
    """Each fact with its nearest existing memories, found by the service-layer search as
    `dedup_reader` says (so consent applies: a model never decides about memories the calling
    app cannot see; an import, whose answers reach only the owner, is shown the owner's)."""
    short_ids: dict[object, str] = {}
    cases = []
    reader = dedup_reader(actor)
    for index, fact in enumerate(facts, start=1):
        if reader is None:
            cases.append(FactCase(fact_id=f"f{index}", text=fact, neighbours={}))
            continue
        # No relevance cut-off: a new fact ("lives in Lisbon") is by nature about something the
        # store does not know yet, and the memory it replaces ("lives in Berlin") must still come.
        found = memory_search(
            actor=reader,
            query=fact,
            limit=settings.RECONCILE_NEIGHBOURS + len(exclude),
            record=False,
            min_score=0,
            use_second_arm=False,  # the neighbours the LLM's reconciliation was measured with
        )
        hits = [h for h in found if h.memory.id not in exclude][: settings.RECONCILE_NEIGHBOURS]
        neighbours = {}
        for hit in hits:
            sid = short_ids.setdefault(hit.memory.id, f"m{len(short_ids) + 1}")
            neighbours[sid] = hit.memory
        cases.append(FactCase(fact_id=f"f{index}", text=fact, neighbours=neighbours))
    return cases


def decide(cases: Sequence[FactCase]) -> list[Decision]:
    """Ask the model once for all facts. A fact without neighbours is an add without asking."""
    asked = [c for c in cases if c.neighbours]
    answers: dict[str, dict[str, object]] = {}
    if asked:
        payload = [
            {
                "id": c.fact_id,
                "text": for_model(c.text),
                # What apps read of each (the owner's credentials withheld), checked once more.
                "existing_memories": [
                    {"id": s, "text": for_model(m.app_text or m.text)}
                    for s, m in c.neighbours.items()
                ],
            }
            for c in asked
        ]
        answer = ask_json(RECONCILE_SYSTEM, reconcile_user_message(payload))
        raw = answer.get("decisions")
        if not isinstance(raw, list):
            raise LLMUnavailable('The model\'s answer had no list under "decisions".')
        for item in raw:
            if isinstance(item, dict) and isinstance(item.get("fact"), str):
                answers.setdefault(item["fact"], item)
    return [_decision(case, answers.get(case.fact_id)) for case in cases]


def _decision(case: FactCase, item: dict[str, object] | None) -> Decision:
    if not case.neighbours:
        return Decision(case, ADD)
    if item is None:
        return Decision(case, ADD, rejected="the model gave no decision for this fact")
    action = str(item.get("action", "")).strip().lower()
    reason = str(item.get("reason") or "")[:500]
    if action == ADD:
        return Decision(case, ADD, reason=reason)
    if action not in (SKIP, SUPERSEDE):
        return Decision(case, ADD, rejected=f"unknown action {action!r}")
    ref = str(item.get("memory") or "").strip()
    target = case.neighbours.get(ref)
    if target is None:
        return Decision(
            case, ADD, rejected=f"the model referenced a memory it was not shown ({ref!r})"
        )
    return Decision(case, action, target=target, reason=reason)
