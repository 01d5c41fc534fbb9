"""The dashboard entry point: views, forms, presentation, charts, urls, the view decorator
(`dashboard.py`) and the template tags."""
