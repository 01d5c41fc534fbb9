from django.urls import path

from web.views import apps as views

# Mounted at /apps/ by contextlayer/urls.py.
app_name = "accounts"
urlpatterns = [
    path("", views.app_list, name="apps"),
    path("tokens", views.token_create, name="token_create"),
    path("preview", views.grant_preview_view, name="grant_preview"),
    path("allow-again", views.app_allow_again_view, name="app_allow_again"),
    path("<int:app_id>/edit", views.app_edit, name="app_edit"),
    path("<int:app_id>/pause", views.app_pause, name="app_pause"),
    path("<int:app_id>/resume", views.app_resume, name="app_resume"),
    path("<int:app_id>/review", views.app_review, name="app_review"),
    path("<int:app_id>/revoke", views.app_revoke_view, name="app_revoke"),
]
