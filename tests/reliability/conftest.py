"""The MCP server fixtures live with the MCP tests; reliability tests reuse them."""

from tests.mcpbridge.conftest import mcp_for, server_url  # noqa: F401
