from django.apps import AppConfig


class KernelConfig(AppConfig):
    name = "kernel"
    # The label these modules had as the app "contextlayer": the RateLimit table
    # (contextlayer_ratelimit), its migration and its rows in django_migrations keep their names,
    # so a database migrated forward from before the move needs no migration and keeps its rows.
    label = "contextlayer"
    verbose_name = "Context Layer"
