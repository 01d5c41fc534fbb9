"""What the tests of moving a store to another embedding model share (issue 36 item 6): a small
store in four languages, queries that only the meaning finds, and which model a user is on.

The queries were chosen for what each model does with them (cosines measured on these texts): a
paraphrase MiniLM and e5 both rank first ("dog" for the dachshund), and an English query for a
Chinese memory that only the multilingual e5 finds ("food allergy"; "peanut allergy" is first
under e5 too, but its cosine, .78 against .71-.75 for the rest, stays under e5's own cut-off),
so a search tells which model embedded its query."""

from __future__ import annotations

from typing import Any

from accounts.actors import Actor
from memories.models import Memory, SearchModel
from memories.search.embeddings import E5_MODEL, MINILM_MODEL
from memories.selectors.memories import memory_search
from memories.services import adding

__all__ = ["E5_MODEL", "MINILM_MODEL"]

DACHSHUND = "We have a dachshund named Bruno."
PEANUTS = "我对花生过敏，吃了会起疹子。"  # noqa: RUF001 - a Chinese comma
STORE = (
    DACHSHUND,
    PEANUTS,
    "Mein Bruder wohnt in Hamburg und arbeitet als Koch.",
    "私は毎朝ジョギングをしています。",
    "My daughter starts kindergarten in September.",
    "I play the cello in a community orchestra.",
    "Our flat in Lisbon has a leaking roof.",
    "I prefer green tea over coffee.",
    "My manager Priya is moving to Berlin.",
    "I'm training for a half marathon in April.",
)
# Found by meaning alone (no word in common), first, whichever model embedded the query.
PARAPHRASES = {
    "dog": DACHSHUND,
    "musical instrument": "I play the cello in a community orchestra.",
}
# First with e5; below the cut-off with MiniLM (English only: every Chinese text is alike to it).
CROSS_LANGUAGE = ("food allergy", PEANUTS)


def live_model(user: Any) -> str:
    """The model the user's searches embed their query with."""
    return SearchModel.objects.get(owner=user).model


def found(actor: Actor, query: str, limit: int = 3) -> list[str]:
    """The texts a search returns, best first, as the service layer answers it."""
    return [h.memory.text for h in memory_search(actor=actor, query=query, limit=limit)]


def finds_by_meaning(actor: Actor) -> bool:
    """Whether each paraphrase finds its memory first."""
    return all(found(actor, q)[:1] == [text] for q, text in PARAPHRASES.items())


def finds_across_languages(actor: Actor) -> bool:
    """Whether the English query finds the Chinese memory first (only e5 does)."""
    query, text = CROSS_LANGUAGE
    return found(actor, query)[:1] == [text]


def store(actor: Actor, texts: tuple[str, ...] = STORE) -> list[Memory]:
    """The texts written as the actor's memories, through the services."""
    made = adding.memory_create_many(actor=actor, items=[adding.NewMemory(text=t) for t in texts])
    return [r.memory for r in made]
