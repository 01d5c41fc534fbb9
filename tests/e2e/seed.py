"""A small, realistic store for browser tests and screenshots: several apps, an import with
conversation titles, edits, reads and writes in the access log."""

from __future__ import annotations

from accounts.actors import Actor, actor_for
from accounts.models import ALL_SCOPES, ConnectedApp, User
from memories.selectors import memories as memory_reads
from memories.services import adding, changing


def app_actor(user: User, name: str, kind: str = ConnectedApp.Kind.TOKEN) -> Actor:
    app = ConnectedApp.objects.create(owner=user, kind=kind, name=name, scopes=list(ALL_SCOPES))
    return actor_for(user, app)


def seed_store(user: User, owner: Actor) -> None:
    claude = app_actor(user, "Claude Desktop", ConnectedApp.Kind.STDIO)
    cursor = app_actor(user, "Cursor")
    chatgpt = app_actor(user, "ChatGPT export", ConnectedApp.Kind.IMPORT)
    for text, cats in [
        ("I work as a data engineer at Acme Corp, mostly on the billing pipeline", ["work"]),
        ("Prefers concise answers with code first, explanation after", ["preferences"]),
        ("My daughter Alice starts primary school in September", ["relationships"]),
        ("Training for the Berlin half marathon in April", ["hobbies", "goals"]),
    ]:
        adding.memory_create(actor=claude, text=text, categories=cats)
    for text, cats in [
        ("Uses Python 3.11 with uv and ruff; type hints everywhere", ["technology"]),
        ("The Acme billing service is written in Go and deployed on Kubernetes", ["work"]),
        ("Favourite editor theme is Solarized Dark", ["technology", "preferences"]),
    ]:
        adding.memory_create(actor=cursor, text=text, categories=cats)
    for text, cats, title in [
        ("Vegetarian since 2019; eats fish occasionally", ["food"], "Weekly meal plan"),
        ("Flying to Lisbon in May for a data conference", ["travel"], "Lisbon trip planning"),
        ("Has a cat called Miso", ["home"], "Pet names brainstorm"),
        ("Learning Portuguese on Duolingo, about 15 minutes a day", [], "Language learning"),
    ]:
        adding.memory_create(
            actor=chatgpt,
            text=text,
            categories=cats,
            provenance={"source": "chatgpt", "conversation_title": title},
        )
    edited = adding.memory_create(
        actor=owner, text="Prefers window seats on long flights", categories=["travel"]
    ).memory
    changing.memory_update(
        actor=owner, memory_id=edited.id, text="Prefers aisle seats on long flights"
    )
    # Apps read memories, so the activity page, access trails and delete warnings have content.
    memory_reads.memory_search(actor=claude, query="what does the user do for work")
    memory_reads.memory_search(actor=cursor, query="preferred tools and languages")
    memory_reads.memory_get(actor=claude, memory_id=edited.id)
    memory_reads.memory_list(actor=cursor, limit=5)
