"""Connect a client: copyable MCP configuration for each client, and custom instructions."""

from __future__ import annotations

import json
import shlex
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from kernel import origin
from web.dashboard import DashboardRequest, dashboard_view

SERVER_NAME = "context-layer"
TOKEN_PLACEHOLDER = "YOUR_CLIENT_TOKEN"  # noqa: S105 (a placeholder the user replaces)
HTTP_CLIENT_GRANTS = gettext_lazy(
    "It may do what its token allows: a new token may read and write, not delete, unless you "
    "tick Delete memories when you create it (or later, with Edit on Connected apps)."
)

INSTRUCTIONS = """\
You have access to my personal memory through the Context Layer tools.
- At the start of a conversation, and whenever I mention a person, project, preference or plan, \
search my memory for what is relevant before you answer.
- When I tell you something durable about me (preferences, people, projects, decisions, \
routines), save it as a short, self-contained memory in my own words. One fact per memory.
- If something you remembered has changed, update that memory instead of adding a contradicting one.
- Never save passwords, secrets, one-time codes or other people's private data.
- Do not mention the memory tools unless I ask; just use what you know."""


@require_GET
@dashboard_view
def connect_page(request: DashboardRequest) -> HttpResponse:
    mcp_url = origin.mcp_url(origin.public_origin(request))
    email = getattr(request.user, "email", "")
    context = {
        "mcp_url": mcp_url,
        "token_placeholder": TOKEN_PLACEHOLDER,
        "clients": [_claude_desktop(email), *_http_clients(mcp_url)],
        "instructions": INSTRUCTIONS,
    }
    return render(request, "memories/connect.html", context)


def _claude_desktop(email: str) -> dict[str, Any]:
    """Claude Desktop starts the stdio server itself, as this user, from this project folder."""
    project_dir = str(settings.BASE_DIR)
    # A client starts the stdio server with its own environment: without the server's data
    # folder it would open (and create) another, empty embedded database.
    stdio_env = {} if settings.DATABASE_URL else {"CONTEXT_LAYER_HOME": str(settings.HOME)}
    stdio_args = ["run", "--directory", project_dir, "manage.py", "mcp", "--user", email]
    desktop = {
        "mcpServers": {
            SERVER_NAME: {
                "command": "uv",
                "args": [*stdio_args, "--app", "claude-desktop"],
                **({"env": stdio_env} if stdio_env else {}),
            }
        }
    }
    env_prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in stdio_env.items())
    stdio_shell = (
        f"cd {shlex.quote(project_dir)} && {env_prefix}uv run manage.py mcp "
        f"--user {shlex.quote(email)}"
    )
    return {
        "id": "claude-desktop",
        "name": "Claude Desktop",
        "where": _(
            "Settings → Developer → Edit Config (claude_desktop_config.json), then "
            "restart Claude Desktop. Runs on this machine over stdio; no token needed."
        )
        + " "
        + (
            _("It needs the server's DATABASE_URL in its env too.")
            if settings.DATABASE_URL
            else _("The env entry points it at this server's data folder.")
        ),
        "code": json.dumps(desktop, indent=2),
        "also": stdio_shell,
        "grants": _(
            "This app may read memories and add or change them, not delete them. "
            'To let it delete, add "--scopes", "read,write,delete" to its args; or, once '
            "it has connected, tick Delete memories for it on Connected apps (Edit)."
        ),
    }


def _http_clients(mcp_url: str) -> list[dict[str, Any]]:
    """Clients that reach `/mcp` over HTTP with a client token the user pastes in."""
    auth = f"Bearer {TOKEN_PLACEHOLDER}"
    cursor = {"mcpServers": {SERVER_NAME: {"url": mcp_url, "headers": {"Authorization": auth}}}}
    vscode = {
        "servers": {
            SERVER_NAME: {
                "type": "http",
                "url": mcp_url,
                "headers": {"Authorization": "Bearer ${input:context-layer-token}"},
            }
        },
        "inputs": [
            {
                "type": "promptString",
                "id": "context-layer-token",
                "description": "Context Layer client token",
                "password": True,
            }
        ],
    }
    claude_code = (
        f"claude mcp add --transport http {SERVER_NAME} {shlex.quote(mcp_url)} "
        f'--header "Authorization: {auth}"'
    )
    return [
        {
            "id": "claude-code",
            "name": "Claude Code",
            "where": _("Run in a terminal. Replace the token with one from Connected apps."),
            "code": claude_code,
            "wrap": True,
            "grants": HTTP_CLIENT_GRANTS,
        },
        {
            "id": "cursor",
            "name": "Cursor",
            "where": _(
                "~/.cursor/mcp.json (or .cursor/mcp.json in a project). Replace the token "
                "with one from Connected apps."
            ),
            "code": json.dumps(cursor, indent=2),
            "grants": HTTP_CLIENT_GRANTS,
        },
        {
            "id": "vscode",
            "name": "VS Code",
            "where": _(
                ".vscode/mcp.json in your workspace (or the user mcp.json). VS Code asks for "
                "the token once and stores it securely."
            ),
            "code": json.dumps(vscode, indent=2),
            "grants": HTTP_CLIENT_GRANTS,
        },
    ]
