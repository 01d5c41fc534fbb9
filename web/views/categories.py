"""The Categories page: every category with its count and the apps that see it; add, rename,
merge, delete, mark sensitive; and the notices of new categories (also on the memories page).

Every action is a plain form post answered by a redirect and one message, so it works without
script; the service layer decides (memories/services/categories.py,
memories/services/category_changes.py).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from kernel.category_names import label
from kernel.errors import Conflict, InvalidInput, NotFound
from memories.selectors.grants import apps_seeing, category_overview
from memories.services import category_changes
from memories.services.categories import DESCRIPTION_MAX, category_add
from memories.visibility import sensitive_categories
from web.dashboard import DashboardRequest, actor_for_request, dashboard_view, error_sentence
from web.forms import CategoryAddForm, CategoryEditForm
from web.presentation import join_names
from web.views.common import next_url

PAGE = "/categories/"


def _seen_sentence(request: DashboardRequest, slug: str, sensitive: bool) -> str:
    """Who sees the category now, in one sentence."""
    apps = apps_seeing(request.user, [slug])[slug]
    if apps:
        names = join_names([a.name for a in apps])
        return ngettext("%(apps)s sees it.", "%(apps)s see it.", len(apps)) % {"apps": names}
    if sensitive:
        return _("No app sees it unless you tick it for that app on the Connected apps page.")
    return _("No connected app sees it.")


def _n_memories(n: int) -> str:
    return ngettext("%(n)d memory", "%(n)d memories", n) % {"n": n}


@require_GET
@dashboard_view
def categories_page(request: DashboardRequest) -> HttpResponse:
    actor = actor_for_request(request)
    rows = category_overview(actor=actor)
    context = {
        "rows": rows,
        "defaults": [r for r in rows if not r.custom],
        "own": [r for r in rows if r.custom],
        "notices": [r for r in rows if r.unreviewed],
        "add_form": CategoryAddForm(),
        "description_max": DESCRIPTION_MAX,
        "next": PAGE,
    }
    return render(request, "memories/categories.html", context)


@require_POST
@dashboard_view
def category_create(request: DashboardRequest) -> HttpResponse:
    form = CategoryAddForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Name the category (letters or digits)."))
        return redirect(PAGE)
    try:
        added = category_add(
            actor=actor_for_request(request),
            slug=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            sensitive=True if form.cleaned_data["sensitive"] else None,
        )
    except (InvalidInput, Conflict) as err:
        messages.error(request, error_sentence(err))
        return redirect(PAGE)
    category = added.category
    said = _("Added %(name)s.") % {"name": label(category.slug)}
    if added.means:
        said += " " + _(
            "It starts sensitive because its name looks like %(topic)s: use its Sensitive "
            "switch to share it."
        ) % {"topic": label(added.means)}
    messages.success(
        request, f"{said} {_seen_sentence(request, category.slug, category.sensitive)}"
    )
    return redirect(PAGE)


@require_POST
@dashboard_view
def category_sensitive(request: DashboardRequest, slug: str) -> HttpResponse:
    """Mark or unmark sensitive (the page's switch, and a new category's notice)."""
    sensitive = request.POST.get("sensitive") == "on"
    change = category_changes.category_update(
        actor=actor_for_request(request), slug=slug, sensitive=sensitive
    )
    name = label(change.slug)
    said = (
        _("%(name)s is sensitive: only the apps you ticked it for see it.")
        if sensitive
        else _("%(name)s is no longer sensitive.")
    ) % {"name": name}
    messages.success(request, f"{said} {_seen_sentence(request, change.slug, sensitive)}")
    return redirect(next_url(request, PAGE))


@require_POST
@dashboard_view
def category_edit(request: DashboardRequest, slug: str) -> HttpResponse:
    """Rename one of the owner's own categories and/or describe it, in one change."""
    form = CategoryEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the category a name (letters or digits)."))
        return redirect(PAGE)
    try:
        change = category_changes.category_update(
            actor=actor_for_request(request),
            slug=slug,
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
        )
    except (InvalidInput, Conflict) as err:
        messages.error(request, error_sentence(err))
        return redirect(PAGE)
    if change.slug == slug:
        messages.success(request, _("Saved %(name)s.") % {"name": label(change.slug)})
        return redirect(PAGE)
    values = {
        "old": label(slug),
        "new": label(change.slug),
        "memories": _n_memories(change.memories),
        "apps": join_names(change.apps),
    }
    if change.apps:
        said = (
            _(
                "Renamed %(old)s to %(new)s: %(memories)s follow, and so does the access of "
                "%(apps)s."
            )
            % values
        )
    else:
        said = _("Renamed %(old)s to %(new)s: %(memories)s follow.") % values
    if change.means:
        said += " " + _("It is now sensitive: its name looks like %(topic)s.") % {
            "topic": label(change.means)
        }
    messages.success(request, said)
    return redirect(PAGE)


@require_POST
@dashboard_view
def category_merge(request: DashboardRequest, slug: str) -> HttpResponse:
    into = request.POST.get("into", "")
    try:
        change = category_changes.category_merge(
            actor=actor_for_request(request), source=slug, into=into
        )
    except (InvalidInput, Conflict, NotFound) as err:
        messages.error(request, error_sentence(err))
        return redirect(PAGE)
    target = label(change.slug)
    sensitive = change.slug in sensitive_categories(request.user.pk)
    messages.success(
        request,
        _("Merged %(old)s into %(new)s: %(memories)s moved.")
        % {"old": label(slug), "new": target, "memories": _n_memories(change.memories)}
        + f" {target}: {_seen_sentence(request, change.slug, sensitive)}",
    )
    return redirect(PAGE)


@require_POST
@dashboard_view
def category_delete(request: DashboardRequest, slug: str) -> HttpResponse:
    try:
        change = category_changes.category_delete(actor=actor_for_request(request), slug=slug)
    except Conflict as err:
        messages.error(request, error_sentence(err))
        return redirect(PAGE)
    said = _("Deleted %(name)s: %(memories)s keep their other categories.") % {
        "name": label(change.slug),
        "memories": _n_memories(change.memories),
    }
    if change.kept_for:
        said += " " + _(
            "They stay hidden from apps you connect later and from every app but %(apps)s."
        ) % {"apps": join_names(change.kept_for)}
    elif change.kept_for is not None:
        said += " " + _("They stay hidden from apps you connect later and from every app.")
    elif change.hidden_from:
        said += " " + _("Apps that could not see it still cannot see those memories.")
    messages.success(request, said)
    return redirect(PAGE)


@require_POST
@dashboard_view
def category_reviewed(request: DashboardRequest, slug: str) -> HttpResponse:
    """A new category's notice: keep it as it is."""
    category_changes.category_reviewed(actor=actor_for_request(request), slug=slug)
    return redirect(next_url(request, PAGE))
