from django.apps import AppConfig


class ContextLayerConfig(AppConfig):
    name = "contextlayer"
    verbose_name = "Context Layer"
