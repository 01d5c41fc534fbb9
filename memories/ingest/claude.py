"""Claude's export: `conversations.json`, a list of conversations with `chat_messages`.

Text comes from `content[]` text blocks (the legacy top-level `text` when there are none) plus
the `extracted_content` of attachments; tool-use/tool-result blocks are not text, so a turn made
only of them is skipped, as is an empty turn.
"""

from __future__ import annotations

from typing import Any

from memories.ingest.types import Conversation, Message, expect, parse_timestamp

_ROLES = {"human": "user", "assistant": "assistant"}


def looks_like_item(item: Any) -> bool:
    """Whether one conversation of a document is Claude's."""
    return isinstance(item, dict) and "chat_messages" in item


def conversation(raw: Any, where: str) -> Conversation:
    expect(isinstance(raw, dict), where, "a conversation must be an object.")
    cid = raw.get("uuid")
    expect(isinstance(cid, str) and bool(cid), where, "a conversation needs a string 'uuid'.")
    messages_raw = raw.get("chat_messages")
    expect(isinstance(messages_raw, list), where, "'chat_messages' must be a list.")
    messages = []
    for index, item in enumerate(messages_raw):
        message = _message(item, f"{where}.chat_messages[{index}]", f"{cid}:{index}")
        if message is not None:
            messages.append(message)
    title = raw.get("name")
    return Conversation(
        id=cid,
        title=title if isinstance(title, str) else "",
        created_at=parse_timestamp(raw.get("created_at")),
        messages=tuple(messages),
    )


def _message(raw: Any, where: str, fallback_id: str) -> Message | None:
    expect(isinstance(raw, dict), where, "a message must be an object.")
    sender = raw.get("sender")
    role = _ROLES.get(sender) if isinstance(sender, str) else None
    if role is None:
        return None
    content = raw.get("content")
    parts: list[str] = []
    other_blocks = False
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                text = block.get("text")
                if isinstance(text, str) and text.strip():
                    parts.append(text.strip())
            else:
                other_blocks = True
    if not parts and not other_blocks:  # legacy exports: the text is on the message itself
        legacy = raw.get("text")
        if isinstance(legacy, str) and legacy.strip():
            parts.append(legacy.strip())
    attachments = raw.get("attachments")
    for attachment in attachments if isinstance(attachments, list) else []:
        if isinstance(attachment, dict):
            extracted = attachment.get("extracted_content")
            if isinstance(extracted, str) and extracted.strip():
                file_name = attachment.get("file_name")
                label = file_name if isinstance(file_name, str) and file_name else "attachment"
                parts.append(f"[{label}]\n{extracted.strip()}")
    if not parts:
        return None  # empty, or only tool use / tool results / images
    mid = raw.get("uuid")
    return Message(
        id=mid if isinstance(mid, str) and mid else fallback_id,
        role=role,
        text="\n\n".join(parts),
        created_at=parse_timestamp(raw.get("created_at")),
    )
