"""Fuzzing the export readers: Claude and ChatGPT parsers, our own format, and the ZIP reader.

Property, for every generated input: the reader either returns parsed items (whose content hashes
can be computed, as the importer does) or raises `IngestError`, the `InvalidInput` that the import
doors (upload view, API, `backfill`) turn into a clear message. Any other exception would be a 500
or a failed task; it is counted as `uncaught` and fails the test. Memory is measured with
tracemalloc for each example and must stay under a stated bound:

- parsing a JSON document: at most PARSE_FACTOR x its size + BASE (Python objects for JSON cost
  up to ~25x the text, e.g. `{},` is 3 bytes and an empty dict 64);
- reading a ZIP and parsing what it holds: at most PARSE_FACTOR x the IMPORT_MAX_JSON_BYTES limit
  + 2 x the archive's size + BASE, whatever the archive claims or expands to.

Budgets are fixed (and derandomized) so CI time stays bounded; set FUZZ_EXAMPLES to scale them for
a longer run on demand. Each test prints `fuzz[<target>]: examples=N uncaught=0 peak_kib=...`.
"""

from __future__ import annotations

import io
import json
import os
import random
import struct
import tracemalloc
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memories.ingest.archive import Document, Limits
from memories.ingest.detect import load_export, parse_documents
from memories.ingest.types import IngestError, ParsedExport

pytestmark = pytest.mark.slow

SCALE = float(os.environ.get("FUZZ_EXAMPLES", "1"))
PARSE_FACTOR = 64
BASE = 2 * 1024 * 1024
# Small limits so the bounds are reachable by small examples (the checks are the same code).
LIMITS = Limits(
    max_json_bytes=256 * 1024,
    max_archive_bytes=1024 * 1024,
    max_members=40,
    max_ratio=100,
    ratio_floor=64 * 1024,
)


