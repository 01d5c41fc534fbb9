"""gunicorn for production: uvicorn workers serving the one ASGI app (Django + MCP).

Every worker is stateless (all state is in PostgreSQL), so WEB_CONCURRENCY scales with the cores
and more containers can sit behind a load balancer.
"""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# One onnxruntime thread per worker: the workers already fill the cores, and per-worker pools of
# spin-waiting threads would steal CPU from each other (about half the embedding rate under load).
os.environ.setdefault("EMBEDDING_THREADS", "1")
worker_class = "uvicorn_worker.UvicornWorker"
# Behind a reverse proxy: trust its X-Forwarded-* headers (restrict to the proxy's address).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")
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
    "formatters": {"json": {"()": "contextlayer.jsonlog.JsonFormatter"}},
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
