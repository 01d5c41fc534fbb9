"""Fuzzing the MCP endpoint (`/mcp`) of the real ASGI app under uvicorn, over real HTTP.

Generated requests: random JSON, JSON-RPC with wrong versions, ids, methods and params, batches,
`tools/call` for every tool with garbage, huge or deeply nested arguments, undecodable bodies,
wrong HTTP methods, Content-Type, Accept, Origin, protocol-version and Authorization headers.

Property: never a 5xx; a 4xx is one of the statuses that name the problem; a 2xx carries a
JSON-RPC response (or is a 202 for a notification); a tool never crashes (the SDK would say
"Error executing tool": a 500 in disguise); and afterwards a valid call still works. Oversized
bodies get 413, on /mcp (declared or streamed) and in front of Django (API, import upload,
dashboard forms).

Budgets are fixed and derandomized (FUZZ_EXAMPLES scales them; FUZZ_TRACE=file logs each request
and answer). Prints
`fuzz[mcp]: examples=N uncaught=0 ...`.
"""

from __future__ import annotations

import inspect
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx2
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from accounts.models import User
from mcpbridge import server
from tests.personas import issue_token

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

SCALE = float(os.environ.get("FUZZ_EXAMPLES", "1"))
PROTOCOL = "2025-06-18"
TOOLS = [fn.__name__ for fn, *_ in server.TOOLS]
METHODS = [
    "initialize",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "ping",
    "notifications/initialized",
    "logging/setLevel",
    "completion/complete",
    "no/such/method",
    "",
]
# What a refusal may say: bad request, auth, scope/origin, no route, method, Accept, size, type.
REFUSALS = {400, 401, 403, 404, 405, 406, 413, 415, 422}
HANG_S = 30  # an answer slower than this on this small machine counts as a hang
GOOD_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}

TEXT = st.text(max_size=40) | st.sampled_from(
    [
        "",
        "\x00",
        "a\x00b",
        "\ud800 lone",
        "<script>alert(1)</script>",
        "😀" * 10,
        "' OR 1=1 --",
        "%s%n",
        "\u202e",
    ]
)
HUGE = st.sampled_from([5_000, 10_001, 200_000]).map(lambda n: "x" * n)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT
JUNK = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=10,
)
DEEP = st.integers(50, 3000).map(lambda n: json.loads("[" * n + "]" * n) if n < 900 else "deep")
VALUE = JUNK | HUGE | DEEP | st.uuids().map(str) | st.integers(-5, 200)
# Each tool's argument names, from its signature.
ARGS = {fn.__name__: list(inspect.signature(fn).parameters) for fn, *_ in server.TOOLS}


@st.composite
def tool_arguments(draw: st.DrawFn, tool: str) -> Any:
    """Mostly an object of the tool's own argument names (values of any type), else junk."""
    if draw(st.integers(0, 5)) == 0:
        return draw(JUNK)
    names = [*ARGS.get(tool, ["query"]), "extra"]
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    values: dict[str, Any] = {}
    for name in chosen:
        if name == "texts":
            values[name] = draw(st.lists(TEXT | HUGE, max_size=3) | VALUE)
        elif name == "confirm":
            values[name] = draw(st.booleans() | VALUE)
        else:
            values[name] = draw(TEXT | VALUE)
    return values


