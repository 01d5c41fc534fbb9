"""A deterministic LLM for the extraction tests, plugged in through mem0's provider interface
(`LlmFactory.register_provider`), and the same brain behind an OpenAI-compatible HTTP stub on
loopback so mem0's real `openai` provider is exercised too. No network.

The brain checks what it is asked: it answers only about the memories listed in the prompt, and
records every prompt so a test can assert what the model saw.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from mem0.configs.prompts import USER_MEMORY_EXTRACTION_PROMPT
from mem0.llms.base import LLMBase

from memories.extraction.prompts import RECONCILE_SYSTEM


class LLMDown(ConnectionError):
    pass


@dataclass
class Brain:
    # substring of the conversation -> facts the model extracts
    facts: dict[str, list[str]] = field(default_factory=dict)
    # (substring of a new fact, substring of an existing memory, reason): supersede it
    supersede: list[tuple[str, str, str]] = field(default_factory=list)
    # (substring of a new fact, substring of an existing memory): already known, skip
    skip: list[tuple[str, str]] = field(default_factory=list)
    rogue_id: str | None = None  # answer with this id instead of one it was given
    mode: str = "ok"  # ok | down | garbage | slow
    extraction_prompts: list[list[dict[str, str]]] = field(default_factory=list)
    reconcile_payloads: list[dict[str, Any]] = field(default_factory=list)

    def respond(self, messages: list[dict[str, str]]) -> str:
        if self.mode == "down":
            raise LLMDown("connection refused")
        if self.mode == "garbage":
            return "Sure! The user seems to like tea, I guess."
        if self.mode == "slow":
            time.sleep(5)
        system = messages[0]["content"]
        if system == USER_MEMORY_EXTRACTION_PROMPT:
            self.extraction_prompts.append(messages)
            return self._extract(messages[1]["content"])
        if system == RECONCILE_SYSTEM:
            return self._reconcile(messages[1]["content"])
        raise AssertionError(f"unexpected prompt: {system[:80]!r}")

    def _extract(self, conversation: str) -> str:
        assert conversation.startswith("Input:\n")
        user_lines = "\n".join(
            line for line in conversation.splitlines() if not line.startswith("assistant:")
        )
        out: list[str] = []
        for trigger, facts in self.facts.items():
            if trigger in user_lines:
                out.extend(facts)
        return json.dumps({"facts": out})

    def _reconcile(self, prompt: str) -> str:
        match = re.search(r"```json\n(.*)\n```", prompt, re.DOTALL)
        assert match, "the reconciliation prompt carries its cases as JSON"
        payload = json.loads(match.group(1))
        self.reconcile_payloads.append(payload)
        decisions = []
        for fact in payload["facts"]:
            shown = fact["existing_memories"]
            decision: dict[str, str] = {"fact": fact["id"], "action": "add"}
            for new, old in self.skip:
                for memory in shown:
                    if new in fact["text"] and old in memory["text"]:
                        decision = {
                            "fact": fact["id"],
                            "action": "skip",
                            "memory": memory["id"],
                            "reason": "Already known.",
                        }
            for new, old, reason in self.supersede:
                for memory in shown:
                    if new in fact["text"] and old in memory["text"]:
                        decision = {
                            "fact": fact["id"],
                            "action": "supersede",
                            "memory": memory["id"],
                            "reason": reason,
                        }
            if self.rogue_id and decision["action"] != "add":
                decision["memory"] = self.rogue_id
            decisions.append(decision)
        return "```json\n" + json.dumps({"decisions": decisions}) + "\n```"


BRAIN = Brain()


class FakeLLM(LLMBase):
    """mem0 provider: the brain answers; nothing leaves the process."""

    def generate_response(
        self,
        messages: list[dict[str, str]],
        response_format: Any = None,
        tools: Any = None,
        tool_choice: str = "auto",
        **kwargs: Any,
    ) -> str:
        return BRAIN.respond(messages)


class StubServer:
    """An OpenAI-compatible /v1/chat/completions on 127.0.0.1, answered by the brain."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(
                    {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
                )
                if self.path != "/v1/chat/completions":
                    self._send(404, {"error": {"message": "not found"}})
                    return
                try:
                    content = BRAIN.respond(body["messages"])
                except LLMDown:
                    self._send(503, {"error": {"message": "overloaded", "type": "server_error"}})
                    return
                self._send(
                    200,
                    {
                        "id": "chatcmpl-stub",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": content},
                            }
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

            def _send(self, status: int, doc: dict[str, Any]) -> None:
                data = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                # The client may have given up waiting (the timeout test).
                with contextlib.suppress(BrokenPipeError):
                    self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> StubServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
