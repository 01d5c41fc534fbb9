"""gunicorn.conf.py as shipped, plus one hook for `bench hosted`: each worker counts where its
searches' indexes came from (bench/hosted.py, `count_searches`). Not for production."""

import os
import runpy

_shipped = runpy.run_path(os.path.join(os.path.dirname(__file__), "..", "gunicorn.conf.py"))
globals().update({k: v for k, v in _shipped.items() if not k.startswith("__")})


def post_worker_init(worker):  # type: ignore[no-untyped-def]
    from bench.hosted import count_searches

    count_searches(os.environ["BENCH_HOSTED_COUNTS"])
