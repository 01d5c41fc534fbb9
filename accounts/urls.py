from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("apps/", views.app_list, name="apps"),
    path("apps/tokens", views.token_create, name="token_create"),
    path("apps/preview", views.grant_preview_view, name="grant_preview"),
    path("apps/<int:app_id>/edit", views.app_edit, name="app_edit"),
    path("apps/<int:app_id>/pause", views.app_pause, name="app_pause"),
    path("apps/<int:app_id>/resume", views.app_resume, name="app_resume"),
    path("apps/<int:app_id>/review", views.app_review, name="app_review"),
    path("apps/<int:app_id>/revoke", views.app_revoke_view, name="app_revoke"),
]
