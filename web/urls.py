from django.urls import path

from web.views import (
    categories,
    connect,
    data,
    insights,
    language,
    memory_detail,
    memory_list,
    review,
    search_model,
    trash,
)

app_name = "memories"
urlpatterns = [
    path("", memory_list.memory_list_page, name="home"),
    path("memories/add/", memory_list.memory_add, name="add"),
    path("memories/bulk/", memory_list.memory_bulk, name="bulk"),
    path("memories/<uuid:memory_id>/", memory_detail.memory_detail, name="detail"),
    path("memories/<uuid:memory_id>/row/", memory_detail.memory_row, name="row"),
    path("memories/<uuid:memory_id>/edit/", memory_detail.memory_edit, name="edit"),
    path("memories/<uuid:memory_id>/state/", memory_detail.memory_state, name="state"),
    path(
        "memories/<uuid:memory_id>/categories/",
        memory_detail.memory_categories_edit,
        name="categories",
    ),
    path("memories/<uuid:memory_id>/hide/", memory_detail.memory_hide_from_app, name="hide"),
    path("memories/<uuid:memory_id>/private/", memory_detail.memory_private, name="private"),
    path(
        "memories/<uuid:memory_id>/unrestrict/", memory_detail.memory_unrestrict, name="unrestrict"
    ),
    path("memories/<uuid:memory_id>/pin/", memory_detail.memory_pin, name="pin"),
    path(
        "memories/<uuid:memory_id>/versions/<int:version_id>/restore/",
        memory_detail.memory_restore,
        name="restore",
    ),
    path("memories/<uuid:memory_id>/delete/", memory_detail.memory_delete, name="delete"),
    path("stats/", memory_list.stats_fragment, name="stats"),
    path("language/", language.language_set, name="language"),
    path("search-languages/", search_model.search_model_page, name="search_model"),
    # The Categories page (web/views/categories.py)
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
    # Import, export, erase (web/views/data.py)
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
