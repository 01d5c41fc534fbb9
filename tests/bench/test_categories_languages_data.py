"""`bench categories-languages --data PATH`: a second held-out file (written later by someone
else) is evaluated whole as held-out, and none of its texts is ever printed."""

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from bench import categories_languages

MEMORIES: list[dict[str, Any]] = [
    {"id": "en-f01", "lang": "en", "text": "I take insulin for my type 1 diabetes.",
     "sensitive": "health", "topic": "condition", "looks_like": None, "split": "dev"},
    {"id": "en-f02", "lang": "en", "text": "Our cat Biscuit sleeps on the radiator.",
     "sensitive": None, "topic": "pets", "looks_like": None, "split": "dev"},
    {"id": "de-f01", "lang": "de", "text": "Ich verdiene 4.100 Euro brutto im Monat.",
     "sensitive": "finance", "topic": "salary", "looks_like": None, "split": "heldout"},
    {"id": "zh-f01", "lang": "zh", "text": "我家楼下新开了一家银行。",
     "sensitive": None, "topic": "place", "looks_like": "finance", "split": "dev"},
]  # fmt: skip


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    categories_languages.register(parser.add_subparsers(dest="name"))
    return parser.parse_args(["categories-languages", *argv])


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "fresh.json"
    path.write_text(json.dumps({"about": "tiny", "memories": MEMORIES}, ensure_ascii=False))
    return path


def test_every_memory_of_a_data_file_is_held_out_whatever_split_it_says(tmp_path: Path) -> None:
    loaded = categories_languages.load(_file(tmp_path), all_heldout=True)
    assert [m["id"] for m in loaded] == [m["id"] for m in MEMORIES]
    assert {m["split"] for m in loaded} == {"heldout"}
    # Without the flag (the default multilingual set), the file's own splits stand.
    own = categories_languages.load(_file(tmp_path))
    assert [m["split"] for m in own] == ["dev", "dev", "heldout", "dev"]


def test_verbose_is_refused_with_a_data_file_before_anything_is_read(tmp_path: Path) -> None:
    args = _args("--data", str(tmp_path / "absent.json"), "--verbose")
    with pytest.raises(SystemExit, match="never shown"):
        args.run(args)


@pytest.mark.django_db
def test_a_data_file_is_scored_per_language_as_held_out_and_no_text_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _args("--data", str(_file(tmp_path)))
    assert args.data.endswith("fresh.json")
    args.run(args)
    out = capsys.readouterr().out
    for memory in MEMORIES:
        assert memory["text"] not in out
    result = json.loads(out.strip().splitlines()[-1])
    assert result["data"] == "fresh.json"
    languages = result["languages"]
    assert set(languages) == {"en", "de", "zh"}
    assert languages["en"]["heldout"]["sensitive"] == 1
    assert languages["en"]["heldout"]["ordinary"] == 1
    assert languages["de"]["heldout"]["sensitive"] == 1
    assert languages["zh"]["heldout"]["ordinary"] == 1
    assert all(set(row) == {"heldout"} for row in languages.values())  # no dev row, no misses
    # The printed table has held-out rows only.
    table = [line for line in out.splitlines()[2:-1] if line.strip()]
    assert len(table) == 3 and all(" heldout " in f" {line} " for line in table)
