"""The batch INSERT every add runs: which value goes in each column of memories_memory, bound
server-side with binary vectors, and the rows read back as Memory instances without a second
query. Its own module because the SQL, its column map and the instance built from it must agree."""

from __future__ import annotations

import json
import uuid
import weakref
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connection
from pgvector.psycopg.vector import register_vector_info
from psycopg.types import TypeInfo

from accounts.actors import Actor
from memories.models import Memory
from memories.search import lexical

# What the batch INSERT writes in each column of memories_memory: `u.<alias>` is this row's
# element of a per-row array (ROW_ARRAYS), `%(name)b` a parameter of the whole batch. Every
# column of Memory is named here (tests/memories/services/test_services.py holds the two to each
# other), and `built_memory` reads the same parameters back into the instance the caller gets.
INSERT_COLUMNS: dict[str, str] = {
    "id": "u.id",
    "owner_id": "%(owner)b",
    "text": "u.text",
    "text_key": "u.key",
    "embedding": "u.emb",
    "embedding_model": "%(model)b",
    "tsv": "memory_tsvector(u.cfg::regconfig, u.prefix, coalesce(u.body, u.app_text, u.text))",
    "app_text": "u.app_text",
    "harm_hold": "''",
    "owner_confirmed_at": "NULL",
    "language": "u.lang",
    "state": "u.state",
    "categories": "ARRAY(SELECT jsonb_array_elements_text(u.cats))::varchar[]",
    "categories_set_by_user": "u.cats_user",
    "is_private": "u.private",
    "hidden_from": "'{}'",
    "seen_only_by": "NULL",
    "origin": "%(origin)b",
    "origin_app_id": "%(app)b",
    "origin_app_name": "%(app_name)b",
    "provenance": "u.prov",
    "metadata": "u.meta",
    "user_edited_at": "NULL",
    "changed_by_app_id": "NULL",
    "changed_by_name": "''",
    "changed_at": "NULL",
    "superseded_by_id": "NULL",
    "echo_of_id": "nullif(u.echo_of, '')::uuid",
    "echo_app_id": "CASE WHEN u.echo_of = '' THEN NULL ELSE %(app)b::bigint END",
    "trash_state": "''",
    "trash_batch_id": "NULL",
    "trashed_with_id": "NULL",
    "pinned_at": "NULL",
    "created_at": "u.created",
    "updated_at": "%(now)b",
}


# The per-row arrays, in unnest order: parameter → (element type, alias in `u`).
ROW_ARRAYS: dict[str, tuple[str, str]] = {
    "ids": ("uuid", "id"),
    "texts": ("text", "text"),
    "keys": ("text", "key"),
    "embs": ("vector", "emb"),
    "states": ("text", "state"),
    "cats": ("jsonb", "cats"),
    "cats_user": ("bool", "cats_user"),
    "provs": ("jsonb", "prov"),
    "metas": ("jsonb", "meta"),
    "created": ("timestamptz", "created"),
    "echo_of": ("text", "echo_of"),
    "app_texts": ("text", "app_text"),
    "privates": ("bool", "private"),
    "langs": ("text", "lang"),
    "cfgs": ("text", "cfg"),
    "prefixes": ("text", "prefix"),
    "bodies": ("text", "body"),  # NULL: the text as it is (memories/search/lexical.py)
}


_ROW_PARAMS = tuple(ROW_ARRAYS)


# Built from the constants above only; every value is bound as a parameter.
_INSERT_SQL = f"""
INSERT INTO memories_memory ({", ".join(INSERT_COLUMNS)})
SELECT {", ".join(INSERT_COLUMNS.values())}
FROM unnest({", ".join(f"%({name})b::{kind}[]" for name, (kind, _) in ROW_ARRAYS.items())})
     AS u({", ".join(alias for _, alias in ROW_ARRAYS.values())})
ON CONFLICT (owner_id, text_key)
    WHERE state = 'active' AND superseded_by_id IS NULL AND echo_of_id IS NULL
DO NOTHING
RETURNING id
"""  # noqa: S608


