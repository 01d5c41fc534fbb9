"""Schemathesis against our own OpenAPI schema: no 5xx, and every answer matches the schema."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.middleware.csrf import _get_new_csrf_string
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import MemoryVersion
from memories.selectors.memories import memory_versions
from memories.services.adding import memory_create
from memories.services.changing import memory_update
from tests.personas import signed_in

pytestmark = pytest.mark.slow

# Both valid and invalid inputs: invalid ones must be refused with a 4xx, never crash the server.
schema = schemathesis.openapi.from_wsgi(
    "/api/v1/openapi.json",
    get_wsgi_application(),
    config=schemathesis.Config.from_dict({"generation": {"mode": "all"}}),
)

# The schema cannot say which cursor strings this server issued or which texts already exist, so
# "valid by the schema but refused" (positive_data_acceptance) is not a check we run; what we
# require is no server error and every response conforming to the schema.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture
def keep_test_connection() -> Iterator[None]:
    """Like Django's test client: the raw WSGI handler must not close the test's transaction."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_schema(  # type: ignore[no-untyped-def]
    case, owner: User, keep_test_connection: None
) -> None:
    # A real memory with a version, so valid ids reach the code behind the 404s too.
    # Made once, and again only after an example deleted it (embedding is the slow part).
    version = MemoryVersion.objects.filter(owner=owner).select_related("memory").first()
    if version is None:
        actor = owner_actor(owner)
        memory = memory_create(actor=actor, text=f"I drink tea, cup {uuid.uuid4()}").memory
        memory_update(actor=actor, memory_id=memory.id, text=f"I drink green tea {uuid.uuid4()}")
        version = memory_versions(actor=actor, memory_id=memory.id)[0]
    memory = version.memory
    params = case.path_parameters or {}
    if _is_uuid(params.get("memory_id")):
        params["memory_id"] = str(memory.id)
        if isinstance(params.get("version_id"), int):
            params["version_id"] = version.pk
    # The owner's own door (every route, versions included): the signed-in session, with a CSRF
    # token as the dashboard's scripts send it; the real session and CSRF checks run.
    session = signed_in(owner).cookies[django_settings.SESSION_COOKIE_NAME].value
    csrf = _get_new_csrf_string()
    case.call_and_validate(
        headers={"X-CSRFToken": csrf},
        cookies={django_settings.SESSION_COOKIE_NAME: session, "csrftoken": csrf},
        environ_base={"REMOTE_ADDR": "127.0.0.1"},  # a browser has an address; sessions note it
        checks=CHECKS,
    )


def _is_uuid(value: object) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True
