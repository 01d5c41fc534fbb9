from django.apps import AppConfig


class DoctorConfig(AppConfig):
    """The deployment checker: an app only so that `manage.py doctor` is found."""

    name = "doctor"
    verbose_name = "Deployment checker"
