"""Doctor checks of the MCP endpoint itself, with the MCP SDK's own client and a client token:
both protocol versions clients speak today, and every tool's annotation hints."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import anyio
import httpx
import httpx2
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client

from doctor.report import FAIL, OK, Report

HINTS = ("read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint")
# The SDK's mode → the version a connector negotiates with it.
VERSIONS = (("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28"))


def hint_problems(tools: Iterable[Any]) -> list[str]:
    """Tools that leave an annotation hint unset (ChatGPT refuses such an app)."""
    problems = []
    for tool in tools:
        hints = tool.annotations.model_dump() if tool.annotations else {}
        missing = [h for h in HINTS if hints.get(h) is None]
        if missing:
            problems.append(f"{tool.name} ({', '.join(missing)})")
    return problems


def report_hints(tools: list[Any], report: Report, where: str) -> None:
    problems = hint_problems(tools)
    if problems:
        report.add(
            FAIL,
            f"tools without explicit annotation hints {where}: {'; '.join(problems)}; ChatGPT "
            "refuses the app (state every hint in mcpbridge/server.py)",
        )
    else:
        report.add(OK, f"{len(tools)} tools state all four annotation hints {where}")


async def _session(mcp_url: str, token: str, mode: str) -> tuple[str, list[Any]]:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(mcp_url, http_client=http), mode=mode) as c,
    ):
        listed = await c.list_tools()
        return c.protocol_version, list(listed.tools)


def check_mcp(client: httpx.Client, mcp_url: str, token: str, report: Report) -> None:
    """Connect as a 2025-11-25 client (initialize) and as a 2026-07-28 one (server/discover)."""
    for mode, version in VERSIONS:
        try:
            negotiated, tools = anyio.run(_session, mcp_url, token, mode)
        except Exception as exc:  # any failure is the finding: the client could not connect
            report.add(
                FAIL,
                f"MCP {version}: the SDK client could not connect with the token "
                f"({exc.__class__.__name__}: {str(exc)[:120]})",
            )
            continue
        if negotiated != version:
            report.add(FAIL, f"MCP {version}: the server negotiated {negotiated} instead")
            continue
        report.add(OK, f"MCP {version}: connected, {len(tools)} tools")
        report_hints(tools, report, f"over {version}")
