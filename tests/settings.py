"""Test settings: a private data folder and embedded cluster per test run, deleted at exit."""

import os
import tempfile
from pathlib import Path

os.environ["CONTEXT_LAYER_HOME"] = tempfile.mkdtemp(prefix="contextlayer-test-")
os.environ["EMBEDDED_DB_CLEANUP"] = "delete"
os.environ.pop("DATABASE_URL", None)  # tests always run on their own embedded cluster

from contextlayer.settings import *  # noqa: F403

# collectstatic (tests/servers.py) needs a folder; it exists, so WhiteNoise is quiet.
STATIC_ROOT = Path(os.environ["CONTEXT_LAYER_HOME"]) / "static"
STATIC_ROOT.mkdir(exist_ok=True)

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# allauth's rate-limit counters: per test process here (tests clear them between tests without a
# database); production shares them across workers through the database cache.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# No background sweep of the search cache in the test process: its tests run sweeps themselves
# and start the thread where they test it (tests/memories/search/test_sweep.py).
SEARCH_CACHE_SWEEP_SECONDS = 0

# Tests change apps and tokens in this process (often with a plain UPDATE) and expect the in-process
# server's next request to see it; the cache's bound across processes is tested against gunicorn
# with the default (tests/deploy/test_mcp_worker_state.py).
CREDENTIAL_CACHE_SECONDS = 0
