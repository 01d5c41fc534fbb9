"""The dashboard is an app only so that Django finds its template tags (`{% load dashboard %}`)."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Dashboard"
