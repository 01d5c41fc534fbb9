from django.urls import path

from memories.web.views import (
    categories,
    connect,
    data,
    insights,
    language,
    memories,
    memory,
    review,
    search_model,
    trash,
)

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
    path("memories/<uuid:memory_id>/private/", memory.memory_private, name="private"),
    path("memories/<uuid:memory_id>/unrestrict/", memory.memory_unrestrict, name="unrestrict"),
    path("memories/<uuid:memory_id>/pin/", memory.memory_pin, name="pin"),
    path(
        "memories/<uuid:memory_id>/versions/<int:version_id>/restore/",
        memory.memory_restore,
        name="restore",
    ),
    path("memories/<uuid:memory_id>/delete/", memory.memory_delete, name="delete"),
    path("stats/", memories.stats_fragment, name="stats"),
    path("language/", language.language_set, name="language"),
    path("search-languages/", search_model.search_model_page, name="search_model"),
    # The Categories page (memories/web/views/categories.py)
    path("categories/", categories.categories_page, name="category_list"),
    path("categories/add/", categories.category_create, name="category_add"),
    path("categories/<str:slug>/edit/", categories.category_edit, name="category_edit"),
    path(
        "categories/<str:slug>/sensitive/",
        categories.category_sensitive,
        name="category_sensitive",
    ),
    path("categories/<str:slug>/merge/", categories.category_merge, name="category_merge"),
    path("categories/<str:slug>/delete/", categories.category_delete, name="category_delete"),
    path(
        "categories/<str:slug>/reviewed/",
        categories.category_reviewed,
        name="category_reviewed",
    ),
    path("trash/", trash.trash_page, name="trash"),
    path("trash/restore/", trash.trash_restore, name="trash_restore"),
    path("trash/delete/", trash.trash_delete, name="trash_delete"),
    path("trash/<uuid:batch_id>/seen/", trash.trash_seen, name="trash_seen"),
    path("map/", insights.map_page, name="map"),
    path("activity/", insights.activity_page, name="activity"),
    path("activity/<int:event_id>/", insights.activity_event_page, name="activity_event"),
    path("connect/", connect.connect_page, name="connect"),
    # Import, export, erase (memories/web/views/data.py)
    path("import/", data.import_page, name="import"),
    path("import/<uuid:run_id>/", data.import_run_page, name="import_run"),
    path("import/<uuid:run_id>/start/", data.import_start, name="import_start"),
    path("import/<uuid:run_id>/redo/", data.import_redo, name="import_redo"),
    path("export/", data.export_page, name="export"),
    path("erase/", data.erase_page, name="erase"),
    path("erase/receipts/<uuid:receipt_id>/", data.erase_receipt_page, name="erase_receipt"),
]

# The review page (/review/, its own namespace): changes a model proposed to hand-edited memories.
review_urlpatterns = (
    [
        path("", review.review, name="list"),
        path("<int:proposal_id>/<str:decision>", review.decide, name="decide"),
        path("check/<uuid:memory_id>/<str:decision>", review.check_decide, name="check_decide"),
    ],
    "review",
)
