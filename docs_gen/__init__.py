"""Generators of the documentation site's reference pages (`uv run python -m docs_gen`).

They read the code itself (the settings' environment reads, the MCP server's tools, the ninja
OpenAPI schema), so the pages cannot drift from it: tests/docs_gen compares the committed pages
with a fresh run. Kept outside the apps: each generator imports app code in one place.
"""