# The `vector` type's catalogue entry, read once per database connection: every write runs
# two INSERTs, and reading it again each time was a round trip apiece (an import of 1,000
# memories in 250 conversations made 500 of them; bench backfill).
_vector_types: weakref.WeakKeyDictionary[psycopg.Connection[Any], TypeInfo] = (
    weakref.WeakKeyDictionary()
)


def _vector_type(raw: psycopg.Connection[Any]) -> TypeInfo | None:
    info = _vector_types.get(raw)
    if info is None:
        info = TypeInfo.fetch(raw, "vector")
        if info is not None:
            _vector_types[raw] = info
    return info


def insert_rows(params: dict[str, Any]) -> set[uuid.UUID]:
    """Run the batch INSERT with server-side binding and binary vectors.

    Django's cursor binds client-side, which means formatting 384 floats per row as text and
    quoting every array element in Python: more time than the SQL itself (bench add). Here
    every parameter goes binary (`%(name)b`).
    """
    connection.ensure_connection()
    raw = connection.connection
    with psycopg.Cursor(raw) as cur:
        # Registered on this cursor only (any psycopg adapt context works): no global effect.
        register_vector_info(cur, _vector_type(raw))  # type: ignore[arg-type]
        cur.execute(_INSERT_SQL, params)
        return {row[0] for row in cur.fetchall()}


def rows_of(params: dict[str, Any], picked: Sequence[int]) -> dict[str, Any]:
    """The batch arguments restricted to rows `picked`."""
    return {**params, **{k: [params[k][n] for n in picked] for k in _ROW_PARAMS}}


def lexical_rows(texts: Sequence[str]) -> dict[str, list[Any]]:
    """Each text's language and what its `tsv` is built from, as the batch INSERT's arrays."""
    analysed = [lexical.for_memory(text) for text in texts]
    return {
        "langs": [a.language for a in analysed],
        "cfgs": [a.config for a in analysed],
        "prefixes": [a.prefix for a in analysed],
        "bodies": [
            None if a.body == text else a.body for a, text in zip(analysed, texts, strict=True)
        ],
    }


def built_memory(actor: Actor, params: dict[str, Any], n: int, vector: Any) -> Memory:
    """Row n of a batch INSERT as a Memory instance, as if read back (tsv deferred)."""
    values = {
        "id": params["ids"][n],
        "owner_id": actor.user.pk,
        "text": params["texts"][n],
        "text_key": params["keys"][n],
        "embedding": vector,
        "embedding_model": params["model"],
        "state": params["states"][n],
        "categories": json.loads(params["cats"][n]),
        "categories_set_by_user": params["cats_user"][n],
        "is_private": params["privates"][n],
        "hidden_from": [],
        "app_text": params["app_texts"][n],
        "harm_hold": "",
        "owner_confirmed_at": None,
        "seen_only_by": None,
        "origin": params["origin"],
        "origin_app_id": params["app"],
        "origin_app_name": params["app_name"],
        "provenance": json.loads(params["provs"][n]),
        "metadata": json.loads(params["metas"][n]),
        "user_edited_at": None,
        "changed_by_app_id": None,
        "changed_by_name": "",
        "changed_at": None,
        "superseded_by_id": None,
        "echo_of_id": uuid.UUID(params["echo_of"][n]) if params["echo_of"][n] else None,
        "echo_app_id": params["app"] if params["echo_of"][n] else None,
        "language": params["langs"][n],
        "trash_state": "",
        "trash_batch_id": None,
        "trashed_with_id": None,
        "pinned_at": None,
        "created_at": params["created"][n],
        "updated_at": params["now"],
    }
    # Every column but the one the database computes (`tsv`, loaded lazily when read): a column
    # added to Memory and not here is a KeyError on the first write, not a silent default.
    names = [f.attname for f in Memory._meta.concrete_fields if f.attname != "tsv"]
    return Memory.from_db(connection.alias, names, [values[name] for name in names])
