"""Builders for export fixtures in the shapes Claude and ChatGPT really use, edge cases included,
and the `backfill` command that imports them."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from django.core.management import call_command


def claude_message(
    uid: str, sender: str, text: str | None = None, *, blocks: list[Any] | None = None, **extra: Any
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "uuid": uid,
        "sender": sender,
        "created_at": "2024-03-01T10:00:00.000000Z",
        "content": blocks if blocks is not None else [{"type": "text", "text": text}],
        "attachments": [],
        "files": [],
    }
    message.update(extra)
    return message


def claude_export() -> list[dict[str, Any]]:
    return [
        {
            "uuid": "c-1",
            "name": "Trip planning",
            "created_at": "2024-03-01T09:59:00.000000Z",
            "chat_messages": [
                claude_message("m-1", "human", "I am vegetarian and I live in Lisbon."),
                claude_message("m-2", "assistant", "Noted! Here are some restaurants."),
                # legacy: no content blocks, the text is on the message itself
                {
                    "uuid": "m-3",
                    "sender": "human",
                    "text": "My daughter is called Ada.",
                    "created_at": "2024-03-01T10:05:00Z",
                },
                # tool-only turn: skipped
                claude_message(
                    "m-4",
                    "human",
                    blocks=[{"type": "tool_result", "content": [{"type": "text", "text": "x"}]}],
                ),
                # empty turn: skipped
                claude_message("m-5", "human", "   "),
                # attachment text is part of the message
                claude_message(
                    "m-6",
                    "human",
                    "Please review my CV.",
                    attachments=[{"file_name": "cv.txt", "extracted_content": "Rust engineer."}],
                ),
                # text plus an image block: only the text
                claude_message(
                    "m-7",
                    "human",
                    blocks=[
                        {"type": "image", "source": {}},
                        {"type": "text", "text": "This is my cat Miso."},
                    ],
                ),
            ],
        },
        {"uuid": "c-2", "name": None, "created_at": None, "chat_messages": []},
    ]


def gpt_node(
    nid: str,
    parent: str | None,
    children: list[str],
    role: str | None = None,
    parts: list[Any] | None = None,
    *,
    content_type: str = "text",
    hidden: bool = False,
    recipient: str = "all",
    create_time: float | None = 1_700_000_000.0,
) -> dict[str, Any]:
    message: dict[str, Any] | None = None
    if role is not None:
        message = {
            "id": nid,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": create_time,
            "content": {"content_type": content_type, "parts": parts},
            "metadata": {"is_visually_hidden_from_conversation": True} if hidden else {},
            "recipient": recipient,
        }
    return {"id": nid, "message": message, "parent": parent, "children": children}


def chatgpt_conversation(cid: str, *said: tuple[str, str]) -> dict[str, Any]:
    """One ChatGPT conversation: (role, text) in order, one branch."""
    ids = [f"{cid}-{index}" for index in range(len(said))]
    mapping = {"root": gpt_node("root", None, ids[:1])}
    for index, (role, text) in enumerate(said):
        parent = ids[index - 1] if index else "root"
        mapping[ids[index]] = gpt_node(ids[index], parent, ids[index + 1 : index + 2], role, [text])
    return {
        "title": cid,
        "create_time": 1_700_000_000.0,
        "mapping": mapping,
        "current_node": ids[-1],
        "conversation_id": cid,
        "id": cid,
    }


def chatgpt_export() -> list[dict[str, Any]]:
    """A tree: the user edited their first message (abandoned branch) and regenerated an answer."""
    mapping = {
        "root": gpt_node("root", None, ["sys"]),
        "sys": gpt_node("sys", "root", ["ctx"], "system", ["You are ChatGPT."]),
        "ctx": gpt_node(
            "ctx", "sys", ["u1-old", "u1"], "user", ["custom instructions"], hidden=True
        ),
        "u1-old": gpt_node("u1-old", "ctx", ["a-old"], "user", ["I live in Paris."]),
        "a-old": gpt_node("a-old", "u1-old", [], "assistant", ["Paris is lovely."]),
        "u1": gpt_node("u1", "ctx", ["a1-regen", "a1"], "user", ["I live in Berlin."]),
        "a1-regen": gpt_node("a1-regen", "u1", [], "assistant", ["First answer."]),
        "a1": gpt_node("a1", "u1", ["tool-call"], "assistant", ["Berlin is great."]),
        "tool-call": gpt_node(
            "tool-call", "a1", ["tool"], "assistant", ["search(x)"], recipient="browser"
        ),
        "tool": gpt_node("tool", "tool-call", ["u2"], "tool", ["results"]),
        "u2": gpt_node(
            "u2",
            "tool",
            ["u3"],
            "user",
            [{"content_type": "image_asset_pointer"}, "I play the cello."],
            content_type="multimodal_text",
            create_time=None,
        ),
        "u3": gpt_node("u3", "u2", ["u4"], "user", None),  # null parts
        "u4": gpt_node("u4", "u3", [], "user", ["print(1)"], content_type="code"),
    }
    return [
        {
            "title": None,
            "create_time": None,
            "update_time": None,
            "mapping": mapping,
            "current_node": "u4",
            "conversation_id": "g-1",
            "id": "g-1",
        }
    ]


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value))
    return path


def zip_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def backfill(path: Path, user: Any, *extra: str) -> str:
    """`manage.py backfill PATH --user EMAIL ...`; what it printed on stdout."""
    out = io.StringIO()
    call_command(
        "backfill", str(path), "--user", user.email, *extra, stdout=out, stderr=io.StringIO()
    )
    return out.getvalue()


def memory_texts(user: Any) -> list[str]:
    """The texts of the user's memories, every state but the trash (as the owner sees them)."""
    from memories.models import Memory

    rows = Memory.objects.filter(owner=user).exclude(state="trashed")
    return sorted(rows.values_list("text", flat=True))
