"""Issue 36.3: memories stored on multilingual-e5 before its sensitive head are read by it once,
here, as a write now reads them (memories/classify.py, `Classifier._settle`): a memory whose
categories its owner did not set and that carries no category sensitive for its owner gets the
head's category when the head is sure enough (`sensitive_head.THRESHOLD`). It reads the stored
vector (no embedding), only adds a label, so every app sees less or the same, and the search
index follows (the memory table's triggers move each owner's generation)."""

from django.db import migrations

BATCH = 2000


def read_store(apps, schema_editor):
    from kernel.tenancy import cross_tenant

    with cross_tenant("the store's one reading by the sensitive head after upgrade"):
        _read(apps)


def _read(apps):
    import numpy as np

    from memories import sensitive_head
    from memories.search.embeddings import E5_MODEL
    from memories.visibility import sensitive_of

    head = sensitive_head.head_for(E5_MODEL)
    Memory = apps.get_model("memories", "Memory")
    UserCategory = apps.get_model("memories", "UserCategory")
    rows = (
        Memory.objects.filter(
            embedding_model=E5_MODEL, embedding__isnull=False, categories_set_by_user=False
        )
        .values_list("pk", "owner_id", "categories", "embedding")
        .order_by("pk")
    )
    sensitive: dict[int, frozenset[str]] = {}
    batch: list[tuple[object, int, list[str], object]] = []

    def label(batch):
        vectors = np.stack([np.asarray(vector, dtype=np.float32) for *_, vector in batch])
        for (pk, owner_id, categories, _), (score, category) in zip(
            batch, head.verdicts(vectors), strict=True
        ):
            if score >= sensitive_head.THRESHOLD:
                Memory.objects.filter(owner_id=owner_id, pk=pk).update(
                    categories=[category, *categories]
                )

    for pk, owner_id, categories, vector in rows.iterator(chunk_size=BATCH):
        if owner_id not in sensitive:
            marks = UserCategory.objects.filter(owner_id=owner_id).values_list("slug", "sensitive")
            sensitive[owner_id] = sensitive_of(marks)
        if sensitive[owner_id] & set(categories):
            continue
        batch.append((pk, owner_id, categories, vector))
        if len(batch) == BATCH:
            label(batch)
            batch = []
    if batch:
        label(batch)


class Migration(migrations.Migration):
    dependencies = [("memories", "0027_searchmodel_chosen")]

    operations = [migrations.RunPython(read_store, migrations.RunPython.noop)]
