"""The dashboard entry point: views, forms, presentation, charts and urls."""
