from django.urls import path

from web.views import apps as app_views

# Mounted at /apps/ by contextlayer/urls.py.
app_name = "accounts"
urlpatterns = [
    path("", app_views.app_list, name="apps"),
    path("tokens", app_views.token_create, name="token_create"),
    path("preview", app_views.grant_preview_view, name="grant_preview"),
    path("allow-again", app_views.app_allow_again_view, name="app_allow_again"),
    path("<int:app_id>/edit", app_views.app_edit, name="app_edit"),
    path("<int:app_id>/pause", app_views.app_pause, name="app_pause"),
    path("<int:app_id>/resume", app_views.app_resume, name="app_resume"),
    path("<int:app_id>/review", app_views.app_review, name="app_review"),
    path("<int:app_id>/revoke", app_views.app_revoke_view, name="app_revoke"),
]
