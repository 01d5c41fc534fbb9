from django.urls import path

from memories import data_views, views

app_name = "memories"
urlpatterns = [
    path("", views.home, name="home"),
    # Import, export, erase (memories/data_views.py)
    path("import/", data_views.import_page, name="import"),
    path("import/<uuid:run_id>/", data_views.import_run_page, name="import_run"),
    path("import/<uuid:run_id>/start/", data_views.import_start, name="import_start"),
    path("export/", data_views.export_page, name="export"),
    path("erase/", data_views.erase_page, name="erase"),
]
