"""Isolation through the dashboard: its views (plain and htmx) and its export (the property:
tests/reliability/isolation_doors.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.personas import signed_in
from tests.reliability.isolation_doors import (
    SCOPES,
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


class DashboardEntryPoint(EntryPoint):
    """A signed-in browser per user; every other step is an htmx request (fragments)."""

    name = "dashboard"

    def __init__(self, world: World) -> None:
        self.clients = []
        for user in world.users:
            client = signed_in(user)
            self.clients.append(client)

    def add(self, who: int, text: str) -> bytes:
        response = self.clients[who].post("/memories/add/", {"text": text, "categories": ""})
        assert response.status_code == 302, response.content
        return http_answer(response)

    def by_id(self, who: int, op: str, target: Target, step: int) -> bytes | None:
        c = self.clients[who]
        hx = {"HX-Request": "true"} if step % 2 else {}
        if op in ("trash", "app", "import", "proposal"):
            r = self._on_other_object(c, op, target, step, hx)
        else:
            r = self._on_memory(c, op, target, step, hx)
        return None if r is None else http_answer(r)

    @staticmethod
    def _on_memory(c: Client, op: str, target: Target, step: int, hx: dict[str, str]) -> Any:
        """A memory's pages and forms (plain or htmx), None for an operation they lack."""
        url = f"/memories/{target.memory_id}/"
        if op == "get":
            r = c.get(url + ["", "row/", "delete/"][step % 3], headers=hx)
        elif op == "versions":
            r = c.get(url + "edit/", headers=hx)
        elif op == "update":
            r = c.post(url + "edit/", {"text": target.text}, headers=hx)
        elif op == "delete":
            r = c.post(url + "delete/", headers=hx)
        elif op in ("restore", "restore_mix"):
            r = c.post(f"{url}versions/{target.version_id}/restore/", headers=hx)
        elif op == "state" and step % 4 == 3:
            r = c.post(url + "pin/", {"pinned": "on" if step % 8 == 3 else "off"}, headers=hx)
        elif op == "state":
            if step % 3 == 2:
                r = c.post(url + "categories/", {"categories": "work"}, headers=hx)
            else:
                r = c.post(url + "state/", {"state": ["archived", "paused"][step % 2]}, headers=hx)
        elif op == "bulk":
            action = ["delete", "archived", "categories"][step % 3]
            data = {
                "action": action,
                "ids": [str(m) for m in target.memory_ids],
                "categories": "work",
                "confirm": "on" if step % 2 else "",
            }
            r = c.post("/memories/bulk/", data, headers=hx)
        else:
            return None
        return r

    @staticmethod
    def _on_other_object(c: Client, op: str, target: Target, step: int, hx: dict[str, str]) -> Any:
        """The trash, an app, an import run or a proposal."""
        if op == "trash":
            ids = {"ids": [str(m) for m in target.memory_ids]}
            batch = {"batch": str(target.batch_id)}
            confirm = {"confirm": "on"} if step % 2 else {}
            r = [
                lambda: c.post("/trash/restore/", ids),
                lambda: c.post("/trash/restore/", batch),
                lambda: c.post("/trash/delete/", {**ids, **confirm}),
                lambda: c.post("/trash/delete/", {**batch, **confirm}),
                lambda: c.post(f"/trash/{target.batch_id}/seen/"),
            ][step % 5]()
        elif op == "app":
            action = ["pause", "resume", "revoke", "edit", "edit"][step % 5]
            path = f"/apps/{target.app_id}/{action}"
            if action != "edit":
                r = c.post(path)
            elif step % 2:  # widen the other tenant's grant
                r = c.post(
                    path,
                    {
                        "scopes": list(SCOPES),
                        "categories": ["health", "finance"],
                        "sees_uncategorised": "on",
                    },
                )
            else:
                r = c.get(path)
        elif op == "import":
            run = f"/import/{target.run_id}/"
            r = c.post(run + "start/") if step % 3 == 2 else c.get(run, headers=hx)
        elif op == "proposal":
            decision = "accept" if step % 2 else "decline"
            r = c.post(f"/review/{target.proposal_id}/{decision}", headers=hx)
        return r

    def import_file(self, who: int, content: bytes) -> bool:
        file = SimpleUploadedFile("export.json", content, content_type="application/json")
        created = self.clients[who].post("/import/", {"file": file, "source": "auto"})
        assert created.status_code == 302, created.content
        started = self.clients[who].post(created["Location"] + "start/")
        assert started.status_code == 302, started.content
        return True

    def sweep(self, who: int, op: str, query: str, step: int) -> bytes | None:
        c = self.clients[who]
        hx = {"HX-Request": "true"} if step % 2 else {}
        if op == "search":
            r = c.get("/", {"q": query}, headers=hx)
        elif op == "list" and step % 3 == 0:
            r = c.get("/", {"state": "all"}, headers=hx)
        elif op == "list":  # every other page that lists the signed-in user's things
            pages = ["/import/", "/review/", "/activity/", "/map/", "/stats/", "/apps/", "/trash/"]
            r = c.get(pages[(step + step // 3) % len(pages)])
        else:
            r = c.post("/export/", {"format": "markdown" if step % 2 else "json"})
        assert r.status_code == 200, r.content
        return http_answer(r)


@through_an_entry_point
def test_dashboard_never_shows_or_changes_another_tenants_memory() -> None:
    run_entry_point(in_process(DashboardEntryPoint), 10)
