"""Read a JSON export one item at a time, so memory follows the largest item, not the file.

`json.loads` of a whole export builds every object at once: Python objects cost up to ~25x their
JSON (`{},` is 3 bytes, an empty dict 64), so 21 MB of empty objects took 535 MB, and a 1 GiB
export could take tens. Exports are a list of conversations (Claude, ChatGPT) or an object whose
`memories` list holds the items (ours); this reader walks that outer level itself and hands each
item to `json`'s C decoder on its own (`raw_decode` over a window of the text), so only one item
is ever built at a time. A window is decoded only while its text is under `max_item_bytes` and
holds at most `max_item_values` JSON values (counted, over-estimated, from its `,`, `{` and `[`
before decoding), which bounds what decoding one item can allocate.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import IO, Any, NoReturn

from memories.ingest.types import IngestError

_CHUNK = 1 << 20
_FIRST_WINDOW = 1024
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# JSON can only carry a NUL as this escape (a raw control character is invalid JSON).
_NUL_ESCAPE = "\\u0000"


class ItemReader:
    """The text of one document, read forward in chunks; the consumed part is dropped."""

    def __init__(
        self, stream: IO[bytes], name: str, *, max_item_bytes: int, max_item_values: int
    ) -> None:
        self.stream = stream
        self.name = name
        self.max_item_bytes = max_item_bytes
        self.max_item_values = max_item_values
        head = stream.read(4)
        try:
            encoding = json.detect_encoding(head)
            self.decoder = codecs.getincrementaldecoder(encoding)("strict")
        except LookupError:  # pragma: no cover - detect_encoding only names real codecs
            raise IngestError(f"{name} is not UTF-8 text, so not a JSON export.") from None
        self.text = ""
        self.pos = 0
        self._window = _FIRST_WINDOW
        self.eof = False
        self.lines_dropped = 0  # newlines in the text already dropped, for error positions
        self._append(head)

    # --- reading -------------------------------------------------------------------------

    def _append(self, data: bytes, final: bool = False) -> None:
        try:
            self.text += self.decoder.decode(data, final)
        except UnicodeDecodeError:
            raise IngestError(f"{self.name} is not UTF-8 text, so not a JSON export.") from None

    def _fill(self, at_least: int = _CHUNK) -> bool:
        """Read more; False at the end of the document."""
        if self.eof:
            return False
        if self.pos > _CHUNK:  # drop what was consumed
            self.lines_dropped += self.text.count("\n", 0, self.pos)
            self.text = self.text[self.pos :]
            self.pos = 0
        data = self.stream.read(max(at_least, _CHUNK))
        if not data:
            self.eof = True
            self._append(b"", final=True)
            return False
        self._append(data)
        return True

    def peek(self) -> str:
        """The next character that is not whitespace ('' at the end)."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self._fill():
                return ""

    def expect(self, char: str, what: str) -> None:
        if self.peek() != char:
            self.fail(f"expected {what}")
        self.pos += 1

    def value(self, where: str) -> Any:
        """Decode the next value from a window of the text that doubles while the value is
        incomplete: only the window is ever decoded, so one value's objects are all that is
        built, and the window stays within the item limits."""
        self.peek()
        window = self._window
        while True:
            while len(self.text) - self.pos < window and self._fill(at_least=window):
                pass  # a fill may drop consumed text; self.pos stays the value's start
            piece = self.text[self.pos : self.pos + window]
            whole = self.eof and self.pos + window >= len(self.text)  # all that is left
            if _values_at_most(piece) > self.max_item_values:
                raise IngestError(
                    f"{where} holds more than {self.max_item_values:,} JSON values "
                    "(IMPORT_MAX_ITEM_VALUES): refused."
                )
            try:
                value, end = _DECODER.raw_decode(piece)
            except json.JSONDecodeError as exc:
                if whole:
                    self._syntax_error(self.pos + exc.pos, exc.msg)
                window = self._grown(window, where)
                continue
            except RecursionError:
                raise IngestError(f"{self.name} is nested too deeply to be an export.") from None
            except ValueError as exc:  # e.g. an integer longer than Python's digit limit
                raise IngestError(f"{self.name} is not a usable JSON export ({exc}).") from None
            if end == len(piece) and not whole:  # a number may go on past the window
                window = self._grown(window, where)
                continue
            self.pos += end
            self._window = max(_FIRST_WINDOW, 2 * end)  # the next item is likely alike
            if _NUL_ESCAPE in piece[:end]:  # rare: only then is the item walked
                value = _without_nul(value)
            return value

    def _grown(self, window: int, where: str) -> int:
        if window >= self.max_item_bytes:
            raise IngestError(
                f"{where} is larger than {self.max_item_bytes:,} bytes "
                "(IMPORT_MAX_ITEM_BYTES): refused."
            )
        return min(2 * window, self.max_item_bytes)

    # --- the outer level -----------------------------------------------------------------

    def array_items(self, where: str) -> Iterator[tuple[str, Any]]:
        """The items of the array that starts here, one at a time, with their JSON paths."""
        self.expect("[", "a list")
        index = 0
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            item_where = f"{where}[{index}]"
            yield item_where, self.value(item_where)
            index += 1
            following = self.peek()
            if following == "]":
                self.pos += 1
                return
            self.expect(",", "',' or ']' between items")

    def object_members(self, where: str) -> Iterator[tuple[str, str]]:
        """The keys of the object that starts here; the caller reads each value."""
        self.expect("{", "an object")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            if self.peek() != '"':
                self.fail("expected a key")
            key = self.value(where)
            self.expect(":", "':' after a key")
            yield key, f"{where}.{key}"
            following = self.peek()
            if following == "}":
                self.pos += 1
                return
            self.expect(",", "',' or '}' between members")

    def finish(self) -> None:
        if self.peek() != "":
            self.fail("extra data after the export")

    # --- errors --------------------------------------------------------------------------

    def _position(self, pos: int) -> tuple[int, int]:
        line = self.lines_dropped + self.text.count("\n", 0, pos) + 1
        return line, pos - (self.text.rfind("\n", 0, pos) + 1) + 1

    def fail(self, problem: str) -> NoReturn:
        line, column = self._position(self.pos)
        raise IngestError(
            f"{self.name} is not valid JSON (line {line}, column {column}: {problem})."
        )

    def _syntax_error(self, pos: int, problem: str) -> NoReturn:
        line, column = self._position(pos)
        raise IngestError(
            f"{self.name} is not valid JSON (line {line}, column {column}: {problem})."
        ) from None


def _without_nul(value: Any) -> Any:
    """The item with every NUL character dropped from its strings, keys included: PostgreSQL
    text and jsonb cannot hold one, and a title or message carrying one failed its conversation
    (or the dry run, with the text in the error). Dropped the way memory text drops it
    (memories/text.py), so "a\\u0000b" is "ab". Iterative: items may nest deeply."""
    root: list[Any] = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        item = container[key]
        if isinstance(item, str):
            container[key] = item.replace("\x00", "")
        elif isinstance(item, list):
            stack.extend((item, i) for i in range(len(item)))
        elif isinstance(item, dict):
            cleaned = {k.replace("\x00", ""): v for k, v in item.items()}
            item.clear()
            item.update(cleaned)
            stack.extend((item, k) for k in item)
    return root[0]


def _values_at_most(text: str) -> int:
    """An upper bound on the JSON values in `text`: each value after the first follows a ','
    or opens with '{' or '[' (such characters inside strings only raise the estimate)."""
    return text.count(",") + text.count("{") + text.count("[") + 1
