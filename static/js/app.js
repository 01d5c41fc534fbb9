/* Context Layer dashboard: small behaviours htmx does not cover. No inline script anywhere
   (the Content-Security-Policy forbids it), so everything is wired here by data attributes:

   data-copy="#id"        copies that element's value or text
   data-dismiss="#id"     empties that element
   data-menu              a <details> menu: closes on a click outside, on Escape, when another opens
   data-escape            Escape inside it cancels: closes a <details>, or clicks its [data-cancel]
   data-cancel            the safe way out of a [data-escape] region
   data-autofocus         gets the focus when it arrives (page load or htmx swap)
   data-open-focus="#id"  on a <details>: opened (a click, or Enter on its summary), the focus goes
                          to that field, so a person types at once
   data-key / data-focus-after
                          after htmx replaces a row, the focus goes back to the control with the
                          same key (or the key named by data-focus-after) in the new row; when the
                          row is gone, to the next row (or the previous one, or the list)
   time[data-local]       a time the server wrote in UTC, rewritten in the browser's own zone
                          (datetime / seconds / short / date; "ago" keeps its words), with the
                          zone in its title
   body[data-canonical-path]  the address bar shows it when the page was answered elsewhere
   data-toggle-filters    shows or folds the filters it controls (a phone shows only search)
   .site-nav              on a phone, one row that scrolls sideways: the current page's link is
                          scrolled into sight
   Enter on a checkbox or radio button never submits its form (Space ticks it)
   Ctrl+Enter / Cmd+Enter in a textarea submits its form
   #memory-rows           ↓ from the search box to the first result, ↓/↑ or j/k between results,
                          Enter opens the focused result, e edits it (shortcuts listed on the page)
   data-max-chars + data-count-for
                          a live character count next to a text box with a limit */
