"""Operator maintenance over every tenant: re-embedding after a model change."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection, transaction

from kernel.tenancy import cross_tenant
from memories.models import Memory
from memories.search.embeddings import Embedder
from memories.search.scoring import _vector_literal


@cross_tenant("operator re-embedding of every memory after an embedding model change")
def reembed_all(
    *,
    embedder: Embedder,
    only_stale: bool = True,
    batch: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Embed rows in batches; rows already on the embedder's model are skipped if only_stale."""
    qs = Memory.objects.all()
    if only_stale:
        qs = qs.exclude(embedding_model=embedder.model_name, embedding__isnull=False)
    ids = list(qs.order_by("id").values_list("id", flat=True))
    total = len(ids)
    done = 0
    if progress:
        progress(0, total)
    for start in range(0, total, batch):
        chunk = list(
            Memory.objects.filter(id__in=ids[start : start + batch]).values_list("id", "text")
        )
        vectors = embedder.embed([text for _, text in chunk])
        with transaction.atomic(), connection.cursor() as cur:
            cur.executemany(
                "UPDATE memories_memory SET embedding = %s::vector, embedding_model = %s "
                "WHERE id = %s",
                [
                    (_vector_literal(v), embedder.model_name, mid)
                    for (mid, _), v in zip(chunk, vectors, strict=True)
                ],
            )
        done += len(chunk)
        if progress:
            progress(done, total)
    return done
