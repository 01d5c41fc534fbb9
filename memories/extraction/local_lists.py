"""The local extractor on a list the writer makes of themselves: "My situation:\\n- 24 years
old\\n- from Nigeria\\n- 2 years in oil and gas", "Kurz zu mir für die Bewerbung:\\n- 29 Jahre",
"Обо мне для резюме:\\n- 27 лет". Its items rarely say "I" (the heading does), so read alone
they are not about anyone, and the other-language reader stops at a line ending in a colon (what
follows is usually pasted material).

A run of two or more list items (a dash, star, bullet or number opening each line) after a heading
that ends in a colon is the writer's own when the heading speaks of the writer ("about me", "my
situation", "some background", "zu mir", "sobre mim", "обо мне", "我的情况") and asks nothing
("Make me a packing list:", "Compare these for me:", "自己紹介を英語にしてください："). Each
item that asks nothing is kept as "<heading>: <item>", as written, in any language; the heading
and its items are taken out of the message, which is read as before.

Written from tests/memories/data/extraction_threads.txt's dev part (issue 38.3, fourth pass),
which was written before it.
"""

from __future__ import annotations

import re

from memories.extraction.local_clauses import tidy
from memories.extraction.local_foreign import is_aside
from memories.extraction.local_paste import CODE_FENCE
from memories.extraction.local_rules import clause_verdict

_ITEM = re.compile(r"^\s*(?:[-*•·・‣▪]|\d{1,2}[.)、．]|[①-⑩])\s*(?P<item>\S.*?)\s*$")
_HEADING = re.compile(r"^(?P<heading>\S.*?)\s*[:：]\s*$")
# A heading about the writer, in the eight claimed languages: a first-person word, or what
# introduces one's own details ("background", "context").
_ABOUT_ME = re.compile(
    r"(?<![\w'’])(?:i|i'm|me|my|mine|myself|background|context|mir|mich|mein|meine|ich|"
    r"mí|mi|mis|mim|meu|minha|moi|mon|ma|mes|мне|меня|себе|мой|моя|мои|я)(?![\w'’])"
    r"|我|自分|私|僕",
    re.I,
)


def _asks(text: str) -> bool:
    """A request or a question, in English or another language."""
    return clause_verdict(tidy(text)) in ("question", "request") or is_aside(text)


def self_list(message: str) -> tuple[list[str], str]:
    """The items of the lists the writer makes of themselves, each with its heading, and the
    message without those lists."""
    lines = CODE_FENCE.sub("\n", message).split("\n")
    kept: list[str] = []
    rest: list[str] = []
    index = 0
    while index < len(lines):
        heading = _HEADING.match(lines[index].strip())
        end = index + 1
        while end < len(lines) and _ITEM.match(lines[end]):
            end += 1
        label = heading.group("heading") if heading else ""
        if (
            heading is None
            or end - index < 3  # two items at least
            or _ITEM.match(lines[index])
            or not _ABOUT_ME.search(label)
            or _asks(label)
        ):
            rest.append(lines[index])
            index += 1
            continue
        for line in lines[index + 1 : end]:
            item = _ITEM.match(line)
            if item and not is_aside(item.group("item")):
                kept.append(f"{label}: {item.group('item')}")
        index = end
    return kept, "\n".join(rest) if kept else message
