from django.urls import path

from memories import data_views
from memories.views import connect, insights, memories, memory

app_name = "memories"
urlpatterns = [
    path("", memories.memory_list_page, name="home"),
    path("memories/add/", memories.memory_add, name="add"),
    path("memories/bulk/", memories.memory_bulk, name="bulk"),
    path("memories/<uuid:memory_id>/", memory.memory_detail, name="detail"),
    path("memories/<uuid:memory_id>/row/", memory.memory_row, name="row"),
    path("memories/<uuid:memory_id>/edit/", memory.memory_edit, name="edit"),
    path("memories/<uuid:memory_id>/state/", memory.memory_state, name="state"),
    path("memories/<uuid:memory_id>/categories/", memory.memory_categories_edit, name="categories"),
    path("memories/<uuid:memory_id>/hide/", memory.memory_hide_from_app, name="hide"),
    path(
        "memories/<uuid:memory_id>/versions/<int:version_id>/restore/",
        memory.memory_restore,
        name="restore",
    ),
    path("memories/<uuid:memory_id>/delete/", memory.memory_delete, name="delete"),
    path("stats/", memories.stats_fragment, name="stats"),
    path("map/", insights.map_page, name="map"),
    path("activity/", insights.activity_page, name="activity"),
    path("connect/", connect.connect_page, name="connect"),
    # Import, export, erase (memories/data_views.py)
    path("import/", data_views.import_page, name="import"),
    path("import/<uuid:run_id>/", data_views.import_run_page, name="import_run"),
    path("import/<uuid:run_id>/start/", data_views.import_start, name="import_start"),
    path("export/", data_views.export_page, name="export"),
    path("erase/", data_views.erase_page, name="erase"),
    path("erase/receipts/<uuid:receipt_id>/", data_views.erase_receipt_page, name="erase_receipt"),
]
