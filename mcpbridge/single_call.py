"""One JSON-RPC request of a handshake-era stateless POST, answered in the request's own task.

For every such POST the SDK's stateless JSON mode builds a transport, two memory streams, a
dispatcher and a server task, starts that task in the session manager's task group, hands it the
one message and carries its answer back (`StreamableHTTPSessionManager._handle_stateless_request`).
Here the same request goes to the same kernel the SDK's single-exchange entry uses
(`mcp.server.runner.serve_one`) with the same born-ready `Connection` the stateless transport
makes, and the answer is written as that transport writes it: same status, headers and bytes,
errors mapped by the same rule as its dispatcher (tests/mcpbridge/test_single_call.py sends every
kind of request both ways and compares). Only a POST whose headers pass the transport's checks and
whose body is one request other than `initialize` takes this path; everything else (notifications,
responses, batches, `initialize`, a header or body the SDK refuses, a 2026-era protocol version)
is handed to the SDK unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import pydantic_core
from mcp.server.connection import Connection
from mcp.server.runner import serve_one
from mcp.server.streamable_http import check_accept_headers
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.dispatcher import CallOptions
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.jsonrpc_dispatcher import handler_exception_to_error_data
from mcp.shared.message import MessageMetadata, ServerMessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import (
    DEFAULT_NEGOTIATED_VERSION,
    ErrorData,
    JSONRPCError,
    JSONRPCRequest,
    JSONRPCResponse,
    RequestId,
    jsonrpc_message_adapter,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

logger = logging.getLogger(__name__)

_JSON = "application/json"


@dataclass
class _Exchange:
    """The `DispatchContext` of one request whose answer is the HTTP response: no channel back to
    the client (a JSON body carries only the answer), notifications dropped, as the SDK's
    stateless JSON transport drops them."""

    transport: TransportContext
    request_id: RequestId
    message_metadata: MessageMetadata
    cancel_requested: anyio.Event = field(default_factory=anyio.Event)
    can_send_request: bool = field(default=False, init=False)

    async def send_raw_request(
        self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None
    ) -> dict[str, Any]:
        raise NoBackChannelError(method)

    async def notify(
        self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None
    ) -> None:
        return None

    async def progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        return None


def protocol_version(scope: Scope) -> str | None:
    for name, value in scope["headers"]:
        if name == b"mcp-protocol-version":
            return str(value.decode("latin-1"))
    return None


def single_request(
    manager: StreamableHTTPSessionManager, scope: Scope, body: bytes
) -> JSONRPCRequest | None:
    """The one request this POST carries, if it takes this path (see the module docstring)."""
    version = protocol_version(scope)
    if scope["method"] != "POST" or not (manager.stateless and manager.json_response):
        return None
    if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
        return None  # the SDK's 2026-era entry (or its refusal of an unknown version)
    if len(body) > manager.max_request_body_size:
        return None
    request = Request(scope)
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith(_JSON):  # the SDK's transport security check
        return None
    if _JSON not in (part.strip() for part in content_type.split(";")[0].split(",")):
        return None  # the transport's own Content-Type check
    if not check_accept_headers(request)[0]:
        return None
    try:
        message = jsonrpc_message_adapter.validate_python(
            pydantic_core.from_json(body), by_name=False
        )
    except (ValueError, ValidationError):
        return None
    if not isinstance(message, JSONRPCRequest) or message.method == "initialize":
        return None
    return message


async def answer(
    manager: StreamableHTTPSessionManager,
    message: JSONRPCRequest,
    scope: Scope,
    receive: Receive,
    send: Send,
) -> None:
    """Run the request through the server's handlers and write the answer as the SDK does."""
    connection = Connection.from_envelope(
        protocol_version(scope) or DEFAULT_NEGOTIATED_VERSION, None, None
    )
    exchange = _Exchange(
        transport=TransportContext(kind="streamable-http", can_send_request=False),
        request_id=message.id,
        message_metadata=ServerMessageMetadata(
            request_context=Request(scope, receive), can_send_request=False
        ),
    )
    reply: JSONRPCResponse | JSONRPCError
    try:
        result = await serve_one(
            manager.app,
            exchange,
            message.method,
            message.params,
            connection=connection,
            # The lifespan state the manager entered once for the process (the SDK's stateless
            # path hands every request the same value).
            lifespan_state=manager._lifespan_state,
        )
        reply = JSONRPCResponse(jsonrpc="2.0", id=message.id, result=result)
    except Exception as exc:
        # The SDK dispatcher's rule: MCPError and ValidationError map to their codes, anything
        # else is logged and answered with code 0 and its message.
        error = handler_exception_to_error_data(exc)
        if error is None:
            logger.exception("handler for %r raised", message.method)
            error = ErrorData(code=0, message=str(exc))
        reply = JSONRPCError(jsonrpc="2.0", id=message.id, error=error)
    response = Response(
        reply.model_dump_json(by_alias=True, exclude_unset=True),
        status_code=200,
        headers={"Content-Type": _JSON},
    )
    await response(scope, receive, send)
