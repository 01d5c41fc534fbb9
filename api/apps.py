"""REST routes for connected apps: list, pause, resume, revoke, and the disconnected local apps
allowed again (the owner's own apps only)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Query, Router, Schema

from accounts import selectors, services
from accounts.api_auth import request_actor
from kernel.api_errors import error_responses
from kernel.api_types import DbId, StoredText

router = Router(tags=["connected apps"])

AppId = DbId


class AppOut(Schema):
    id: int
    name: str
    kind: str
    third_party: bool  # an OAuth client, which chose its own name
    scopes: list[str]
    categories: list[str]  # ticked when the grant was given
    hidden_categories: list[str]  # unticked (sensitive categories not ticked are hidden too)
    sees_uncategorised: bool
    paused: bool
    review_writes: bool  # its adds, updates and deletes wait for the owner's review
    created_at: datetime
    last_seen_at: datetime | None
    revoked_at: datetime | None

    @staticmethod
    def resolve_third_party(obj: Any) -> bool:
        return bool(obj.is_third_party)


class AppListQuery(Schema):
    include_revoked: bool = False


@router.get("", response={200: list[AppOut], **error_responses()}, summary="Connected apps")
def list_apps(request: HttpRequest, params: Query[AppListQuery]) -> Any:
    return selectors.app_list(actor=request_actor(request), include_revoked=params.include_revoked)


class DisconnectedOut(Schema):
    name: str
    disconnected_at: datetime


@router.get(
    "/disconnected",
    response={200: list[DisconnectedOut], **error_responses()},
    summary="Disconnected local apps",
)
def list_disconnected(request: HttpRequest) -> Any:
    """Local (stdio) apps the owner disconnected, or erased: launched again, each is refused
    until the owner allows it again."""
    return selectors.disconnected_apps(actor=request_actor(request))


class AllowAgainIn(Schema):
    name: StoredText


class AllowAgainOut(Schema):
    name: str
    allowed_again: bool  # false: no app of that name was disconnected; nothing changed


@router.post(
    "/disconnected/allow",
    response={200: AllowAgainOut, **error_responses()},
    summary="Allow a disconnected local app again",
)
def allow_again(request: HttpRequest, payload: AllowAgainIn) -> Any:
    """Its command's next launch makes a new app with the default grant."""
    lifted = services.app_allow_again(actor=request_actor(request), name=payload.name)
    return {"name": payload.name, "allowed_again": lifted}


@router.post(
    "/{app_id}/pause", response={200: AppOut, **error_responses(404, 409)}, summary="Pause an app"
)
def pause_app(request: HttpRequest, app_id: AppId) -> Any:
    """A paused app can neither read nor write until it is resumed."""
    return services.app_set_paused(actor=request_actor(request), app_id=app_id, paused=True)


@router.post(
    "/{app_id}/resume", response={200: AppOut, **error_responses(404, 409)}, summary="Resume"
)
def resume_app(request: HttpRequest, app_id: AppId) -> Any:
    return services.app_set_paused(actor=request_actor(request), app_id=app_id, paused=False)


class ReviewIn(Schema):
    review: bool


@router.post(
    "/{app_id}/review",
    response={200: AppOut, **error_responses(404, 409)},
    summary="Review an app's changes first (or not)",
)
def review_app(request: HttpRequest, app_id: AppId, payload: ReviewIn) -> Any:
    """`review: true`: the app's adds, updates and deletes wait as proposals on the Review page
    (`GET /api/v1/proposals`) until the owner accepts them. Off by default."""
    return services.app_set_review(
        actor=request_actor(request), app_id=app_id, review=payload.review
    )


@router.post(
    "/{app_id}/revoke", response={200: AppOut, **error_responses(404, 409)}, summary="Revoke"
)
def revoke_app(request: HttpRequest, app_id: AppId) -> Any:
    """For good: the app loses access; connecting it again makes a new grant."""
    return services.app_revoke(actor=request_actor(request), app_id=app_id)
