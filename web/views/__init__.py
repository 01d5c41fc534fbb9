"""Dashboard views (htmx). Each parses input, builds the owner's actor, calls the service layer
(`memories.services` / `memories.selectors`) and renders a page or, for htmx, a
fragment."""
