from django.urls import path

from memories import review_views

app_name = "review"
urlpatterns = [
    path("", review_views.review, name="list"),
    path("<int:proposal_id>/<str:decision>", review_views.decide, name="decide"),
]