def budget(examples: int) -> Callable[[Any], Any]:
    return settings(
        max_examples=max(1, int(examples * SCALE)),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@dataclass
class Tally:
    target: str
    examples: int = 0
    parsed: int = 0
    refused: int = 0
    uncaught: list[str] = field(default_factory=list)
    peak: int = 0

    def report(self) -> None:
        print(
            f"fuzz[{self.target}]: examples={self.examples} parsed={self.parsed} "
            f"refused={self.refused} uncaught={len(self.uncaught)} "
            f"peak_kib={self.peak // 1024}"
        )


def _use(export: ParsedExport) -> None:
    """What the importer does next with parsed items: hash them, and store every string of them
    (issue 24 item 9: PostgreSQL cannot store a NUL; one in a title failed its conversation,
    one in a sampled message made the dry run a 500)."""
    for conversation in export.conversations:
        assert conversation.id
        conversation.content_hash  # noqa: B018
        assert _storable([conversation.id, conversation.title]), conversation.id
        for message in conversation.messages:
            assert _storable([message.id, message.role, message.text]), message.id
    for memory in export.memories:
        memory.content_hash  # noqa: B018
        fields = [memory.id, memory.text, memory.categories, memory.provenance, memory.metadata]
        assert _storable([*fields, *(v.text for v in memory.versions)]), memory.id


def _storable(value: Any) -> bool:
    """No NUL character in any string (dictionary keys included) of `value`."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and "\x00" in item:
            return False
        if isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, list | tuple):
            stack += list(item)
    return True


def check(tally: Tally, bound: int, run: Callable[[], ParsedExport]) -> None:
    """Run one example under tracemalloc and hold it to the property."""
    tally.examples += 1
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    try:
        _use(run())
        tally.parsed += 1
    except IngestError as exc:
        assert exc.message  # a clear message for the user
        tally.refused += 1
    except Exception as exc:
        tally.uncaught.append(f"{type(exc).__name__}: {exc}")
        raise
    finally:
        peak = tracemalloc.get_traced_memory()[1] - base
        tally.peak = max(tally.peak, peak)
    assert peak <= bound, f"peak {peak:,} bytes > bound {bound:,}"


# --- JSON strategies: plausible shapes whose every field may instead be junk ------------------

NASTY = st.sampled_from(
    ["", " ", "\x00", "\u2028", "\u202e", "😀" * 3, "<script>", "a" * 5000, "\ufeff", "Ω" * 40]
)
TEXT = st.text(max_size=60) | NASTY
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**300, max_value=10**400)
    | st.floats()
    | TEXT
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=8,
)
TIMES = (
    st.sampled_from(
        [
            "2024-05-01T10:00:00.000000Z",
            "0001-01-01T00:00:00+05:00",
            "9999-12-31T23:59:59-05:00",
            "2024-13-45",
            "",
        ]
    )
    | st.floats()
    | st.integers()
)
IDS = st.integers(0, 5).flatmap(
    lambda k: st.sampled_from(["a", "b", "c-1", ""]) if k == 0 else st.uuids().map(str)
)


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The plausible value most of the time, junk otherwise."""
    return _weighted(strategy, 5)


def rarely(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The plausible value, junk about one time in ten (list items, required fields)."""
    return _weighted(strategy, 10)


def _weighted(strategy: st.SearchStrategy[Any], one_in: int) -> st.SearchStrategy[Any]:
    """Junk one time in `one_in` (one_of would merge repeated branches into even odds)."""
    return st.integers(1, one_in).flatmap(lambda k: JUNK if k == one_in else strategy)


def obj(required: dict[str, Any], optional: dict[str, Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {k: rarely(v) for k, v in required.items()},
        optional={k: maybe(v) for k, v in optional.items()},
    )


CLAUDE_BLOCK = obj(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "image"])}, {"text": TEXT}
)
CLAUDE_MESSAGE = obj(
    {"sender": st.sampled_from(["human", "assistant", "system"])},
    {
        "uuid": IDS,
        "text": TEXT,
        "content": st.lists(CLAUDE_BLOCK, max_size=4),
        "attachments": st.lists(
            obj({}, {"file_name": TEXT, "extracted_content": TEXT}), max_size=2
        ),
        "created_at": TIMES,
    },
)
CLAUDE_DOC = st.lists(
    rarely(
        obj(
            {"uuid": IDS, "chat_messages": st.lists(rarely(CLAUDE_MESSAGE), max_size=6)},
            {"name": TEXT, "created_at": TIMES},
        )
    ),
    max_size=5,
)


@st.composite
def chatgpt_conversation(draw: st.DrawFn) -> Any:
    """A mapping tree whose parent/children links may dangle, repeat or loop."""
    names = draw(st.lists(st.sampled_from("abcdefgh"), max_size=8, unique=True))
    link = st.sampled_from([*names, "zz"]) if names else st.just("zz")
    message = obj(
        {
            "author": obj({"role": st.sampled_from(["user", "assistant", "system", "tool"])}, {}),
            "content": obj(
                {"content_type": st.sampled_from(["text", "multimodal_text", "code"])},
                {"parts": st.lists(maybe(TEXT), max_size=3)},
            ),
        },
        {
            "id": IDS,
            "create_time": st.floats() | st.integers(),
            "recipient": st.sampled_from(["all", "browser", None]),
            "metadata": obj({}, {"is_visually_hidden_from_conversation": st.booleans()}),
        },
    )
    mapping = {
        name: draw(
            obj(
                {"id": st.just(name)},
                {
                    "parent": link | st.none(),
                    "children": st.lists(link, max_size=3),
                    "message": message | st.none(),
                },
            )
        )
        for name in names
    }
    return draw(
        obj(
            {"mapping": st.just(mapping)},
            {
                "id": IDS,
                "conversation_id": IDS,
                "title": TEXT,
                "current_node": link,
                "create_time": TIMES,
            },
        )
    )


CHATGPT_DOC = st.lists(rarely(chatgpt_conversation()), max_size=4)
CONTEXTLAYER_DOC = obj(
    {
        "format": st.just("context-layer-export"),
        "version": st.just(1),
        "memories": st.lists(
            rarely(
                obj(
                    {"text": TEXT, "created_at": TIMES, "updated_at": TIMES},
                    {
                        "id": IDS,
                        "categories": st.lists(TEXT, max_size=3),
                        "state": st.sampled_from(["active", "archived"]),
                        "provenance": st.dictionaries(TEXT, JUNK, max_size=3),
                        "metadata": st.dictionaries(TEXT, JUNK, max_size=3),
                        "versions": st.lists(
                            obj(
                                {"text": TEXT}, {"kind": TEXT, "reason": TEXT, "created_at": TIMES}
                            ),
                            max_size=2,
                        ),
                        "superseded_by": IDS,
                    },
                )
            ),
            max_size=4,
        ),
    },
    {},
)


def encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


@st.composite
def mutated(draw: st.DrawFn, doc: st.SearchStrategy[Any]) -> bytes:
    """The encoded document, sometimes damaged: truncated, bytes flipped, or re-encoded."""
    data = encode(draw(doc))
    how = draw(st.sampled_from(["none"] * 4 + ["truncate", "flip", "utf16", "bom", "escape"]))
    if how == "truncate" and data:
        data = data[: draw(st.integers(0, len(data) - 1))]
    elif how == "flip" and data:
        rng = random.Random(draw(st.integers(0, 2**32)))
        raw = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        data = bytes(raw)
    elif how == "utf16":
        data = data.decode("utf-8", "surrogatepass").encode("utf-16", "surrogatepass")
    elif how == "bom":
        data = b"\xef\xbb\xbf" + data
    elif how == "escape":  # ASCII with \u escapes, the way many exporters write
        data = json.dumps(json.loads(data)).encode()
    return data


# Inputs that once crashed a parser (kept as regression examples).
CRASHERS = [
    b'[{"uuid": "a", "chat_messages": [{"sender": ["human"]}]}]',  # unhashable sender
    b'[{"uuid": "a", "chat_messages": [{"sender": "human", "text": "x", "attachments": 5}]}]',
    b'[{"id": "a", "mapping": {"n": {"id": "n", "message": {"author": {"role": "user"}, '
    b'"content": {"content_type": "text", "parts": 5}}}}}]',  # parts not a list
    b'[{"id": "a", "mapping": {"n": {"id": "n", "message": {"create_time": 1'
    + b"0" * 400
    + b"}}}}]",
    b'[{"id": "a", "mapping": {"n": {"id": ["n"]}}}]',  # unhashable leaf id
    b"[" * 100_000 + b"]" * 100_000,  # RecursionError in json.loads
    b"[" + b"1" * 5000 + b"]",  # beyond Python's int digit limit: ValueError
    b'{"format": "context-layer-export", "version": 1, "memories": [{"text": "x", '
    b'"versions": 5, "created_at": "2024-01-01", "updated_at": "2024-01-01"}]}',
    b'[{"uuid": "a", "chat_messages": [{"sender": "human", "text": "\\ud800"}]}]',  # lone surrogate
    b'{"format": "context-layer-export", "version": 1, "memories": [{"text": "x", '
    b'"created_at": "2024-01-01", "updated_at": "2024-01-01", "provenance": {"a": '
    + b"[" * 900
    + b"]" * 900
    + b"}}]}",  # json.dumps of the provenance runs out of stack in the content hash
    # NUL characters, which PostgreSQL cannot store, in a title, a message, ids and keys
    b'[{"uuid": "c\\u0000", "name": "Divorce\\u0000 lawyer", "chat_messages": [{"sender": '
    b'"human", "uuid": "m\\u0000", "text": "I am a nurse\\u0000."}]}]',
    b'{"format": "context-layer-export", "version": 1, "memories": [{"text": "x\\u0000", '
    b'"categories": ["fo\\u0000od"], "created_at": "2024-01-01", "updated_at": "2024-01-01", '
    b'"provenance": {"k\\u0000": "v\\u0000"}}]}',
]


def _parse(data: bytes, source: str) -> Callable[[], ParsedExport]:
    return lambda: parse_documents([Document("conversations.json", data)], source)


def _json_fuzz(target: str, doc: st.SearchStrategy[bytes], examples: int) -> None:
    tally = Tally(target)
    sources = st.sampled_from(["auto"] * 6 + ["claude", "chatgpt", "contextlayer"])

    @budget(examples)
    @given(data=doc, source=sources)
    def run(data: bytes, source: str) -> None:
        check(tally, PARSE_FACTOR * len(data) + BASE, _parse(data, source))

    for crasher in CRASHERS:
        run = example(data=crasher, source="auto")(run)
    try:
        run()
    finally:
        tally.report()
    assert tally.uncaught == []


def test_claude_parser_returns_items_or_a_clear_error(traced: None) -> None:
    _json_fuzz("claude", mutated(rarely(CLAUDE_DOC)), 80)


def test_chatgpt_parser_returns_items_or_a_clear_error(traced: None) -> None:
    _json_fuzz("chatgpt", mutated(rarely(CHATGPT_DOC)), 80)


def test_contextlayer_parser_returns_items_or_a_clear_error(traced: None) -> None:
    _json_fuzz("contextlayer", mutated(CONTEXTLAYER_DOC), 80)


def test_raw_bytes_are_parsed_or_refused_clearly(traced: None) -> None:
    raw = st.binary(max_size=2000) | st.builds(
        lambda open_, n, close: open_ * n + close * n,
        st.sampled_from([b"[", b'{"a":', b'[{"mapping":']),
        st.integers(1, 5000),
        st.sampled_from([b"]", b"}", b""]),
    )
    _json_fuzz("json-bytes", raw, 100)


# --- ZIP archives --------------------------------------------------------------------------------

NAMES = st.sampled_from(
    [
        "conversations.json",
        "conversations-001.json",
        "Conversations.JSON",
        "users.json",
        "notes.txt",
        "chat.html",
        "__MACOSX/._conversations.json",
        "../conversations.json",
        "/etc/conversations.json",
        "C:/x/conversations.json",
        "a\\..\\..\\conversations.json",
        "dir/",
        "ünïcødé/会話/conversations.json",
        "/".join(["deep"] * 200) + "/conversations.json",
    ]
) | st.text(min_size=1, max_size=30).filter(lambda n: "\x00" not in n)
METHODS = st.sampled_from(
    [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
)
MEMBER_DATA = (
    st.builds(encode, CLAUDE_DOC | CHATGPT_DOC | CONTEXTLAYER_DOC)
    | st.binary(max_size=500)
    | st.integers(60, 100).map(lambda k: b"\0" * (k * 1024))  # compresses far beyond the ratio
)


def _build(members: list[tuple[str, bytes, int]]) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w") as archive:
        warnings.simplefilter("ignore")  # duplicate names are part of the fuzzing
        for name, data, method in members:
            info = zipfile.ZipInfo(name)
            info.compress_type = method
            archive.writestr(info, data)
    return buffer.getvalue()


def _central_entries(data: bytes) -> list[int]:
    """Offsets of the central directory headers."""
    found, start = [], 0
    while (at := data.find(b"PK\x01\x02", start)) != -1:
        found.append(at)
        start = at + 4
    return found


def _patch(data: bytes, how: str, rng: random.Random) -> bytes:
    raw = bytearray(data)
    entries = _central_entries(data)
    if how == "truncate":
        return data[: rng.randrange(len(data))]
    if how == "flip":
        for _ in range(rng.randint(1, 12)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
    elif how == "lie" and entries:  # the declared uncompressed size (central directory)
        at = rng.choice(entries)
        raw[at + 24 : at + 28] = struct.pack("<I", rng.choice([0, 1, 100, 2**31, 2**32 - 1]))
    elif how == "method" and entries:  # an unknown or unsupported compression method
        at = rng.choice(entries)
        raw[at + 10 : at + 12] = struct.pack("<H", rng.choice([1, 6, 9, 97, 98, 99]))
    elif how == "version" and entries:  # the zip version needed to extract
        raw[rng.choice(entries) + 6] = rng.randrange(256)
    elif how == "flags" and entries:
        at = rng.choice(entries)
        raw[at + 8 : at + 10] = struct.pack("<H", rng.choice([0x1, 0x8, 0x40, 0x800, 0x2000]))
    elif how == "offset" and entries:  # where the member's local header is
        at = rng.choice(entries)
        raw[at + 42 : at + 46] = struct.pack("<I", rng.choice([0, 1, len(data), 2**32 - 1]))
    return bytes(raw)


@st.composite
def archives(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 9)) == 0:  # not a ZIP at all, only its magic
        return b"PK" + draw(st.binary(max_size=300))
    count = draw(st.sampled_from([1, 2, 3, 5, LIMITS.max_members + 1]))
    if count > LIMITS.max_members:  # many small members
        members = [(f"m/{i}.json", b"[]", zipfile.ZIP_STORED) for i in range(count)]
    else:
        members = [(draw(NAMES), draw(MEMBER_DATA), draw(METHODS)) for _ in range(count)]
    if draw(st.integers(0, 2)) < 2:  # usually the real thing is in there too
        export = draw(st.builds(encode, CLAUDE_DOC | CHATGPT_DOC))
        members.append(("conversations.json", export, draw(METHODS)))
    data = _build(members)
    how = draw(
        st.sampled_from(
            ["none"] * 4 + ["truncate", "flip", "lie", "method", "version", "flags", "offset"]
        )
    )
    return _patch(data, how, random.Random(draw(st.integers(0, 2**32))))


def _lying_bomb() -> bytes:
    """20 MiB of zeros in a member whose headers declare 100 bytes."""
    data = bytearray(_build([("conversations.json", b"\0" * (20 << 20), zipfile.ZIP_DEFLATED)]))
    for at in _central_entries(bytes(data)):
        data[at + 24 : at + 28] = struct.pack("<I", 100)
    data[22:26] = struct.pack("<I", 100)  # the local header too
    return bytes(data)


def _future_version() -> bytes:
    """A member whose central header needs zip version 11.6 (zipfile: NotImplementedError)."""
    data = bytearray(_build([("conversations.json", b"[]", zipfile.ZIP_STORED)]))
    for at in _central_entries(bytes(data)):
        data[at + 6] = 116
    return bytes(data)


def _unknown_method() -> bytes:
    """A member compressed with method 99 (AES), which zipfile cannot read."""
    data = bytearray(_build([("conversations.json", b"[]", zipfile.ZIP_STORED)]))
    for at in _central_entries(bytes(data)):
        data[at + 10 : at + 12] = struct.pack("<H", 99)
    data[8:10] = struct.pack("<H", 99)
    return bytes(data)


def test_zip_reader_returns_documents_or_a_clear_error_in_bounded_memory(
    traced: None, tmp_path: Path
) -> None:
    tally = Tally("zip")
    path = tmp_path / "export.zip"

    @budget(100)
    @given(data=archives())
    @example(data=_lying_bomb())
    @example(data=_build([("conversations.json", b"\0" * (4 << 20), zipfile.ZIP_DEFLATED)]))
    @example(data=_unknown_method())
    @example(data=_future_version())
    def run(data: bytes) -> None:
        path.write_bytes(data)
        bound = PARSE_FACTOR * LIMITS.max_json_bytes + 2 * len(data) + BASE
        check(tally, bound, lambda: load_export(path, "auto", LIMITS))

    try:
        run()
    finally:
        tally.report()
    assert tally.uncaught == []
