"""Settings for commands that read only the code, never a database: `makemigrations --check`
(.pre-commit-config.yaml) compares the models with the migrations on a fresh clone too, where
no data folder is set up and connecting would be refused."""

from contextlayer.settings import *  # noqa: F403

# Django's placeholder backend: makemigrations skips its history check against a database.
DATABASES = {"default": {"ENGINE": "django.db.backends.dummy"}}
