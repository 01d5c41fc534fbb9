"""gunicorn for production: uvicorn workers serving the one ASGI app (Django + MCP).

Every worker is stateless (all state is in PostgreSQL), so WEB_CONCURRENCY scales with the cores
and more containers can sit behind a load balancer.
"""

import os

from contextlayer.process import GUNICORN, set_threads

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# One onnxruntime thread per worker: the workers already fill the cores, and per-worker pools of
# spin-waiting threads would steal CPU from each other (about half the embedding rate under load).
set_threads(GUNICORN)
worker_class = "uvicorn_worker.UvicornWorker"
# X-Forwarded-For/-Proto count only when they come from one of these addresses (your reverse
# proxy; comma-separated, default this machine). Anyone else's are ignored: a client inventing an
# address per request stays one address to the sign-in and registration limits and in the logs.
_proxies = os.environ.get("TRUSTED_PROXIES") or os.environ.get("FORWARDED_ALLOW_IPS") or ""
forwarded_allow_ips = (
    ",".join(p.strip() for p in _proxies.split(",") if p.strip()) or "127.0.0.1,::1"
)
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then so a slow leak cannot grow without bound.
max_requests = 2000
max_requests_jitter = 200
# Structured logs: one JSON object per line, like the app's own.
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "kernel.logging.JsonFormatter"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json"}},
    # gunicorn merges this over its defaults, whose root logger names a handler we replace.
    "root": {"handlers": ["stderr"], "level": "INFO"},
    "loggers": {
        "gunicorn.error": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "gunicorn.access": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "uvicorn.error": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}
accesslog = "-"
# No runtime control socket: the container's home is read-only and nothing uses it.
control_socket_disable = True
