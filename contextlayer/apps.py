from django.apps import AppConfig


class CompositionRootConfig(AppConfig):
    """An app only for its commands (serve, cleanup) and tasks: it has no models."""

    name = "contextlayer"
    # "contextlayer" is the kernel's label (kernel/apps.py), so the RateLimit table keeps its name.
    label = "composition_root"
    verbose_name = "Context Layer"
