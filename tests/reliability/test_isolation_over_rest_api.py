"""Isolation through the REST API, with a client token and with the signed-in session (the
property: tests/reliability/isolation_doors.py)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.personas import issue_token, signed_in
from tests.reliability.isolation_doors import (
    EntryPoint,
    Target,
    World,
    in_process,
    run_entry_point,
    through_an_entry_point,
)
from tests.reliability.observations import http_answer

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.usefixtures("quiet_audit_log"),
]


class ApiEntryPoint(EntryPoint):
    """Memory routes alternate between a client token and the signed-in session; export and
    apps are owner-only, so they go through the session."""

    name = "api"

    def __init__(self, world: World) -> None:
        self.tokens, self.sessions = [], []
        for user in world.users:
            issued = issue_token(
                user,
                name="script",
                scopes=["read", "write", "delete"],
            )
            self.tokens.append(Client(headers={"Authorization": f"Bearer {issued.secret}"}))
            session = signed_in(user)
            self.sessions.append(session)

    def add(self, who: int, text: str) -> bytes:
        response = self.sessions[who].post(
            "/api/v1/memories", {"text": text}, content_type="application/json"
        )
        assert response.status_code in (200, 201), response.content  # 200: an echo repeated
        return http_answer(response)

    def by_id(self, who: int, op: str, target: Target, step: int) -> bytes | None:
        c = self.tokens[who] if step % 2 else self.sessions[who]
        url = f"/api/v1/memories/{target.memory_id}"
        j = "application/json"
        if op == "get":
            r = c.get(url)
        elif op == "update":
            r = c.patch(url, {"text": target.text, "reason": "adversary"}, content_type=j)
        elif op == "delete":
            r = c.delete(url)
        elif op == "versions" and step % 3 == 2:  # the access log filtered by that memory
            r = self.sessions[who].get(
                "/api/v1/access-events", {"memory_id": str(target.memory_id)}
            )
        elif op == "versions":
            r = c.get(f"{url}/versions")
        elif op in ("restore", "restore_mix"):
            r = c.post(f"{url}/versions/{target.version_id}/restore")
        elif op == "state" and step % 4 == 3:  # pin or unpin: the session, and a token (403)
            pinner = self.sessions[who] if step % 8 == 3 else c
            r = pinner.post(f"{url}/pin") if step % 16 < 8 else pinner.delete(f"{url}/pin")
        elif op == "state":
            body = [{"state": "archived"}, {"categories": ["work"]}, {"private": True}][step % 3]
            r = c.patch(url, body, content_type=j)
        elif op == "bulk":
            ids = [str(m) for m in target.memory_ids]
            if step % 2:
                r = c.post("/api/v1/memories/bulk/delete", {"memory_ids": ids}, content_type=j)
            else:
                payload = {"memory_ids": ids, "state": "paused"}
                r = c.post("/api/v1/memories/bulk/state", payload, content_type=j)
        elif op == "trash":  # the owner's routes: the session
            s, ids = self.sessions[who], [str(m) for m in target.memory_ids]
            r = [
                lambda: s.post("/api/v1/trash/restore", {"memory_ids": ids}, content_type=j),
                lambda: s.post(
                    "/api/v1/trash/restore", {"batch": str(target.batch_id)}, content_type=j
                ),
                lambda: s.post("/api/v1/trash/delete", {"memory_ids": ids}, content_type=j),
                lambda: s.post(
                    "/api/v1/trash/delete", {"batch": str(target.batch_id)}, content_type=j
                ),
            ][step % 4]()
        elif op == "app" and step % 4 == 3:  # the access log filtered by that app
            r = self.sessions[who].get("/api/v1/access-events", {"app_id": target.app_id})
        elif op == "app":
            action = ["pause", "resume", "revoke"][step % 4]
            r = self.sessions[who].post(f"/api/v1/apps/{target.app_id}/{action}")
        elif op in ("import", "proposal"):  # the API has no proposals: imports twice as often
            run = f"/api/v1/imports/{target.run_id}"
            if step % 3 == 0:
                r = c.get(run)
            else:  # start it, or redo it (import it again, replacing the earlier import)
                r = self.sessions[who].post(f"{run}/{'start' if step % 3 == 2 else 'redo'}")
        else:
            return None
        return http_answer(r)

    def import_file(self, who: int, content: bytes) -> bool:
        file = SimpleUploadedFile("export.json", content, content_type="application/json")
        created = self.sessions[who].post("/api/v1/imports", {"file": file, "source": "auto"})
        assert created.status_code == 201, created.content
        started = self.sessions[who].post(f"/api/v1/imports/{created.json()['id']}/start")
        assert started.status_code == 202, started.content
        return True

    def sweep(self, who: int, op: str, query: str, step: int) -> bytes | None:
        c = self.tokens[who] if step % 2 else self.sessions[who]
        if op == "search":
            r = c.get("/api/v1/memories/search", {"q": query, "limit": "100"})
        elif op == "list" and step % 3 == 0:
            r = c.get("/api/v1/memories", {"state": "all", "limit": "200"})
        elif op == "list":
            pages = ["/api/v1/imports", "/api/v1/access-events", "/api/v1/trash"]
            r = self.sessions[who].get(pages[(step + step // 3) % 3])
        else:
            r = self.sessions[who].post("/api/v1/export" + ("/markdown" if step % 2 else ""))
        assert r.status_code == 200, r.content
        return http_answer(r)


@through_an_entry_point
def test_rest_api_never_shows_or_changes_another_tenants_memory() -> None:
    run_entry_point(in_process(ApiEntryPoint), 10)
