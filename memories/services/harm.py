"""What happens to a write that holds a credential or instructs an assistant (issue 37), the one
function the write services call on every incoming text (`screen_write`).

- An app's write: credentials are never stored; the clauses without one are kept when they
  still say something, and the app is told what was not kept and why. Text that instructs an
  assistant waits on the owner's Review page (memories/services/app_review.py) and no other app
  reads it before the owner accepts it; an accepted one is not held again.
- The owner's own write (the owner's apps and imports of the owner's own archive): kept as
  written, made private, with a notice; every app reads it with its credentials withheld
  (`Memory.app_text`), and its embedding and lexemes come from that text.
- A store from before: memories/services/harm_check.py.

Recognition itself is pure and lives in memories/harm/.
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts.actors import Actor
from accounts.models import ConnectedApp
from kernel.errors import InvalidInput
from memories.harm.screen import Screening, screen


@dataclass(frozen=True)
class Screened:
    """What a write of one text does, decided once, before anything is embedded or stored."""

    text: str  # what is stored ("" for an app's text that held nothing but credentials)
    app_text: str | None = None  # what apps read instead (the owner's text, credentials withheld)
    private: bool = False  # the owner's text with a credential: made private
    instruction: str = ""  # why an app's text waits for the owner (a sentence), or ""
    note: str = ""  # what the writer is told

    @property
    def stored(self) -> bool:
        return bool(self.text)


def _owner_side(actor: Actor) -> bool:
    """The owner's own apps and imports of the owner's own archive write as the owner."""
    return actor.app.is_owner_app or actor.app.kind == ConnectedApp.Kind.IMPORT


def app_note(s: Screening, *, kept: bool) -> str:
    """The sentence an app is told about credentials it sent."""
    why = (
        "every app the owner connects reads this memory, so credentials and identifiers are "
        "never stored"
    )
    if kept:
        return f"Not kept: {s.what()} ({why}); the rest was stored."
    return f"Nothing was stored: the text held {s.what()} and nothing else to keep ({why})."


def owner_note(s: Screening) -> str:
    return (
        f"This holds {s.what()}, so it was kept private: no app reads it, and if you share it, "
        "apps read it with that part withheld."
    )


def instruction_note(s: Screening) -> str:
    return (
        f"This waits on the owner's Review page and no other app reads it until they accept it: "
        f"{s.why}. Memory holds information about the person, not instructions for assistants."
    )


def screen_write(actor: Actor, text: str) -> Screened:
    """What a write of `text` (already cleaned) by `actor` stores, and what the writer is told."""
    owner_side = _owner_side(actor)
    s = screen(text, instructions=not owner_side and not actor.reviewed)
    if owner_side:
        if not s.found:
            return Screened(text=text)
        return Screened(text=text, app_text=s.redacted, private=True, note=owner_note(s))
    kept = s.remainder if s.found else text
    note = app_note(s, kept=bool(kept)) if s.found else ""
    if kept and s.instruction and not actor.reviewed:
        return Screened(
            text=kept, instruction=s.why, note=" ".join(filter(None, [note, instruction_note(s)]))
        )
    return Screened(text=kept, note=note)


def refuse_empty(screened: Screened, field: str = "text") -> None:
    """An app's change whose text held nothing but credentials changes nothing: say so."""
    if not screened.stored:
        raise InvalidInput(screened.note, field=field)
