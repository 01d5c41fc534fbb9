"""ChatGPT's export: `conversations.json` (or split `conversations-NNN.json`) whose `mapping` is
a tree of nodes. Only the branch the user kept is imported: from `current_node`, follow `parent`
links to the root (regenerated answers and abandoned edits hang off other branches).

Kept: user and assistant text (`text` and the string parts of `multimodal_text`) addressed to
everyone. Skipped: system and tool messages, hidden ones
(`metadata.is_visually_hidden_from_conversation`), tool calls, non-text parts, null parts.
"""

from __future__ import annotations

from typing import Any

from memories.ingest.types import Conversation, Message, expect, parse_timestamp

_TEXT_TYPES = ("text", "multimodal_text")


def looks_like_item(item: Any) -> bool:
    """Whether one conversation of a document is ChatGPT's."""
    return isinstance(item, dict) and "mapping" in item


def _kept_branch(mapping: dict[str, Any], current: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(current, str) or current not in mapping:
        # No current_node: the most recent leaf is the branch the user last saw.
        leaves = [n for n in mapping.values() if isinstance(n, dict) and not n.get("children")]
        expect(bool(leaves), where, "'mapping' has no leaf node to start from.")
        current = max(leaves, key=_node_time).get("id")
        if not isinstance(current, str) or current not in mapping:
            current = next(k for k, v in mapping.items() if v is leaves[-1])
    branch: list[dict[str, Any]] = []
    seen: set[str] = set()
    node_id: Any = current
    while isinstance(node_id, str) and node_id in mapping:
        expect(node_id not in seen, where, f"'mapping' has a cycle at node {node_id!r}.")
        seen.add(node_id)
        node = mapping[node_id]
        expect(isinstance(node, dict), where, f"mapping node {node_id!r} must be an object.")
        branch.append(node)
        node_id = node.get("parent")
    branch.reverse()
    return branch


def _node_time(node: dict[str, Any]) -> float:
    message = node.get("message")
    value = message.get("create_time") if isinstance(message, dict) else None
    if not isinstance(value, int | float):
        return 0.0
    try:
        return float(value)
    except OverflowError:  # an integer too large for a float: not a real time
        return 0.0


def conversation(raw: Any, where: str) -> Conversation:
    expect(isinstance(raw, dict), where, "a conversation must be an object.")
    mapping = raw.get("mapping")
    expect(isinstance(mapping, dict), where, "'mapping' must be an object of nodes.")
    branch = _kept_branch(mapping, raw.get("current_node"), where) if mapping else []
    cid = raw.get("conversation_id") or raw.get("id")
    if not isinstance(cid, str) or not cid:
        root = branch[0].get("id") if branch else None
        expect(isinstance(root, str), where, "a conversation needs an 'id' or 'conversation_id'.")
        cid = f"root:{root}"
    messages = [m for m in (_message(n) for n in branch) if m is not None]
    title = raw.get("title")
    return Conversation(
        id=cid,
        title=title if isinstance(title, str) else "",
        created_at=parse_timestamp(raw.get("create_time")),
        messages=tuple(messages),
    )


def _message(node: dict[str, Any]) -> Message | None:
    message = node.get("message")
    if not isinstance(message, dict):
        return None
    author = message.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    if role not in ("user", "assistant"):
        return None
    metadata = message.get("metadata")
    if isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation"):
        return None
    if message.get("recipient") not in (None, "all"):
        return None  # a tool call, not a message to the user
    content = message.get("content")
    if not isinstance(content, dict) or content.get("content_type") not in _TEXT_TYPES:
        return None
    parts = content.get("parts")
    if not isinstance(parts, list):
        return None
    texts = [p.strip() for p in parts if isinstance(p, str) and p.strip()]
    if not texts:
        return None
    mid = message.get("id") or node.get("id")
    if not isinstance(mid, str) or not mid:
        return None
    return Message(
        id=mid,
        role=role,
        text="\n\n".join(texts),
        created_at=parse_timestamp(message.get("create_time")),
    )
