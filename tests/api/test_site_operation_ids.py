"""The REST API's operation ids are a contract: clients generate code from them."""

from __future__ import annotations

import json
from pathlib import Path

from api.site import api

# Every operation id as it was before the routes moved (into memories/api/ and activity/api.py,
# then into api/), and those added since.
BEFORE_THE_MOVE = json.loads((Path(__file__).parent / "openapi_ids.json").read_text())


def test_every_operation_keeps_the_id_clients_generated_code_from() -> None:
    schema = api.get_openapi_schema()
    ids = {
        f"{method.upper()} {path}": op["operationId"]
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
    }
    assert ids == BEFORE_THE_MOVE
