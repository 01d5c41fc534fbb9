"""What the model is asked. Extraction uses mem0's own prompt; reconciliation is ours, because
mem0 2.x only adds (its older ADD/UPDATE/DELETE prompt rewrites memories in place, which would lose
the old text and ignore a user's own edits)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

RECONCILE_SYSTEM = """You keep the long-term memory of one person.
You receive NEW FACTS about the user. Each fact comes with the EXISTING MEMORIES most similar to it,
each with a short id. For every new fact choose exactly one action:

- "add": the fact is new information. No existing memory says the same thing or contradicts it.
- "skip": an existing memory already says the same thing. Give that memory's id.
- "supersede": the fact changes or contradicts an existing memory, which is no longer true.
  Give that memory's id.
  Example: existing "Lives in Berlin", new fact "Moved from Berlin to Lisbon".

Rules:
- Only use an id that is listed under that fact. Never invent an id.
- Give a short reason for "skip" and "supersede" (it is shown to the user).
- Decide every fact, in order.

Answer with JSON only, in this shape:
{"decisions": [{"fact": "f1", "action": "supersede", "memory": "m1", "reason": "Moved to Lisbon."}]}
"""


def reconcile_user_message(cases: Sequence[dict[str, Any]]) -> str:
    payload = json.dumps({"facts": list(cases)}, ensure_ascii=False, indent=1)
    return f"NEW FACTS and the EXISTING MEMORIES to compare each with:\n```json\n{payload}\n```"


def conversation_text(text: str) -> str:
    """A transcript is passed on as it is; a lone message is the user's."""
    lines = text.strip().splitlines()
    if any(line.lower().startswith(("user:", "assistant:")) for line in lines[:3]):
        return text.strip()
    return f"user: {text.strip()}"


def extraction_messages(text: str) -> tuple[str, str]:
    """(system, user) prompts for fact extraction: mem0's USER_MEMORY_EXTRACTION_PROMPT."""
    from mem0.memory.utils import get_fact_retrieval_messages

    system, user = get_fact_retrieval_messages(conversation_text(text))
    return str(system), str(user)
