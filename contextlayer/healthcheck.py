"""Container health probe: GET /health on the local server, as the public host over "https".

Standard library only (no Django import), so it is cheap enough to run every few seconds. The
Host and X-Forwarded-Proto headers match what the proxy sends, so ALLOWED_HOSTS and the HTTPS
redirect treat the probe like a real request.
"""

from __future__ import annotations

import os
import sys
import urllib.request
from urllib.parse import urlsplit


def main() -> int:
    port = os.environ.get("PORT", "8000")
    host = urlsplit(os.environ.get("PUBLIC_URL", "")).netloc or "localhost"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/health",
        headers={"Host": host, "X-Forwarded-Proto": "https"},
    )
    try:
        with urllib.request.urlopen(request, timeout=4) as response:  # noqa: S310
            return 0 if response.status == 200 else 1
    except OSError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
