from django.contrib import admin
from django.urls import include, path

from contextlayer import views
from contextlayer.api import api

urlpatterns = [
    path("health", views.health, name="health"),
    path("ready", views.ready, name="ready"),
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("accounts/", include("allauth.urls")),
    path("review/", include("memories.review_urls")),
    path("", include("memories.urls")),
]
