"""WhiteNoise, made to hand files to ASGI as an asynchronous iterator.

WhiteNoise answers with a FileResponse over a synchronous file iterator. Served through Django's
ASGI handler (`serve`, gunicorn's uvicorn workers), that makes Django warn "StreamingHttpResponse
must consume synchronous iterators in order to serve them asynchronously" and read the whole file
into a list in a worker thread. Under ASGI this hands over the same chunks asynchronously; under
WSGI (the test live server) the response is left as it is.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from whitenoise.middleware import WhiteNoiseMiddleware


def _next(iterator: Iterator[bytes]) -> bytes | None:
    return next(iterator, None)


async def _chunks(iterator: Iterator[bytes]) -> AsyncIterator[bytes]:
    read = sync_to_async(_next, thread_sensitive=False)
    while (chunk := await read(iterator)) is not None:
        yield chunk


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    def serve(self, static_file: Any, request: HttpRequest) -> HttpResponse:
        response = WhiteNoiseMiddleware.serve(static_file, request)
        if isinstance(request, ASGIRequest):
            response.streaming_content = _chunks(iter(response.streaming_content))
        return response
