"""What a search scores a query from, dumped for replaying a rule on a tuning split (`bench
multilingual --dump`, `bench shortqueries --dump`): each memory's exact cosine and BM25 and the
query's corpus figures, as `memories.search.relevance.relevance` takes them."""

from __future__ import annotations

from typing import Any


def query_evidence(actor: Any, text: str, name_of: dict[Any, str]) -> dict[str, Any]:
    """What the owner's search scores `text` from: each memory's exact cosine and BM25, its
    language, and the query's corpus figures (`relevance`'s inputs), for replaying a rule."""
    from memories.models import Memory
    from memories.search import lexical
    from memories.search.relevance import exact_cosines
    from memories.search.scoring import UserSearch
    from memories.selectors.memories import MemoryFilters, search_scope

    visible, params, whole = search_scope(actor, MemoryFilters(), None)
    search = UserSearch(
        actor.user.pk,
        visible=visible,
        params={**params, "category": None},
        query=text,
        whole_store=whole,
    )
    index = search.index
    assert index is not None, "the dump reads the in-memory index"
    corpus, bm25 = search._bm25(search.profile.bm25_k1, search.profile.bm25_b)
    cosine = exact_cosines(index.matrix, search.embed_query())
    ids = [index.memory_id(r) for r in range(len(index))]
    lang = dict(Memory.objects.filter(id__in=ids).values_list("id", "language"))
    return {
        "text": text,
        "short": search.short,
        "ideal": corpus.ideal,
        "known": corpus.known,
        "documents": corpus.documents,
        "kin": corpus.kin,
        "kin_languages": lexical.kin(text),
        "memories": [name_of[m] for m in ids],
        "languages": [lang[m] for m in ids],
        "cosine": [float(c) for c in cosine],
        "bm25": [float(b) for b in bm25],
    }
