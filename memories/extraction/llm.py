"""The LLM client, built from settings through mem0's provider factory, and one JSON call to it.

Every failure (client package missing, network down, timeout, an answer that is not JSON) becomes
`LLMUnavailable`, so the caller can fall back to storing the raw text.
"""

from __future__ import annotations

import json
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

# The setting that carries LLM_BASE_URL for each built-in provider's mem0 config.
_BASE_URL_FIELD = {
    "openai": "openai_base_url",
    "anthropic": "anthropic_base_url",
    "ollama": "ollama_base_url",
}
_EXTRA = {"anthropic": "anthropic", "ollama": "ollama"}

_cache: dict[tuple[Any, ...], Any] = {}
_cache_lock = threading.Lock()
# LLM calls run here so a hung provider cannot hold the request past LLM_TIMEOUT.
_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="llm")


class LLMUnavailable(Exception):
    """The model could not be used for this request; the message says why, for the caller."""


def _build(mode: str) -> Any:
    from mem0.utils.factory import LlmFactory

    config: dict[str, Any] = {"temperature": 0.0}
    if settings.LLM_MODEL:
        config["model"] = settings.LLM_MODEL
    if settings.LLM_API_KEY:
        config["api_key"] = settings.LLM_API_KEY
    if settings.LLM_BASE_URL and mode in _BASE_URL_FIELD:
        config[_BASE_URL_FIELD[mode]] = settings.LLM_BASE_URL
    try:
        llm = LlmFactory.create(mode, config)
    except ImportError as exc:
        extra = _EXTRA.get(mode, mode)
        raise LLMUnavailable(
            f"The {mode} client package is not installed (uv sync --extra {extra})."
        ) from exc
    except Exception as exc:  # a provider refusing its config (e.g. no API key)
        raise LLMUnavailable(f"The {mode} client could not be set up: {exc}") from exc
    client = getattr(llm, "client", None)
    # The SDKs default to minutes and retries; a write should fall back within LLM_TIMEOUT.
    if hasattr(client, "with_options"):
        llm.client = client.with_options(timeout=settings.LLM_TIMEOUT, max_retries=0)  # type: ignore[union-attr]
    elif mode == "ollama":
        from ollama import Client

        llm.client = Client(host=settings.LLM_BASE_URL or None, timeout=settings.LLM_TIMEOUT)
    return llm


def get_llm() -> Any:
    """The configured provider's mem0 LLM, built once per configuration."""
    mode = settings.EXTRACTION_MODE
    if mode == "none":
        raise LLMUnavailable("EXTRACTION_MODE is none.")
    key = (
        mode,
        settings.LLM_MODEL,
        settings.LLM_API_KEY,
        settings.LLM_BASE_URL,
        settings.LLM_TIMEOUT,
    )
    with _cache_lock:
        if key not in _cache:
            _cache[key] = _build(mode)
        return _cache[key]


def parse_json_object(raw: object) -> dict[str, Any]:
    """The JSON object in a model's answer (code fences and chatter around it are tolerated)."""
    from mem0.memory.utils import extract_json

    if not isinstance(raw, str):
        raise LLMUnavailable("The model returned no text.")
    try:
        value = json.loads(extract_json(raw))
    except (ValueError, TypeError):
        raise LLMUnavailable("The model's answer was not valid JSON.") from None
    if not isinstance(value, dict):
        raise LLMUnavailable("The model's answer was not a JSON object.")
    return value


def ask_json(system: str, user: str) -> dict[str, Any]:
    """One chat completion that must answer a JSON object."""
    llm = get_llm()
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    future = _pool.submit(
        llm.generate_response, messages=messages, response_format={"type": "json_object"}
    )
    try:
        raw = future.result(timeout=settings.LLM_TIMEOUT + 1)
    except FutureTimeout:
        raise LLMUnavailable(f"The model did not answer within {settings.LLM_TIMEOUT}s.") from None
    except LLMUnavailable:
        raise
    except Exception as exc:
        logger.warning("llm call failed", extra={"error": type(exc).__name__})
        raise LLMUnavailable(f"The model could not be reached ({type(exc).__name__}).") from exc
    return parse_json_object(raw)


def llm_configured() -> bool:
    """Whether EXTRACTION_MODE names an LLM (imports offer it; the Review page expects its work)."""
    return bool(settings.EXTRACTION_MODE != "none")
