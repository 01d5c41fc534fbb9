"""The REST entry point (/api/v1/): one router module per subject, assembled in `api.site`."""
