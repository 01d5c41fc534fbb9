"""MCP over Streamable HTTP at exactly `/mcp`, next to Django in one ASGI application.

This layer owns what the SDK's built-in auth cannot do for us: the resource URL may come from the
request (PUBLIC_URL unset in development), host and origin checks follow Django's settings, and a
bearer token becomes a `Credential` through `credentials.resolve_bearer` only. The SDK then serves
JSON-RPC statelessly, so any worker process can answer any request; a POST of one ordinary
request is answered in its own task (`mcpbridge.single_call`), the rest by the SDK's transport.

A client calling again within a second costs no trip to Django's thread before its tool runs:
its credential comes from this process's `CredentialCache` and its rate-limit counts from this
process's `Leases` (kernel/ratelimit.py), both refreshed in one trip when they run out.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import JSONRPCRequest
from starlette.datastructures import Headers
from starlette.types import Message, Receive, Scope, Send

from accounts.credentials import Credential, CredentialCache
from accounts.models import ALL_SCOPES
from kernel.gates import SCOPE_READ, SCOPE_WRITE
from kernel.middleware import RETRY_AFTER, UNAVAILABLE
from kernel.origin import (
    MCP_PATH,
    PRM_PATH,
    mcp_url,
    origin_of_headers,
    resource_metadata_url,
)
from kernel.ratelimit import Decision, Leases
from mcpbridge import single_call
from mcpbridge.server import (
    TOOLS,
    CallOutcome,
    MemoryServer,
    build_server,
    call_outcome,
    current_actor,
)

logger = logging.getLogger("contextlayer.mcp")

# What a client should ask for when it has no token yet (the `scope` of the 401 challenge).
CHALLENGE_SCOPES = (SCOPE_READ, SCOPE_WRITE)
# Tools that change memory, and the scope each needs (declared with the tool). An OAuth client
# calling one without that scope gets 403 insufficient_scope, so it can ask the user for more
# (step-up authorization). Read tools are left to the service layer: read is every grant's
# default, and a token without it gets the tool's own error.
TOOL_SCOPES = {t.fn.__name__: t.scope for t in TOOLS if not t.hints.read_only_hint}


def protected_resource_metadata(origin: str) -> dict[str, Any]:
    return {
        "resource": mcp_url(origin),
        "authorization_servers": [origin],
        "scopes_supported": list(ALL_SCOPES),
        "bearer_methods_supported": ["header"],
        "resource_name": "Context Layer",
    }


def _origin_allowed(origin: str | None, own_origin: str) -> bool:
    """Browsers send Origin; a page on another site must not drive the user's local server."""
    if not origin:
        return True  # not a browser (or a same-origin GET): nothing to rebind
    origin = origin.rstrip("/").lower()
    allowed = {own_origin.lower(), *(o.rstrip("/").lower() for o in settings.MCP_ALLOWED_ORIGINS)}
    return origin in allowed


