"""Fact extraction and reconciliation in the LLM modes (EXTRACTION_MODE anthropic/openai/ollama).

mem0 provides only the LLM provider layer and the extraction prompt; it keeps no store of its own.
The ORM is the single source of truth: reconciliation (add / skip / supersede) is ours.
"""
