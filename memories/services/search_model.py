"""The model a person's memories are searched with, chosen by them (issue 36): English
(all-MiniLM-L6-v2, the quicker) or many languages (multilingual-e5-small: a Chinese query finds
a Chinese memory, an English one a German memory), or whatever the server runs.

The server's EMBEDDING_MODEL is the default for every person; one who writes in another language
need not wait for the operator to change it for everyone. A choice only sets the person's target
(`SearchModel.chosen`): the worker embeds their memories again beside the live vectors and
switches them at once when all are there (memories/services/maintenance.py), so search keeps
answering with the old model meanwhile, and choosing again (or back) stops or turns the move.
An account preference, like the dashboard's language: no access event (no memory is read or
changed; the vectors are the same texts' in another model), and an app can never make it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from kernel.errors import InvalidInput
from kernel.gates import require_owner
from memories.search.embeddings import E5_MODEL, MINILM_MODEL
from memories.services import maintenance

# The models a person may choose: both ship with the install and are verified by hash.
OFFERED = (MINILM_MODEL, E5_MODEL)

# The user's row, made as their first write would make it (on the server's model: they have no
# memories yet), then locked against the writers and the switch for this transaction.
_ROW_SQL = """
INSERT INTO memories_searchmodel (owner_id, model, next_model) VALUES (%(owner)s, %(target)s, '')
ON CONFLICT (owner_id) DO NOTHING
"""
_ANY_MEMORY_SQL = "SELECT 1 FROM memories_memory m WHERE m.owner_id = %(owner)s LIMIT 1"
# A user with no memories is put on their target at once: nothing to move.
_ON_TARGET_SQL = f"""
UPDATE memories_searchmodel
SET model = {maintenance.USER_TARGET_SQL}, next_model = '', moving_since = NULL
WHERE owner_id = %(owner)s
"""  # noqa: S608 - only constants; values are bound parameters
_CHOOSE_SQL = """
UPDATE memories_searchmodel SET chosen = %(chosen)s WHERE owner_id = %(owner)s
"""


def search_model_choose(*, actor: Actor, model: str) -> bool:
    """Choose the model the owner's memories are searched with ("" follows the server's);
    whether their memories are now moving to another model (the caller queues the worker)."""
    require_owner(actor)
    if model and model not in OFFERED:
        raise InvalidInput(
            gettext_noop("Unknown search model %(model)r."), field="model", model=model[:200]
        )
    args: dict[str, Any] = {
        "owner": actor.user.pk,
        "target": settings.EMBEDDING_MODEL,
        "chosen": model,
    }
    with transaction.atomic():
        with connection.cursor() as cur:
            cur.execute(_ROW_SQL, args)
            cur.execute(
                "SELECT 1 FROM memories_searchmodel WHERE owner_id = %(owner)s FOR UPDATE", args
            )
            cur.execute(_CHOOSE_SQL, args)
            cur.execute(_ANY_MEMORY_SQL, args)
            if cur.fetchone() is None:
                # The next memory is written with the chosen model.
                cur.execute(_ON_TARGET_SQL, args)
        return maintenance.retarget(actor.user.pk, args["target"])