def _bearer(headers: Headers) -> str | None:
    """The token from `Authorization: Bearer …`; never from the URL."""
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def _send_json(
    send: Send,
    status: int,
    body: dict[str, Any],
    extra: list[tuple[bytes, bytes]] = (),  # type: ignore[assignment]
) -> None:
    data = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(data)).encode()),
        (b"cache-control", b"no-store"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


_PREFLIGHT = [
    (b"access-control-allow-methods", b"POST, DELETE, OPTIONS"),
    (
        b"access-control-allow-headers",
        b"authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id",
    ),
    (b"access-control-max-age", b"600"),
]


def _with_cors(send: Send, origin: str) -> Send:
    """Let an allowed browser origin read the response (and the 401 challenge)."""
    extra = [
        (b"access-control-allow-origin", origin.encode("latin-1")),
        (b"access-control-expose-headers", b"mcp-session-id, www-authenticate"),
        (b"vary", b"origin"),
    ]

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped


def challenge(origin: str, error: str | None, description: str) -> str:
    """The WWW-Authenticate value that points a client at the protected resource metadata."""
    parts = []
    if error:
        parts.append(f'error="{error}"')
    parts.append(f'error_description="{description}"')
    parts.append(f'resource_metadata="{resource_metadata_url(origin)}"')
    parts.append(f'scope="{" ".join(CHALLENGE_SCOPES)}"')
    return "Bearer " + ", ".join(parts)


# This process's memory of bearer tokens and of its shares of the shared rate-limit counters.
_credentials = CredentialCache()
_leases = Leases()
_ALLOWED = Decision(allowed=True, retry_after=0)


def _counters(credential: Credential) -> list[tuple[str, str]]:
    """Requests are counted per connected app and per user (so minting many clients does not
    multiply the budget), in PostgreSQL, so every worker shares the counts."""
    return [("mcp", f"app:{credential.app.pk}"), ("mcp_user", f"user:{credential.user.pk}")]


def _admit_from_memory(raw: str | None, resource: str) -> tuple[Credential, Decision] | None:
    """The caller's credential, admitted, when this process can say so without the database."""
    credential = _credentials.get(raw, resource=resource) if raw is not None else None
    if credential is None or not _leases.take_local(_counters(credential)):
        return None
    return credential, _ALLOWED


def _admit(raw: str | None, resource: str) -> tuple[Credential, Decision] | None:
    """The caller's credential and its rate-limit decision; None for no or a bad token.

    One trip to Django's sync thread for both: each trip costs a connection health check.
    """
    if raw is None:
        return None
    close_old_connections()
    try:
        credential = _credentials.resolve(raw, resource=resource)
        if credential is None:
            return None
        return credential, _leases.take(_counters(credential))
    finally:
        close_old_connections()


class MCPHttpApp:
    """ASGI app for `/mcp` and `/.well-known/oauth-protected-resource*`."""

    def __init__(self, server: MemoryServer | None = None) -> None:
        self.server = server or build_server()
        self.inner = self._build_inner()

    def _build_inner(self) -> Any:
        """The SDK's app with a fresh session manager (each manager runs only once).

        Host and origin are checked here against Django's settings; the SDK's own check
        (localhost only by default) is switched off so it cannot disagree.
        """
        return self.server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            stateless_http=True,
            json_response=True,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        """The session manager's task group, held open by the outer ASGI app while serving.

        The embedding model and the category classifier are loaded first, so the first search
        or write does not pay for them; the search sweeper starts with the worker, so files a
        purge or erase elsewhere left go whether this worker searches or not.
        """
        from memories.search.index import start_sweeper
        from memories.warm import warm_up

        await sync_to_async(warm_up, thread_sensitive=True)()
        start_sweeper()
        # Everything loaded so far (Django, the SDK, the model) lives as long as the process:
        # moved out of the collector's sight, a full collection no longer walks it mid-request
        # (bench load, 50 clients, two paired runs with tool work off the thread-sensitive
        # thread: p99 189 and 290 ms with, 409 and 432 without; as shipped, noise hid it).
        gc.collect()
        gc.freeze()
        # A second lifespan in the same process (a restarted server, the test suite) needs its
        # own manager: the SDK refuses to run one twice.
        self.inner = self._build_inner()
        async with self.server.session_manager.run():
            yield

    @staticmethod
    def handles(path: str) -> bool:
        return path in (MCP_PATH, PRM_PATH) or path.startswith(PRM_PATH + "/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        origin = origin_of_headers(headers, scope.get("scheme", "http"))
        if origin is None:
            await _send_json(
                send, 400, {"error": "invalid_request", "error_description": "Bad Host"}
            )
            return
        if scope["path"] != MCP_PATH:
            await self._metadata(scope, send, origin)  # public, any origin may read it
            return
        browser = headers.get("origin")
        if not _origin_allowed(browser, origin):
            await _send_json(send, 403, {"error": "forbidden", "error_description": "Bad Origin"})
            return
        if browser:
            send = _with_cors(send, browser)
        if scope["method"] == "OPTIONS":  # a browser's preflight carries no token
            await send({"type": "http.response.start", "status": 204, "headers": _PREFLIGHT})
            await send({"type": "http.response.body", "body": b""})
            return
        if scope["method"] not in ("POST", "DELETE"):
            # Stateless: the server never speaks first, so it offers no GET stream (the spec's
            # 405). Answering GET with SSE would hold the connection open forever, doing nothing.
            await _send_json(
                send,
                405,
                {"error": "method_not_allowed", "error_description": "Use POST."},
                [(b"allow", b"POST, DELETE, OPTIONS")],
            )
            return
        if _declared_length(headers) > settings.MCP_MAX_BODY_BYTES:
            await _too_large(send)  # refused before reading a byte of it
            return
        await self._mcp(scope, receive, send, headers, origin)

    async def _metadata(self, scope: Scope, send: Send, origin: str) -> None:
        cors = [
            (b"access-control-allow-origin", b"*"),
            (b"access-control-allow-methods", b"GET, OPTIONS"),
        ]
        if scope["path"] not in (PRM_PATH, PRM_PATH + MCP_PATH):
            await _send_json(send, 404, {"error": "not_found"})
        elif scope["method"] == "OPTIONS":
            await send({"type": "http.response.start", "status": 204, "headers": cors})
            await send({"type": "http.response.body", "body": b""})
        elif scope["method"] != "GET":
            await _send_json(send, 405, {"error": "method_not_allowed"})
        else:
            await _send_json(send, 200, protected_resource_metadata(origin), cors)

    async def _mcp(
        self, scope: Scope, receive: Receive, send: Send, headers: Headers, origin: str
    ) -> None:
        """Admit the caller, read a POST's body once, check its scope, then run the call."""
        raw = _bearer(headers)
        credential = await _admitted(send, raw, origin)
        if credential is None:
            return
        single = None
        if scope["method"] == "POST":
            buffered = await _buffer(receive, settings.MCP_MAX_BODY_BYTES)
            if buffered is None:  # no (or a false) Content-Length, and more bytes than allowed
                await _too_large(send)
                return
            body, receive = buffered
            single = single_call.single_request(self.server.session_manager, scope, body)
            if credential.kind == "oauth" and await _refused_step_up(
                send, body, credential, origin
            ):
                return
        access = _access_token(credential, raw, origin)
        await self._serve(scope, receive, send, credential, access, single)

    async def _serve(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        credential: Credential,
        access: AccessToken,
        single: JSONRPCRequest | None,
    ) -> None:
        """Run the call as this caller: the actor, the SDK's auth context and the outcome a
        refused tool reports are set for its task, and reset after it."""
        actor_token = current_actor.set(credential.actor)
        auth_token = auth_context_var.set(AuthenticatedUser(access))
        outcome = CallOutcome()
        outcome_token = call_outcome.set(outcome)
        try:
            throttled = _throttled(send, outcome)
            if single is not None:
                await single_call.answer(
                    self.server.session_manager, single, scope, receive, throttled
                )
            else:
                await self.inner(scope, receive, throttled)
        finally:
            call_outcome.reset(outcome_token)
            auth_context_var.reset(auth_token)
            current_actor.reset(actor_token)


async def _admitted(send: Send, raw: str | None, origin: str) -> Credential | None:
    """The caller's credential, admitted; None once its refusal (503, 401 or 429) is sent."""
    resource = mcp_url(origin)
    try:
        admitted = _admit_from_memory(raw, resource) or await sync_to_async(
            _admit, thread_sensitive=True
        )(raw, resource)
    except (OperationalError, InterfaceError) as exc:
        # PostgreSQL is down: answer at once, as a JSON-RPC error an MCP client shows,
        # instead of letting the exception escape the ASGI app as a bare 500.
        logger.warning("database unavailable", extra={"path": MCP_PATH, "error": str(exc)[:200]})
        await _send_json(
            send,
            503,
            {"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": UNAVAILABLE}},
            [(b"retry-after", RETRY_AFTER.encode())],
        )
        return None
    if admitted is None:
        await _unauthorized(send, raw, origin)
        return None
    credential, decision = admitted
    if not decision.allowed:
        await _send_json(
            send,
            429,
            {
                "error": "rate_limited",
                "error_description": f"Too many requests; retry in {decision.retry_after} s.",
            },
            [(b"retry-after", str(decision.retry_after).encode())],
        )
        return None
    return credential


async def _unauthorized(send: Send, raw: str | None, origin: str) -> None:
    """The 401 with the challenge that sends a client to the authorization server."""
    if raw is not None:  # a client token's shown prefix at most; never the secret
        shown = raw[:12] if raw.startswith("clt_") else ""
        logger.info("mcp token refused", extra={"token_prefix": shown})
    error = None if raw is None else "invalid_token"
    text = "Authentication required" if raw is None else "The token is invalid or revoked"
    header = challenge(origin, error, text).encode()
    await _send_json(
        send,
        401,
        {"error": error or "unauthorized", "error_description": text},
        [(b"www-authenticate", header)],
    )


async def _refused_step_up(send: Send, body: bytes, credential: Credential, origin: str) -> bool:
    """Whether a tools/call in `body` needs a scope this OAuth app lacks; if so the 403 that
    lets the client ask the user for it (step-up authorization) is sent."""
    missing = _missing_scope(body, credential.actor().scopes)
    if missing is None:
        return False
    wanted = " ".join(sorted({*CHALLENGE_SCOPES, *credential.scopes, missing}))
    step_up = (
        f'Bearer error="insufficient_scope", scope="{wanted}", '
        f'resource_metadata="{resource_metadata_url(origin)}", '
        f'error_description="This app was not granted {missing}"'
    )
    await _send_json(
        send,
        403,
        {"error": "insufficient_scope", "error_description": f"needs {missing}"},
        [(b"www-authenticate", step_up.encode())],
    )
    return True


def _access_token(credential: Credential, raw: str | None, origin: str) -> AccessToken:
    """The SDK's view of the caller, which its tools read through the auth context."""
    return AccessToken(
        token=raw or "",
        client_id=credential.token_id or str(credential.app.pk),
        scopes=sorted(credential.scopes),
        expires_at=int(credential.expires_at.timestamp()) if credential.expires_at else None,
        resource=mcp_url(origin),
        subject=str(credential.user.pk),
    )


def _throttled(send: Send, outcome: CallOutcome) -> Send:
    """A tool refused for a rate or budget (the app's write budget) makes the answer a 429 with
    Retry-After, its body a JSON-RPC error carrying the reason: the SDK clients surface the error
    of a non-2xx answer (a tool result there would be lost behind "Server returned an error")."""
    held: list[Message] = []
    body = b""

    async def wrapped(message: Message) -> None:
        nonlocal body
        if outcome.retry_after is None:
            await send(message)
            return
        if message["type"] == "http.response.start":
            held.append(message)
            return
        body += message.get("body", b"")
        if message.get("more_body"):
            return
        refused = _refused_body(body, outcome)
        headers = [
            (k, v)
            for k, v in (held[0].get("headers", []) if held else [])
            if k.lower() not in (b"content-length", b"retry-after")
        ]
        headers += [
            (b"content-length", str(len(refused)).encode()),
            (b"retry-after", str(outcome.retry_after).encode()),
        ]
        start = held[0] if held else {"type": "http.response.start"}
        await send({**start, "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": refused})

    return wrapped


def _refused_body(body: bytes, outcome: CallOutcome) -> bytes:
    """The JSON-RPC answer of a refused call, as an error with the reason and the wait."""
    try:
        reply = json.loads(body)
    except ValueError:
        return body
    if not isinstance(reply, dict) or "result" not in reply:
        return body  # a batch: the status and Retry-After say it
    error = {
        "code": -32000,
        "message": outcome.message,
        "data": {"retry_after": outcome.retry_after},
    }
    return json.dumps({"jsonrpc": "2.0", "id": reply.get("id"), "error": error}).encode()


def _declared_length(headers: Headers) -> int:
    try:
        return int(headers.get("content-length", "0"))
    except ValueError:
        return 0


async def _too_large(send: Send) -> None:
    await _send_json(
        send,
        413,
        {
            "error": "too_large",
            "error_description": (
                f"The request body is over {settings.MCP_MAX_BODY_BYTES:,} bytes "
                "(MCP_MAX_BODY_BYTES); send fewer or shorter memories per call."
            ),
        },
    )


async def _buffer(receive: Receive, limit: int) -> tuple[bytes, Receive] | None:
    """Read the request body (bounded: None past `limit` bytes, to look at the JSON-RPC call)
    and give the app a receive that replays it."""
    chunks: list[bytes] = []
    size = 0
    more = True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            return None
        more = bool(message.get("more_body"))
    body = b"".join(chunks)
    replayed = False

    async def replay() -> Any:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return body, replay


def _missing_scope(body: bytes, granted: frozenset[str]) -> str | None:
    """The scope a tools/call in this JSON-RPC body needs and the caller lacks, if any."""
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    for msg in payload if isinstance(payload, list) else [payload]:
        if not isinstance(msg, dict) or msg.get("method") != "tools/call":
            continue
        params = msg.get("params")
        name = params.get("name") if isinstance(params, dict) else None
        needed = TOOL_SCOPES.get(name) if isinstance(name, str) else None
        if needed is not None and needed not in granted:
            return needed
    return None
