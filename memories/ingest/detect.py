"""Parse an export's documents, detecting the format unless it is given."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memories.ingest import chatgpt, claude, contextlayer
from memories.ingest.archive import Document, Limits, read_export
from memories.ingest.types import SOURCES, IngestError, ParsedExport


def load_export(
    path: Path, source: str = "auto", limits: Limits | None = None, *, name: str | None = None
) -> ParsedExport:
    """Read and parse everything before anything is imported: one bad document refuses all.

    `name` is what errors call the file (the user's name for an upload kept under a server-chosen
    one); members of an archive keep their own names."""
    if source != "auto" and source not in SOURCES:
        raise IngestError(f"Unknown source {source!r}; use auto, {', '.join(SOURCES)}.")
    return parse_documents(read_export(path, limits, name=name), source)


# Real exports nest a handful of levels; anything deeper is refused before a parser (or a later
# json.dumps of its metadata) can run out of stack on it.
MAX_DEPTH = 64
# A `\ud800` escape without its pair decodes to a lone surrogate, which no UTF-8 encoder (the
# content hash, PostgreSQL) accepts.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _decode(doc: Document) -> Any:
    try:
        value = json.loads(doc.data)
    except UnicodeDecodeError:
        raise IngestError(f"{doc.name} is not UTF-8 text, so not a JSON export.") from None
    except json.JSONDecodeError as exc:
        raise IngestError(
            f"{doc.name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        raise IngestError(f"{doc.name} is not a usable JSON export ({exc}).") from None
    except RecursionError:
        raise IngestError(f"{doc.name} is nested too deeply to be an export.") from None
    _check_shape(value, doc.name)
    return value


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


def _detect(value: Any, name: str) -> str:
    if contextlayer.looks_like(value):
        return "contextlayer"
    if claude.looks_like(value):
        return "claude"
    if chatgpt.looks_like(value):
        return "chatgpt"
    if isinstance(value, list) and not value:
        raise IngestError(f"{name} is an empty list: there are no conversations to import.")
    raise IngestError(
        f"{name} is neither a Claude export (conversations with 'chat_messages'), a ChatGPT "
        "export (conversations with a 'mapping'), nor a Context Layer export."
    )


def parse_documents(docs: list[Document], source: str = "auto") -> ParsedExport:
    values = [(doc.name, _decode(doc)) for doc in docs]
    detected = {name: _detect(value, name) for name, value in values if value != []}
    if source == "auto":
        kinds = set(detected.values())
        if not kinds:
            raise IngestError("The export holds no conversations.")
        if len(kinds) > 1:
            raise IngestError(f"The export mixes formats: {', '.join(sorted(kinds))}.")
        source = kinds.pop()
    else:
        for name, kind in detected.items():
            if kind != source:
                raise IngestError(f"{name} looks like a {kind} export, not {source}.")
    export = ParsedExport(source=source)
    seen: set[str] = set()
    for name, value in values:
        if source == "contextlayer":
            export.memories.extend(contextlayer.parse(value, name))
            continue
        parser = claude if source == "claude" else chatgpt
        for conversation in parser.parse(value, name):
            if conversation.id not in seen:  # split files may repeat a conversation
                seen.add(conversation.id)
                export.conversations.append(conversation)
    return export
