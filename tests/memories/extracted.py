"""What the local extractor keeps from messages read as one conversation, as texts: the shared
reader of the extraction tests."""

from __future__ import annotations

from memories.extraction.local import Turn, local_extractor


def conversation_memories(*messages: str) -> list[list[str]]:
    """Each message's memories, the messages read in order as one conversation."""
    kept = local_extractor().extract([Turn(m, "one conversation", "A chat") for m in messages])
    return [[k.text for k in memories] for memories in kept]
