"""REST routes for the owner's Review queue: proposals waiting, and accepting or declining one."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Router, Schema

from accounts.api_auth import request_actor
from kernel.api_errors import error_responses
from kernel.api_types import DbId
from memories.selectors.proposals import proposal_list
from memories.services import proposals

proposals_router = Router(tags=["review"])


class ProposalOut(Schema):
    id: int
    kind: Literal["edit", "add", "update", "delete"]
    memory_id: uuid.UUID | None
    current_text: str = Field(description="The memory's text now ('' for an add).")
    proposed_text: str
    proposed_categories: list[str] | None
    proposed_state: str
    reason: str
    proposed_by: str
    status: str
    created_at: datetime

    @staticmethod
    def resolve_current_text(obj: Any) -> str:
        return obj.memory.text if obj.memory is not None else ""


@proposals_router.get(
    "", response={200: list[ProposalOut], **error_responses()}, summary="Waiting for review"
)
def list_proposals(request: HttpRequest) -> Any:
    """The owner's Review queue, newest first: a model's suggested edits and the writes of apps
    whose changes the owner reviews. A connected app's token: 403 owner_only."""
    return proposal_list(actor=request_actor(request))


@proposals_router.post(
    "/{proposal_id}/{decision}",
    response={200: ProposalOut, **error_responses(404, 409)},
    summary="Accept or decline a proposal",
)
def decide_proposal(
    request: HttpRequest, proposal_id: DbId, decision: Literal["accept", "decline"]
) -> Any:
    """Accept applies it (an app's write as that app; a delete goes to the trash); decline
    changes nothing. A proposal already decided, or another user's, is a 404."""
    decide = proposals.proposal_accept if decision == "accept" else proposals.proposal_decline
    return decide(actor=request_actor(request), proposal_id=proposal_id)