(function () {
  "use strict";
  var KEY = "contextlayer.hideText";
  var root = document.documentElement;

  // Apply "hide text" before the body paints, so memory text never flashes on a shared screen.
  function hidden() {
    try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  root.classList.toggle("hide-text", hidden());

  function syncToggle() {
    var button = document.getElementById("hide-text-toggle");
    if (button) button.setAttribute("aria-pressed", hidden() ? "true" : "false");
  }

  function selectBoxes() {
    return document.querySelectorAll('input.select[form="bulk-form"]');
  }

  function updateSelection() {
    var boxes = selectBoxes();
    var checked = 0;
    boxes.forEach(function (b) { if (b.checked) checked += 1; });
    var count = document.getElementById("selected-count");
    if (count) count.textContent = checked + " selected";
    var all = document.getElementById("select-all");
    if (all) {
      all.checked = boxes.length > 0 && checked === boxes.length;
      all.indeterminate = checked > 0 && checked < boxes.length;
    }
    var apply = document.getElementById("bulk-apply");
    if (apply) apply.disabled = checked === 0;
    var bar = document.getElementById("bulk-form");
    if (bar) bar.classList.toggle("has-selection", checked > 0);
  }

  function updateBulkFields() {
    var action = document.getElementById("bulk-action");
    document.querySelectorAll("[data-show-for]").forEach(function (el) {
      el.hidden = !action || action.value !== el.getAttribute("data-show-for");
    });
  }

  function countChars(box) {
    var out = document.querySelector('[data-count-for="' + box.id + '"]');
    var max = parseInt(box.getAttribute("data-max-chars"), 10);
    if (!out || !max) return;
    var n = Array.from(box.value).length;
    out.classList.toggle("over", n > max);
    // The server's error next to the box already says the text is too long: say it once.
    if (n > max && document.getElementById(box.id + "-error")) {
      out.textContent = "";
      return;
    }
    if (n > max) {
      out.textContent = n.toLocaleString() + " characters; the limit is " + max.toLocaleString() + ".";
    } else if (n > 0) {
      out.textContent = n.toLocaleString() + " of " + max.toLocaleString() + " characters.";
    } else {
      out.textContent = "Up to " + max.toLocaleString() + " characters.";
    }
  }

  function copy(button) {
    var target = document.querySelector(button.getAttribute("data-copy"));
    if (!target) return;
    var text = target.value !== undefined ? target.value : target.textContent;
    var done = function () {
      var label = button.firstChild;
      var old = label.textContent;
      label.textContent = "Copied";
      setTimeout(function () { label.textContent = old; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done);
    } else {
      var range = document.createRange();
      range.selectNodeContents(target);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      if (document.execCommand("copy")) done();
    }
  }

  // --- Times in the owner's own zone --------------------------------------------------------
  function zoneName(date) {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* old */ }
    var minutes = -date.getTimezoneOffset();
    var sign = minutes < 0 ? "-" : "+";
    minutes = Math.abs(minutes);
    var offset = "UTC" + sign + String(Math.floor(minutes / 60)).padStart(2, "0") + ":" +
      String(minutes % 60).padStart(2, "0");
    return zone && zone !== "UTC" ? zone + " (" + offset + ")" : offset;
  }

  var TIME_STYLES = {
    datetime: { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" },
    seconds: { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" },
    short: { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" },
    date: { day: "numeric", month: "short", year: "numeric" }
  };

  function localTime(date, style) {
    var options = Object.assign({ hourCycle: "h23" }, TIME_STYLES[style] || TIME_STYLES.datetime);
    return new Intl.DateTimeFormat("en-GB", options).format(date);
  }

  function localTimes(root) {
    (root || document).querySelectorAll("time[data-local]").forEach(function (el) {
      var date = new Date(el.getAttribute("datetime"));
      if (isNaN(date.getTime())) return;
      var style = el.getAttribute("data-local");
      el.title = localTime(date, "seconds") + " " + zoneName(date);
      if (style !== "ago") el.textContent = localTime(date, style);
      el.removeAttribute("data-local");
    });
  }

  // The server groups some dates by day (the activity chart): tell it this browser's zone
  // (kernel/owner_zone.py), a first-party cookie read by this server only.
  function reportZone() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    if (!zone || document.cookie.indexOf("tz=" + encodeURIComponent(zone)) >= 0) return;
    document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; SameSite=Lax" +
      (window.location.protocol === "https:" ? "; Secure" : "");
  }

  function focusFirst(selector) {
    var el = document.querySelector(selector);
    if (!el) return false;
    el.setAttribute("data-focused", "");
    el.focus();
    return true;
  }

  function closeDetails(details, refocus) {
    details.open = false;
    var summary = details.querySelector("summary");
    if (refocus && summary) summary.focus();
  }

  // Escape, or a [data-cancel] control: leave the region the safe way.
  function cancel(region) {
    if (region.tagName === "DETAILS") {
      closeDetails(region, true);
      return;
    }
    var way = region.querySelector("[data-cancel]");
    if (way) {
      way.focus();  // so the focus returns where the cancel control says (data-focus-after)
      way.click();
    }
  }

  // `toggle` does not bubble: listened for on its way down.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !details.open) return;
    var target = details.getAttribute("data-open-focus");
    var field = target && details.querySelector(target);
    if (field) field.focus();
  }, true);

  document.addEventListener("click", function (event) {
    document.querySelectorAll("details[data-menu][open]").forEach(function (menu) {
      if (!menu.contains(event.target)) menu.open = false;
    });
    var toggle = event.target.closest("[data-toggle-filters]");
    if (toggle) {
      var form = document.getElementById(toggle.getAttribute("aria-controls"));
      var open = form && form.classList.toggle("open");
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      return;
    }
    var el = event.target.closest("[data-copy], [data-dismiss], #hide-text-toggle, details [data-cancel]");
    if (!el) return;
    if (el.id === "hide-text-toggle") {
      var on = !hidden();
      try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* private mode */ }
      root.classList.toggle("hide-text", on);
      syncToggle();
    } else if (el.hasAttribute("data-copy")) {
      copy(el);
    } else if (el.hasAttribute("data-dismiss")) {
      var box = document.querySelector(el.getAttribute("data-dismiss"));
      if (box) box.innerHTML = "";
      var region = document.getElementById("bulk-apply");
      if (region && el.getAttribute("data-dismiss") === "#bulk-confirm") region.focus();
    } else {
      closeDetails(el.closest("details"), true);
    }
  });

  // One menu open at a time.
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.matches || !opened.matches("details[data-menu]") || !opened.open) return;
    document.querySelectorAll("details[data-menu][open]").forEach(function (menu) {
      if (menu !== opened) menu.open = false;
    });
  }, true);

  document.addEventListener("change", function (event) {
    var t = event.target;
    if (t.id === "select-all") {
      selectBoxes().forEach(function (b) { b.checked = t.checked; });
    }
    if (t.id === "bulk-action") updateBulkFields();
    updateSelection();
  });

  // An error about a box's text is about the text as it was sent: once the person edits it, the
  // error goes and the live count (for a box with a limit) speaks instead.
  function clearError(box) {
    var error = box.id && document.getElementById(box.id + "-error");
    if (!error) return;
    error.remove();
    box.removeAttribute("aria-invalid");
    var described = (box.getAttribute("aria-describedby") || "").split(" ").filter(function (id) {
      return id && id !== error.id;
    });
    box.setAttribute("aria-describedby", described.join(" "));
  }

  document.addEventListener("input", function (event) {
    var box = event.target;
    if (!box.hasAttribute) return;
    if (box.getAttribute("aria-invalid") === "true") clearError(box);
    if (box.hasAttribute("data-max-chars")) countChars(box);
  });

  // "/" focuses search, as on most sites; Escape leaves a box, a menu, an editor, a confirmation.
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var tag = (target.tagName || "").toLowerCase();
    var typing = tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
    var search = document.getElementById("f-q");
    // Enter on a checkbox would submit its form with the first submit button (Chromium skips a
    // disabled default button for checkboxes): on the consent page that is Allow. Space ticks;
    // Enter does nothing, so a submission is always a deliberate press of a button.
    if (event.key === "Enter" && tag === "input" && (target.type === "checkbox" || target.type === "radio")) {
      event.preventDefault();
      return;
    }
    // Ctrl+Enter (Cmd+Enter on a Mac) in a text box sends its form, as in most editors.
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && tag === "textarea" && target.form) {
      event.preventDefault();
      target.form.requestSubmit();
      return;
    }
    // The results by keyboard: ↓ from the search box to the first result; ↓/↑ (or j/k) from row to
    // row; Enter opens the focused row, e edits it.
    if (!event.ctrlKey && !event.metaKey && !event.altKey && resultKeys(event, target, typing, search)) {
      event.preventDefault();
      return;
    }
    if (event.key === "/" && !typing && search) {
      event.preventDefault();
      search.focus();
      return;
    }
    if (event.key !== "Escape") return;
    if (target === search) {
      search.blur();
      return;
    }
    var menu = target.closest && target.closest("details[data-menu][open]");
    var region = menu || (target.closest && target.closest("[data-escape]"));
    if (!region) region = document.querySelector("details[data-menu][open], details.add-memory[open]");
    if (!region || (region.tagName === "DETAILS" && !region.open)) return;
    event.preventDefault();
    cancel(region);
  });

  function resultRows() {
    return Array.prototype.slice.call(document.querySelectorAll("#memory-rows > li.memory"));
  }

  function resultKeys(event, target, typing, search) {
    var key = event.key;
    if (target === search) {
      if (key !== "ArrowDown") return false;
      var first = resultRows()[0];
      if (first) first.focus();
      return Boolean(first);
    }
    var row = !typing && target.closest && target.closest("#memory-rows > li.memory");
    if (!row || row.classList.contains("editing") || row.classList.contains("confirming")) return false;
    var rows = resultRows();
    var at = rows.indexOf(row);
    if (key === "ArrowDown" || key === "j") {
      if (at + 1 < rows.length) rows[at + 1].focus();
      return true;
    }
    if (key === "ArrowUp" || key === "k") {
      if (at > 0) rows[at - 1].focus();
      else if (search) search.focus();
      return true;
    }
    if (key === "Enter" && target === row) {
      var open = row.querySelector('[data-key="open"]');
      if (open) open.click();
      return Boolean(open);
    }
    if (key === "e" || key === "E") {
      var edit = row.querySelector('[data-key="edit"]');
      if (edit) edit.click();
      return Boolean(edit);
    }
    return false;
  }

  // --- htmx swaps: keep the focus and the selection where the person left them ------------
  var focusPlan = null;
  var keptSelection = null;

  function rowIds(row) {
    var near = [];
    var sibling = row.nextElementSibling;
    while (sibling && !sibling.matches("li.memory")) sibling = sibling.nextElementSibling;
    if (sibling) near.push(sibling.id);
    sibling = row.previousElementSibling;
    while (sibling && !sibling.matches("li.memory")) sibling = sibling.previousElementSibling;
    if (sibling) near.push(sibling.id);
    return near;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var active = document.activeElement;
    if (target && active && active !== document.body && target.contains(active)) {
      var row = active.closest("li.memory");
      focusPlan = row ? {
        row: row.id,
        key: active.getAttribute("data-focus-after") || active.getAttribute("data-key"),
        near: rowIds(row)
      } : { row: null, key: null, near: [] };
      // The swap runs right after this event. A removed row fires no settle event the document
      // can hear (it is detached), so look at the focus once the swap is done.
      setTimeout(settleFocus, 0);
    }
    if (target && target.id === "results" && event.detail.requestConfig &&
        event.detail.requestConfig.verb === "get") {
      keptSelection = [];
      selectBoxes().forEach(function (b) { if (b.checked) keptSelection.push(b.value); });
    }
  });

  // htmx processes swapped-in content only at its settle, 20 ms later: a key pressed in between
  // on a link or form there (focused by the code below, or a person's quick Enter) would follow
  // its plain href or submit without htmx. Process it as soon as it is in the page (htmx does
  // nothing twice).
  document.addEventListener("htmx:afterSwap", function (event) {
    if (window.htmx && event.target.isConnected) window.htmx.process(event.target);
  });

  // Where the focus goes after a swap: what the response asks for ([data-autofocus]), else back
  // where it was (the same control in the new row), else the next row, else the list.
  function settleFocus() {
    if (focusFirst("[data-autofocus]:not([data-focused])")) {
      focusPlan = null;
      return;
    }
    var plan = focusPlan;
    var lost = !document.activeElement || document.activeElement === document.body;
    if (!plan || !lost) return;
    focusPlan = null;
    var row = plan.row && document.getElementById(plan.row);
    if (row) {
      var same = plan.key && row.querySelector('[data-key="' + plan.key + '"]');
      (same || row.querySelector("[data-key]") || row).focus();
      return;
    }
    for (var i = 0; i < plan.near.length; i++) {
      var near = document.getElementById(plan.near[i]);
      if (near) {
        (near.querySelector("[data-key]") || near).focus();
        return;
      }
    }
    var results = document.getElementById("results");
    if (results) results.focus();
  }

  document.addEventListener("htmx:afterSettle", function () {
    if (keptSelection) {
      selectBoxes().forEach(function (b) { if (keptSelection.indexOf(b.value) >= 0) b.checked = true; });
      keptSelection = null;
    }
    settleFocus();
    document.querySelectorAll("[data-max-chars]").forEach(countChars);
    updateSelection();
    localTimes();
  });

  function showCurrentPage() {
    var nav = document.querySelector(".site-nav");
    var here = nav && nav.querySelector('a[aria-current="page"]:not([hidden])');
    if (!here || nav.scrollWidth <= nav.clientWidth || here.offsetParent === null) return;
    nav.scrollLeft = here.offsetLeft - nav.offsetLeft - (nav.clientWidth - here.offsetWidth) / 2;
  }

  document.addEventListener("DOMContentLoaded", function () {
    // A page answered at another address (allauth replays a POST at /accounts/reauthenticate/)
    // shows its own in the address bar, so a reload or a bookmark lands on the page, not a form.
    var canonical = document.body.getAttribute("data-canonical-path");
    if (canonical && window.location.pathname !== canonical) {
      window.history.replaceState(null, "", canonical);
    }
    syncToggle();
    showCurrentPage();
    updateSelection();
    updateBulkFields();
    document.querySelectorAll("[data-max-chars]").forEach(countChars);
    localTimes();
    reportZone();
    focusFirst("[data-autofocus]");
  });
})();
