"""Parse an export's documents, detecting the format unless it is given."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memories.ingest import chatgpt, claude, own_export
from memories.ingest.archive import Document, Limits, read_export
from memories.ingest.stream import ItemReader
from memories.ingest.types import SOURCES, IngestError, ParsedExport


def load_export(
    path: Path, source: str = "auto", limits: Limits | None = None, *, name: str | None = None
) -> ParsedExport:
    """Read and parse everything before anything is imported: one bad document refuses all.

    `name` is what errors call the file (the user's name for an upload kept under a server-chosen
    one); members of an archive keep their own names."""
    if source != "auto" and source not in SOURCES:
        raise IngestError(f"Unknown source {source!r}; use auto, {', '.join(SOURCES)}.")
    limits = limits or Limits.from_settings()
    return parse_documents(read_export(path, limits, name=name), source, limits)


# Real exports nest a handful of levels; anything deeper is refused before a parser (or a later
# json.dumps of its metadata) can run out of stack on it.
MAX_DEPTH = 64
# A `\ud800` escape without its pair decodes to a lone surrogate, which no UTF-8 encoder (the
# content hash, PostgreSQL) accepts.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_shape(value: Any, name: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH and lone surrogates, walking without recursion."""
    stack: list[Iterator[Any]] = [iter((value,))]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
        elif isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                raise IngestError(
                    f"{name} holds text that is not valid Unicode (an unpaired \\u surrogate "
                    "escape): refused."
                )
        elif isinstance(item, dict | list):
            if len(stack) > MAX_DEPTH:
                raise IngestError(f"{name} is nested deeper than {MAX_DEPTH} levels: refused.")
            children = (
                itertools.chain.from_iterable(item.items()) if isinstance(item, dict) else item
            )
            stack.append(iter(children))


_END = object()

_NEITHER = (
    "{name} is neither a Claude export (conversations with 'chat_messages'), a ChatGPT "
    "export (conversations with a 'mapping'), nor a Context Layer export."
)
_CONVERSATION_PARSERS = {"claude": claude, "chatgpt": chatgpt}


def _conversation_kind(item: Any, name: str) -> str:
    """Claude or ChatGPT, told from a document's first conversation."""
    if claude.looks_like_item(item):
        return "claude"
    if chatgpt.looks_like_item(item):
        return "chatgpt"
    raise IngestError(_NEITHER.format(name=name))


class _Collector:
    """The parsed export as it grows, document by document, item by item, within the totals."""

    def __init__(self, source: str, limits: Limits) -> None:
        self.wanted = source
        self.limits = limits
        self.export: ParsedExport | None = None
        self.seen: set[str] = set()
        self.texts = 0

    def kind(self, kind: str, name: str) -> ParsedExport:
        """The export, after checking that this document's kind agrees with the others."""
        if self.wanted != "auto" and kind != self.wanted:
            raise IngestError(f"{name} looks like a {kind} export, not {self.wanted}.")
        if self.export is None:
            self.export = ParsedExport(source=kind)
        elif self.export.source != kind:
            kinds = ", ".join(sorted({self.export.source, kind}))
            raise IngestError(f"The export mixes formats: {kinds}.")
        return self.export

    def count(self, export: ParsedExport, texts: int) -> None:
        self.texts += texts
        if export.items > self.limits.max_items:
            raise IngestError(
                f"The export holds more than {self.limits.max_items:,} items "
                "(IMPORT_MAX_ITEMS): refused."
            )
        if self.texts > self.limits.max_texts:
            raise IngestError(
                f"The export holds more than {self.limits.max_texts:,} messages and versions "
                "(IMPORT_MAX_TEXTS): refused."
            )

    def conversations(self, reader: ItemReader, name: str) -> None:
        export: ParsedExport | None = None
        parser: Any = None
        for where, item in reader.array_items(name):
            _check_shape(item, name)
            if export is None:
                kind = _conversation_kind(item, name)
                export, parser = self.kind(kind, name), _CONVERSATION_PARSERS[kind]
            conversation = parser.conversation(item, where)
            if conversation.id not in self.seen:  # split files may repeat a conversation
                self.seen.add(conversation.id)
                export.conversations.append(conversation)
                self.count(export, len(conversation.messages))

    def memories(self, reader: ItemReader, name: str) -> None:
        """Our export: an object whose `memories` list is streamed; `format` and `version`
        come first (as we write them); everything else (apps, the access log) is read through
        and kept nowhere."""
        header: dict[str, Any] = {}
        saw_memories = False
        for key, where in reader.object_members(name):
            if key == "memories" and not saw_memories:
                saw_memories = True
                self._memory_list(reader, header, name, where)
            elif reader.peek() == "[":
                for _ in reader.array_items(where):
                    pass
            else:
                value = reader.value(where)
                if key in ("format", "version"):
                    header[key] = value
        if not saw_memories:
            if not own_export.looks_like(header):
                raise IngestError(_NEITHER.format(name=name))
            own_export.check_version(header, name)
            raise IngestError(f"{name}: 'memories' must be a list.")

    def _memory_list(
        self, reader: ItemReader, header: dict[str, Any], name: str, where: str
    ) -> None:
        if not header:
            raise IngestError(
                f"{name}: 'format' and 'version' must come before 'memories' (as in our exports)."
            )
        if not own_export.looks_like(header):
            raise IngestError(_NEITHER.format(name=name))
        own_export.check_version(header, name)
        export = self.kind("contextlayer", name)
        if reader.peek() != "[":
            raise IngestError(f"{name}: 'memories' must be a list.")
        for item_where, item in reader.array_items(where):
            _check_shape(item, name)
            memory = own_export.memory(item, item_where)
            export.memories.append(memory)
            self.count(export, 1 + len(memory.versions))


def parse_documents(
    docs: list[Document], source: str = "auto", limits: Limits | None = None
) -> ParsedExport:
    """Parse every document, streaming one item at a time (memories/ingest/stream.py)."""
    limits = limits or Limits.from_settings()
    collector = _Collector(source, limits)
    for doc in docs:
        with doc.open() as raw:
            reader = ItemReader(
                raw,
                doc.name,
                max_item_bytes=limits.max_item_bytes,
                max_item_values=limits.max_item_values,
            )
            first = reader.peek()
            if first == "[":
                collector.conversations(reader, doc.name)
            elif first == "{":
                collector.memories(reader, doc.name)
            elif first == "":
                reader.fail("Expecting value")
            else:
                reader.value(doc.name)  # a bare scalar: valid JSON, not an export
                raise IngestError(_NEITHER.format(name=doc.name))
            reader.finish()
    if collector.export is None:  # empty lists only
        raise IngestError("The export holds no conversations.")
    return collector.export
