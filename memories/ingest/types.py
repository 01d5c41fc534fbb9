"""What every parser produces: conversations of messages, or (our own export) memories."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from kernel.errors import InvalidInput

SOURCES = ("claude", "chatgpt", "contextlayer")


class IngestError(InvalidInput):
    """An export that cannot be read: the message names the file and the problem."""


@dataclass(frozen=True)
class Message:
    id: str
    role: str  # "user" or "assistant"
    text: str
    created_at: datetime | None = None


@dataclass(frozen=True)
class Conversation:
    id: str
    title: str
    created_at: datetime | None
    messages: tuple[Message, ...]

    @cached_property
    def _asked_before(self) -> dict[str, str]:
        return {
            m.id: before.text
            for before, m in zip(self.messages, self.messages[1:], strict=False)
            if before.role == "assistant" and m.role == "user"
        }

    def asked_before(self, message: Message) -> str:
        """The assistant's message just before one of the person's ('' when there is none): a
        short answer ("two cats") takes its subject from the question it answers."""
        return self._asked_before.get(message.id, "")

    @property
    def content_hash(self) -> str:
        """Changes whenever a kept message is added, removed or edited."""
        raw = json.dumps([[m.id, m.role, m.text] for m in self.messages], ensure_ascii=False)
        return hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class ExportedVersion:
    text: str
    kind: str
    changed_by: str
    reason: str
    created_at: datetime | None


@dataclass(frozen=True)
class ExportedMemory:
    """One memory from a Context Layer export, with everything a restore brings back."""

    id: str
    text: str
    categories: tuple[str, ...]
    state: str
    provenance: dict[str, Any]
    metadata: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    user_edited_at: datetime | None
    categories_set_by_user: bool
    is_private: bool
    origin: str
    origin_app_name: str
    superseded_by: str | None
    versions: tuple[ExportedVersion, ...] = ()
    in_trash: bool = False  # deleted on the exporting server: a restore does not bring it back
    pinned_at: datetime | None = None  # pinned to the profile by the owner

    @property
    def content_hash(self) -> str:
        raw = json.dumps(
            [self.text, list(self.categories), self.state, self.provenance], sort_keys=True
        )
        return hashlib.sha256(raw.encode()).hexdigest()


@dataclass
class ParsedExport:
    source: str
    conversations: list[Conversation] = field(default_factory=list)
    memories: list[ExportedMemory] = field(default_factory=list)

    @property
    def items(self) -> int:
        return len(self.memories) if self.source == "contextlayer" else len(self.conversations)


def parse_timestamp(value: object) -> datetime | None:
    """ISO 8601 (Claude, ours) or epoch seconds (ChatGPT); None when absent or unreadable."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            return datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value:
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


def expect(condition: bool, where: str, problem: str) -> None:
    if not condition:
        raise IngestError(f"{where}: {problem}")
