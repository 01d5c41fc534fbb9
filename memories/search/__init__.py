"""Search: scoring, the per-process index, its snapshot in PostgreSQL, embeddings and
related terms."""
