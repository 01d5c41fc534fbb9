"""The REST entry point: the ninja routers of memories, categories and data transfer."""
