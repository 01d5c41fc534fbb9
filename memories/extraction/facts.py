"""Turning a message or a conversation into short standalone facts about the user."""

from __future__ import annotations

from django.conf import settings

from memories.extraction.llm import LLMUnavailable, ask_json
from memories.extraction.prompts import extraction_messages
from memories.harm.screen import for_model
from memories.text import normalise

MAX_FACTS = 20


def extract_facts(text: str) -> list[str]:
    """Distinct facts, in the model's order. Raises LLMUnavailable on any failure or bad shape."""
    system, user = extraction_messages(for_model(text))  # a credential never reaches a model
    answer = ask_json(system, user)
    facts = answer.get("facts")
    if not isinstance(facts, list) or not all(isinstance(f, str) for f in facts):
        raise LLMUnavailable('The model\'s answer had no list of strings under "facts".')
    out: list[str] = []
    seen: set[str] = set()
    for fact in facts:
        fact = fact.strip()
        key = normalise(fact)
        if not key or key in seen or len(fact) > settings.MEMORY_MAX_CHARS:
            continue
        seen.add(key)
        out.append(fact)
    return out[:MAX_FACTS]
