"""One look at a text: its credentials, whether it instructs an assistant, and the two texts
that may stand in for it: `redacted` (each credential replaced by a marker: what an app reads of
the owner's own memory, and what a language model is sent) and `remainder` (the clauses without a
credential: what an app's write keeps, "" when what is left says nothing)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from memories.harm import instruction_model
from memories.harm.credentials import (
    KIND_NAMES,
    Found,
    find_credentials,
    names_a_credential,
)
from memories.harm.instructions import REASONS, instruction_reason
from memories.harm.stated import WITHHELD

# Where a clause ends: a sentence's end, a line, a semicolon (SENTENCE), a comma or a dash
# (COMMA), a conjunction. A colon is not one: "Live key: sk_live_…" is one clause, label and
# value.
_BOUNDARY = re.compile(
    r"(?P<sentence>(?<=[.!?])\s+|[;；。！？\n]+\s*)|(?P<comma>[,，、]\s*|\s+[—–]\s+)|"
    r"\s+(?:and|but|und|aber|et|mais|y|pero|e|mas|и|но|а)\s+",
    re.I,
)
SENTENCE, COMMA, CONJUNCTION = "sentence", "comma", "conjunction"
# Left of a kept clause: the separator it had (a comma, "and").
_LEADING = re.compile(
    r"^[\s,，、;；:：—–\-]+|^(?:and|but|und|aber|et|mais|y|pero|e|mas|и|но|а)\s+", re.I
)
_TRAILING = re.compile(r"[\s,，、;；:：—–\-(]+$")
_LETTER_WORD = re.compile(r"[^\W\d_]{3,}")
_IDEOGRAPH = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


@dataclass(frozen=True)
class Screening:
    text: str
    found: tuple[Found, ...]
    instruction: str  # a key of instructions.REASONS, or ""

    @property
    def has_credentials(self) -> bool:
        return bool(self.found)

    @cached_property
    def redacted(self) -> str:
        """The text with each credential replaced by WITHHELD."""
        out, at = [], 0
        for f in self.found:
            out += [self.text[at : f.start], WITHHELD]
            at = f.end
        out.append(self.text[at:])
        return "".join(out)

    @cached_property
    def remainder(self) -> str:
        """The clauses that hold no credential, as written; "" when they say nothing lasting.
        What only goes with a dropped clause goes with it: a label that introduced it ("my ssh
        key for the nas:"), what follows it after a comma in its sentence ("…, valid until
        2029"), and a clause that names a credential or an account ("GMX login: anna@gmx.de")."""
        if not self.found:
            return self.text
        kept: list[tuple[int, int, int]] = []  # (separator start, clause start, clause end)
        following = False
        for sep, start, end, kind in _clauses(self.text):
            if kind == SENTENCE:
                following = False
            if any(f.start < end and f.end > start for f in self.found):
                while kept and self.text[kept[-1][1] : kept[-1][2]].rstrip().endswith((":", "：")):
                    kept.pop()
                following = True
                continue
            if following and kind == COMMA:
                continue
            following = False
            kept.append((sep, start, end))
        kept = [k for k in kept if not names_a_credential(self.text[k[1] : k[2]])]
        if not kept:
            return ""
        text = self.text[kept[0][1] : kept[0][2]]
        for sep, start, end in kept[1:]:
            text += self.text[sep:start] + self.text[start:end]
        text = _TRAILING.sub("", _LEADING.sub("", text.strip())).strip()
        return text if _says_something(text) else ""

    @property
    def kinds(self) -> list[str]:
        """The kinds found, each once, in order."""
        return list(dict.fromkeys(f.kind for f in self.found))

    def what(self) -> str:
        """What was found, in words: "a password and a card number"."""
        names = [KIND_NAMES[k] for k in self.kinds]
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} and {names[-1]}"

    @property
    def why(self) -> str:
        """Why the text reads as an instruction, in words ("" when it does not)."""
        return REASONS.get(self.instruction, "")


def _clauses(text: str) -> list[tuple[int, int, int, str]]:
    """(separator start, clause start, clause end, the separator's kind) of each clause."""
    out: list[tuple[int, int, int, str]] = []
    sep, at, kind = 0, 0, SENTENCE
    for match in _BOUNDARY.finditer(text):
        if match.start() > at:
            out.append((sep, at, match.start(), kind))
        sep, at = match.start(), match.end()
        kind = SENTENCE if match["sentence"] else COMMA if match["comma"] else CONJUNCTION
    if at < len(text):
        out.append((sep, at, len(text), kind))
    return out


def _says_something(text: str) -> bool:
    """At least three words of three letters or more, or four ideographs or kana."""
    return len(_LETTER_WORD.findall(text)) >= 3 or len(_IDEOGRAPH.findall(text)) >= 4


def screen(text: str, *, instructions: bool = True) -> Screening:
    """Look at `text` once: its credentials and (unless `instructions` is False: the owner's own
    writes are never held for them) whether it instructs an assistant, by the rules and, when
    they find nothing, by the model (over the text with its credentials withheld)."""
    found = tuple(find_credentials(text))
    reason = ""
    if instructions:
        reason = instruction_reason(text)
        if not reason:
            shown = Screening(text=text, found=found, instruction="").redacted
            reason = "addressed" if instruction_model.score(shown).instructs else ""
    return Screening(text=text, found=found, instruction=reason)


def hold_kind(text: str) -> str:
    """What the check of an existing store holds a memory for until the owner decides:
    "credential", "instruction" or "" (the same rules as a new write)."""
    s = screen(text)
    return "credential" if s.found else "instruction" if s.instruction else ""


def for_model(text: str) -> str:
    """A text as a language model may be sent it: every credential withheld."""
    found = find_credentials(text)
    return Screening(text=text, found=tuple(found), instruction="").redacted if found else text
