"""One JSON object per log line, so logs can be shipped and queried without parsing prose.

No query string is ever written: a search's `?q=` is memory text, and a client that wrongly puts
its token in `?access_token=` must not leave it in the logs. Every line goes through this
formatter (the app's LOGGING and gunicorn's logconfig_dict), so it is the one place that drops
them: from the server's access log line and from the request Django attaches to its own records.
Nor is an exception's text, but for the server's own plumbing: PostgreSQL's errors quote the
row or JSON they refused, and logs outlive an erase; the traceback and the type say enough.
"""

from __future__ import annotations

import json
import logging
import traceback
from datetime import UTC, datetime
from typing import Any

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}
# uvicorn's access line: '%s - "%s %s HTTP/%s" %d' (client, method, path?query, version, status).
_ACCESS_LOGGERS = frozenset({"uvicorn.access", "gunicorn.access"})
_ACCESS_PATH_ARG = 2


def without_query(target: str) -> str:
    return target.split("?", 1)[0]


def _message(record: logging.LogRecord) -> str:
    args = record.args
    if record.name in _ACCESS_LOGGERS and isinstance(args, tuple) and len(args) > _ACCESS_PATH_ARG:
        scrubbed = list(args)
        scrubbed[_ACCESS_PATH_ARG] = without_query(str(args[_ACCESS_PATH_ARG]))
        return str(record.msg) % tuple(scrubbed)
    return record.getMessage()


# Exceptions whose text says how the server's own plumbing failed (a connection, a socket, a
# setting), not what a request carried: their message stays in the log.
_PLUMBING = ("OperationalError", "InterfaceError", "ImproperlyConfigured", "TimeoutError")
_NOT_LOGGED = "(message not logged)"


def _content_free(exc: BaseException) -> traceback.TracebackException:
    """`exc`'s traceback, and those it was raised from, with each message left out unless the
    exception is about plumbing."""
    shown = traceback.TracebackException.from_exception(exc)
    pending, seen = [shown], set()
    while pending:
        part = pending.pop()
        if id(part) in seen:
            continue
        seen.add(id(part))
        kind = part.exc_type
        plumbing = kind is not None and (
            kind.__name__ in _PLUMBING or issubclass(kind, ConnectionError)
        )
        if not plumbing:
            setattr(part, "_str", _NOT_LOGGED)  # noqa: B010 - what format() prints
            part.__notes__ = None
        pending += [p for p in (part.__cause__, part.__context__) if p is not None]
        pending += list(getattr(part, "exceptions", None) or [])
    return shown


def _field(key: str, value: Any) -> Any:
    if key == "request" and hasattr(value, "method") and hasattr(value, "path"):
        return f"{value.method} {value.path}"  # Django's request: not its repr, which has the query
    return value


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": _message(record),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                payload[key] = _field(key, value)
        if record.exc_info:
            payload["exc"] = self.formatException(record.exc_info)
        return json.dumps(payload, default=str)

    def formatException(self, ei: Any) -> str:
        """The traceback (where, through which code) and each exception's type, never its text
        unless it is about the server's own plumbing: an exception may quote what the user sent
        (PostgreSQL quotes the JSON or the row it refused), and logs outlive an erase."""
        exc = ei[1]
        if exc is None:
            return super().formatException(ei)
        return "".join(_content_free(exc).format()).rstrip()
