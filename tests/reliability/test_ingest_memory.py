"""A hostile export cannot make the server build what its JSON describes (issue 14, item 9).

`json.loads` of a whole export built every object at once: a 21 MB file of empty objects grew
the process by 535 MB before it was refused, and the default limits (512 MB upload, 1 GiB JSON)
allowed about 13 GB. Exports are now read one item at a time (memories/ingest/stream.py). Peak
memory is measured with tracemalloc, as in test_fuzz_ingest.py, and must not follow the file's
size: it is bounded by one item's window and what the kept items hold.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memories.ingest.archive import Limits
from memories.ingest.detect import load_export
from memories.ingest.types import IngestError, ParsedExport
from tests.memories.exports import claude_export

pytestmark = pytest.mark.slow

MIB = 1024 * 1024
# Everything the process may hold for one of these files, whatever its size: the text of a read
# window (a few MiB), one item's objects, and the items kept.
BOUND = 48 * MIB


def _peak(run: Callable[[], Any], path: Path) -> tuple[int, Any]:
    """Peak traced memory of one parse; printed (`pytest -s`) for docs/reliability.md."""
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    try:
        outcome: Any = run()
    except IngestError as exc:
        outcome = exc
    peak = tracemalloc.get_traced_memory()[1] - base
    size = path.stat().st_size
    print(f"ingest-memory[{path.name}]: bytes={size:,} peak={peak:,} ({type(outcome).__name__})")
    return peak, outcome


def _write(path: Path, parts: Iterator[bytes]) -> Path:
    with path.open("wb") as out:
        for part in parts:
            out.write(part)
    return path


def _repeat(open_: bytes, item: bytes, count: int, close: bytes) -> Iterator[bytes]:
    yield open_
    batch = b",".join([item] * 10_000)
    for n in range(count // 10_000):
        yield (b"," if n else b"") + batch
    yield close


def test_the_issues_file_of_empty_objects_is_refused_without_building_them(
    traced: None, tmp_path: Path
) -> None:
    path = _write(tmp_path / "conversations.json", _repeat(b"[", b"{}", 7_000_000, b"]"))
    assert path.stat().st_size > 20 * MIB
    peak, outcome = _peak(lambda: load_export(path), path)
    assert isinstance(outcome, IngestError)
    assert peak < 8 * MIB, f"peak {peak:,} bytes"


@pytest.mark.parametrize(
    ("shape", "parts"),
    [
        # One conversation holding millions of (skipped) empty messages.
        (
            "one huge conversation",
            lambda: _repeat(b'[{"uuid": "c", "chat_messages": [', b"{}", 7_000_000, b"]}]"),
        ),
        # A ChatGPT conversation whose mapping has a million nodes.
        (
            "a million mapping nodes",
            lambda: (
                b'[{"id": "c", "mapping": {'
                + b",".join(b'"n%d": {}' % i for i in range(1_000_000))
                + b"}}]",
            ),
        ),
        # Millions of conversations, each valid and tiny.
        (
            "millions of conversations",
            lambda: (
                b"["
                + b",".join(
                    b'{"uuid": "c%d", "chat_messages": [{"sender": "human", "text": "x"}]}' % i
                    for i in range(400_000)
                )
                + b"]",
            ),
        ),
        # Our own format: memories whose provenance is a huge object.
        (
            "provenance of a million keys",
            lambda: (
                b'{"format": "context-layer-export", "version": 1, "memories": [{"text": "x", '
                b'"created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z", '
                b'"provenance": {' + b",".join(b'"k%d": 0' % i for i in range(1_000_000)) + b"}}]}",
            ),
        ),
    ],
)
def test_hostile_shapes_are_refused_within_a_bound_that_does_not_follow_the_file(
    traced: None, tmp_path: Path, settings: Any, shape: str, parts: Callable[[], Any]
) -> None:
    # Limits scaled down with the files (the checks are the same code at any size).
    settings.IMPORT_MAX_ITEM_VALUES = 100_000
    settings.IMPORT_MAX_ITEMS = 50_000
    path = _write(tmp_path / "conversations.json", iter(parts()))
    peak, outcome = _peak(lambda: load_export(path), path)
    assert isinstance(outcome, IngestError), shape
    assert peak < BOUND, f"{shape}: peak {peak:,} bytes for {path.stat().st_size:,}"


def test_the_access_log_of_our_export_is_read_through_not_kept(
    traced: None, tmp_path: Path
) -> None:
    events = ({"app": "Claude", "action": "read", "memory_ids": []} for _ in range(400_000))
    head = (
        b'{"format": "context-layer-export", "version": 1, "memories": [{"id": "m-1", "text": "x", '
        b'"created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z"}], '
        b'"access_log": ['
    )
    body = (json.dumps(e).encode() for e in events)
    path = _write(tmp_path / "export.json", iter([head, b",".join(body), b"]}"]))
    peak, outcome = _peak(lambda: load_export(path), path)
    assert isinstance(outcome, ParsedExport) and len(outcome.memories) == 1
    assert peak < 8 * MIB, f"peak {peak:,} bytes for {path.stat().st_size:,}"


def test_a_real_export_still_parses_in_memory_close_to_what_it_keeps(
    traced: None, tmp_path: Path
) -> None:
    conversations = [
        {**c, "uuid": f"{c['uuid']}-{n}"} for n in range(2_000) for c in claude_export()
    ]
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(conversations))
    peak, outcome = _peak(lambda: load_export(path), path)
    assert isinstance(outcome, ParsedExport) and len(outcome.conversations) == 4_000
    assert peak < BOUND


def test_the_totals_refuse_an_export_with_more_items_than_allowed(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(
        json.dumps([{**c, "uuid": f"{c['uuid']}-{n}"} for n in range(30) for c in claude_export()])
    )
    with pytest.raises(IngestError, match="IMPORT_MAX_ITEMS"):
        load_export(path, limits=Limits(10**9, 10**9, 10, 100, max_items=50))
    with pytest.raises(IngestError, match="IMPORT_MAX_TEXTS"):
        load_export(path, limits=Limits(10**9, 10**9, 10, 100, max_texts=100))
    assert load_export(path).items == 60
