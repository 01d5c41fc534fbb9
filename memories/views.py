"""Dashboard views (htmx). Each parses input, calls the service layer, renders."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.actors import owner_actor
from memories.selectors import memory_count


@login_required
def home(request: HttpRequest) -> HttpResponse:
    actor = owner_actor(request.user)  # type: ignore[arg-type]
    return render(request, "memories/home.html", {"total": memory_count(actor=actor)})
