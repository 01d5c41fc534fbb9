"""One JSON object per log line, so logs can be shipped and queried without parsing prose.

No query string is ever written: a search's `?q=` is memory text, and a client that wrongly puts
its token in `?access_token=` must not leave it in the logs. Every line goes through this
formatter (the app's LOGGING and gunicorn's logconfig_dict), so it is the one place that drops
them: from the server's access log line and from the request Django attaches to its own records.
"""

from __future__ import annotations

import json
import logging
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
