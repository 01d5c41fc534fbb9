from django.apps import AppConfig


class McpbridgeConfig(AppConfig):
    name = "mcpbridge"
    verbose_name = "MCP bridge"