def often(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`good` four times in five: most messages get deep enough to reach a tool."""
    return st.integers(1, 5).flatmap(lambda k: bad if k == 5 else good)


ABSENT = object()  # a key left out of the message


@st.composite
def rpc_message(draw: st.DrawFn) -> Any:
    method = draw(often(st.just("tools/call"), st.sampled_from(METHODS) | TEXT))
    fields = {
        "jsonrpc": often(st.just("2.0"), st.sampled_from(["1.0", "3", 2.0, None, "", ABSENT])),
        "id": often(
            st.integers(0, 2**31) | st.uuids().map(str),
            st.integers()
            | TEXT
            | st.none()
            | st.floats(allow_nan=False)
            | st.just([1])
            | st.just(ABSENT),
        ),
        "method": often(st.just(method), st.just(ABSENT) | JUNK),
    }
    message = {k: v for k, v in ((k, draw(f)) for k, f in fields.items()) if v is not ABSENT}
    if method == "tools/call":
        tool = draw(often(st.sampled_from(TOOLS), st.just("no_such_tool") | TEXT))
        message["params"] = draw(
            often(st.just({"name": tool, "arguments": draw(tool_arguments(tool))}), JUNK)
        )
    elif draw(st.booleans()):
        message["params"] = draw(
            JUNK
            | st.just(
                {
                    "protocolVersion": PROTOCOL,
                    "capabilities": {},
                    "clientInfo": {"name": "fuzz", "version": "0"},
                }
            )
        )
    return message


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["rpc"] * 6 + ["batch", "junk", "bytes", "truncated", "deep"]))
    if kind == "rpc":
        return json.dumps(draw(rpc_message())).encode()
    if kind == "batch":
        return json.dumps(draw(st.lists(rpc_message(), max_size=4))).encode()
    if kind == "junk":
        return json.dumps(draw(JUNK)).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "truncated":
        data = json.dumps(draw(rpc_message())).encode()
        return data[: draw(st.integers(0, max(0, len(data) - 1)))]
    depth = draw(st.integers(100, 100_000))
    return (
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": '
        + b"[" * depth
        + b"]" * depth
        + b"}"
    )


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    if draw(st.booleans()):  # a well-behaved client's transport: only the JSON-RPC is hostile
        headers = {**GOOD_HEADERS, "mcp-protocol-version": PROTOCOL}
        return {"method": "POST", "headers": headers, "auth": "token", "body": draw(bodies())}
    headers = dict(GOOD_HEADERS)
    if draw(st.integers(0, 3)) == 0:
        headers["content-type"] = draw(
            st.sampled_from(
                [
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "",
                    "application/json, text/html",
                    "multipart/form-data; boundary=x",
                    "application/jsonx",
                    "APPLICATION/JSON",
                ]
            )
        )
    if draw(st.integers(0, 3)) == 0:
        headers["accept"] = draw(
            st.sampled_from(["application/json", "text/event-stream", "*/*", "text/html", "", "x"])
        )
    if draw(st.integers(0, 3)) == 0:
        headers["origin"] = draw(
            st.sampled_from(["https://evil.example", "null", "http://127.0.0.1:1", "x", "OWN"])
        )
    if draw(st.integers(0, 3)) == 0:
        headers["mcp-protocol-version"] = draw(
            st.sampled_from(["2025-03-26", PROTOCOL, "1999-01-01", "", "garbage"])
        )
    if draw(st.integers(0, 6)) == 0:
        headers["mcp-session-id"] = draw(st.sampled_from(["abc", "0" * 64, "x y"]))
    auth = draw(st.sampled_from(["token"] * 8 + ["none", "bad", "basic"]))
    return {
        "method": draw(
            st.sampled_from(["POST"] * 12 + ["GET", "DELETE", "PUT", "PATCH", "OPTIONS"])
        ),
        "headers": headers,
        "auth": auth,
        "body": draw(bodies()),
    }


@dataclass
class Tally:
    examples: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    uncaught: list[str] = field(default_factory=list)

    def report(self) -> None:
        codes = " ".join(f"{k}:{v}" for k, v in sorted(self.statuses.items()))
        print(f"fuzz[mcp]: examples={self.examples} uncaught={len(self.uncaught)} statuses={codes}")


@pytest.fixture
def token(owner: User, settings: Any) -> str:
    # The fuzzer sends far more than a client would per minute; the limit is tested apart.
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "mcp": "100000/m"}
    return issue_token(
        owner,
        name="Fuzzer",
        scopes=["memories:read", "memories:write", "memories:delete"],
    ).secret


@pytest.fixture
def http(server_url: str) -> Iterator[httpx2.Client]:
    with httpx2.Client(base_url=server_url, timeout=HANG_S) as client:
        yield client


def _problem(response: httpx2.Response) -> str | None:
    """What is wrong with this answer, if anything."""
    status = response.status_code
    if status >= 500:
        return f"{status}: {response.text[:300]}"
    if 400 <= status < 500:
        return None if status in REFUSALS else f"unexpected {status}: {response.text[:200]}"
    if status == 204 or status == 202:
        return None
    try:
        payload = response.json()
    except ValueError:
        return f"{status} with a non-JSON body: {response.text[:200]}"
    for reply in payload if isinstance(payload, list) else [payload]:
        if not isinstance(reply, dict) or reply.get("jsonrpc") != "2.0":
            return f"not a JSON-RPC response: {str(reply)[:200]}"
        if "result" not in reply and "error" not in reply:
            return f"neither result nor error: {str(reply)[:200]}"
        result = reply.get("result")
        if isinstance(result, dict) and result.get("isError"):
            text = " ".join(c.get("text", "") for c in result.get("content", []))
            # The SDK's whole text for a crash inside a tool (a deliberate ToolError, e.g. a bad
            # cursor, reads "Error executing tool <name>: <why>").
            if re.fullmatch(r"Error executing tool [^:]*", text.strip()):
                return f"tool crashed: {text[:200]}"
    return None


def _valid_call(http: httpx2.Client, token: str, tool: str, arguments: dict[str, Any]) -> Any:
    body = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
    response = http.post(
        "/mcp",
        json=body,
        headers={
            **GOOD_HEADERS,
            "authorization": f"Bearer {token}",
            "mcp-protocol-version": PROTOCOL,
        },
    )
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert not result.get("isError"), result
    return result["structuredContent"]


NUL_TEXT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "add_memory", "arguments": {"text": "a\x00b"}},
}
# Issue 24 item 9: a NUL in a category crashed the tool ("Error executing tool", an error log).
NUL_CATEGORY = {
    **NUL_TEXT,
    "params": {"name": "add_memory", "arguments": {"text": "Tea", "category": "\x00"}},
}
NUL_QUERY = {**NUL_TEXT, "params": {"name": "search_memory", "arguments": {"query": "a\x00"}}}


def test_mcp_endpoint_answers_malformed_input_with_protocol_errors_never_a_500(
    http: httpx2.Client, token: str, server_url: str
) -> None:
    tally = Tally()

    @settings(
        max_examples=max(1, int(300 * SCALE)),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )
    @given(request=requests())
    # Once hung for ever: GET opened an SSE stream the stateless server never wrote to.
    @example(request={"method": "GET", "headers": GOOD_HEADERS, "auth": "token", "body": b""})
    def run(request: dict[str, Any]) -> None:
        tally.examples += 1
        headers = dict(request["headers"])
        if headers.get("origin") == "OWN":
            headers["origin"] = server_url
        auth = {"token": f"Bearer {token}", "bad": "Bearer clt_nope", "basic": "Basic eDp5"}
        if request["auth"] in auth:
            headers["authorization"] = auth[request["auth"]]
        if os.environ.get("FUZZ_TRACE"):
            with open(os.environ["FUZZ_TRACE"], "a") as trace:
                trace.write(f"{request['method']} {headers} {request['body'][:300]!r}\n")
        try:
            response = http.request(
                request["method"], "/mcp", content=request["body"], headers=headers
            )
        except httpx2.TimeoutException:
            tally.uncaught.append(f"no answer within {HANG_S} s")
            raise
        if os.environ.get("FUZZ_TRACE"):
            with open(os.environ["FUZZ_TRACE"], "a") as trace:
                trace.write(f"  -> {response.status_code} {response.text[:200]}\n")
        tally.statuses[response.status_code] = tally.statuses.get(response.status_code, 0) + 1
        problem = _problem(response)
        if problem is not None:
            tally.uncaught.append(problem)
        assert problem is None, problem

    for call in (NUL_TEXT, NUL_CATEGORY, NUL_QUERY):
        body = json.dumps(call).encode()
        run = example(
            request={"method": "POST", "headers": GOOD_HEADERS, "auth": "token", "body": body}
        )(run)
    try:
        run()
    finally:
        tally.report()
    # The server still works: a valid write and a read of it.
    added = _valid_call(http, token, "add_memory", {"text": "Still answering after the fuzzer"})
    found = _valid_call(http, token, "get_memory", {"memory_id": added["memories"][0]["id"]})
    assert found["memory"]["text"] == "Still answering after the fuzzer"
    assert tally.uncaught == []
