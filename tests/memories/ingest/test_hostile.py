"""Hostile archives are refused quickly, with a clear message, and nothing is written."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from memories.ingest.archive import Limits, read_export
from memories.ingest.detect import load_export
from memories.ingest.types import IngestError
from memories.models import Memory
from memories.transfer_models import ImportedConversation, ImportRun
from tests.memories.exports import claude_export, zip_bytes

GOOD = json.dumps(claude_export()).encode()


def _zip_with(tmp_path: Path, build: zipfile.ZipInfo, data: bytes) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(build, data)
        archive.writestr("conversations.json", GOOD)
    path = tmp_path / "export.zip"
    path.write_bytes(buffer.getvalue())
    return path


def _traversal(tmp_path: Path) -> Path:
    return _zip_with(tmp_path, zipfile.ZipInfo("../../etc/evil.json"), b"[]")


def _absolute(tmp_path: Path) -> Path:
    return _zip_with(tmp_path, zipfile.ZipInfo("/tmp/evil.json"), b"[]")


def _symlink(tmp_path: Path) -> Path:
    info = zipfile.ZipInfo("link.json")
    info.external_attr = (0o120777 << 16) | 0  # S_IFLNK
    return _zip_with(tmp_path, info, b"/etc/passwd")


def _bomb(tmp_path: Path) -> Path:
    path = tmp_path / "export.zip"
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("conversations.json", "w", force_zip64=True) as member,
    ):
        chunk = b"\0" * (1 << 20)
        for _ in range(64):  # 64 MiB of zeros, ~64 KiB compressed
            member.write(chunk)
    return path


def _truncated(tmp_path: Path) -> Path:
    data = zip_bytes({"conversations.json": GOOD * 50})
    path = tmp_path / "export.zip"
    path.write_bytes(data[: len(data) // 2])
    return path


def _not_json(tmp_path: Path) -> Path:
    path = tmp_path / "export.zip"
    path.write_bytes(zip_bytes({"conversations.json": b"\x89PNG not json at all"}))
    return path


def _no_conversations(tmp_path: Path) -> Path:
    path = tmp_path / "export.zip"
    path.write_bytes(zip_bytes({"photo.png": b"\x89PNG"}))
    return path


HOSTILE = [
    (_traversal, "names a path outside itself"),
    (_absolute, "names a path outside itself"),
    (_symlink, "is a symbolic link"),
    (_bomb, "looks like a zip bomb"),
    (_truncated, "not a readable ZIP archive|damaged or truncated|truncated"),
    (_not_json, "is not (valid JSON|UTF-8)"),
    (_no_conversations, "holds no conversations.json"),
]


@pytest.mark.parametrize(("build", "message"), HOSTILE, ids=[b[0].__name__ for b in HOSTILE])
def test_hostile_archive_is_refused_with_a_clear_error_and_nothing_is_written(
    owner: User, tmp_path: Path, build: object, message: str
) -> None:
    path = build(tmp_path)  # type: ignore[operator]
    with pytest.raises(CommandError, match=message):
        call_command("backfill", str(path), "--user", owner.email, "--yes")
    assert not Memory.objects.exists()
    assert not ImportedConversation.objects.exists()
    assert not ImportRun.objects.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.zip"]  # nothing extracted


def test_a_bomb_is_refused_from_the_central_directory_before_any_member_is_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _bomb(tmp_path)

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a member was opened")

    monkeypatch.setattr(zipfile.ZipFile, "open", never)
    with pytest.raises(IngestError, match="zip bomb"):
        read_export(path)


def test_a_member_larger_than_the_budget_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "export.zip"
    path.write_bytes(zip_bytes({"conversations.json": GOOD}))
    limits = Limits(max_json_bytes=100, max_archive_bytes=10**9, max_members=10, max_ratio=100)
    with pytest.raises(IngestError, match="the limit is 100"):
        read_export(path, limits)


def test_too_many_members_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "export.zip"
    path.write_bytes(zip_bytes({f"f{i}.txt": b"x" for i in range(20)}))
    limits = Limits(max_json_bytes=10**6, max_archive_bytes=10**9, max_members=10, max_ratio=100)
    with pytest.raises(IngestError, match="20 members; the limit is 10"):
        read_export(path, limits)


def test_a_member_whose_data_exceeds_its_declared_size_is_refused(tmp_path: Path) -> None:
    """The bounded reader stops at the declared size, whatever the compressed stream holds."""
    path = tmp_path / "export.zip"
    path.write_bytes(zip_bytes({"conversations.json": GOOD}))
    raw = bytearray(path.read_bytes())
    # Lower the declared uncompressed size in the central directory (offset 24 of the entry).
    central = raw.rfind(b"PK\x01\x02")
    raw[central + 24 : central + 28] = (10).to_bytes(4, "little")
    local = raw.find(b"PK\x03\x04")
    raw[local + 22 : local + 26] = (10).to_bytes(4, "little")
    path.write_bytes(bytes(raw))
    with pytest.raises(IngestError, match=r"larger than declared|damaged or truncated"):
        load_export(path)


def test_overlapping_members_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "export.zip"
    path.write_bytes(zip_bytes({"conversations.json": GOOD, "b.json": GOOD}))
    raw = bytearray(path.read_bytes())
    # Point the second central directory entry at the first member's local header.
    second = raw.rfind(b"PK\x01\x02")
    raw[second + 42 : second + 46] = (0).to_bytes(4, "little")
    path.write_bytes(bytes(raw))
    with pytest.raises(IngestError, match="overlapping members"):
        read_export(path)
