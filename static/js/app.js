/* Context Layer dashboard: small behaviours htmx does not cover. No inline script anywhere
   (the Content-Security-Policy forbids it), so everything is wired here by data attributes. */
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

  function updateSelection() {
    var boxes = document.querySelectorAll('input.select[form="bulk-form"]');
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

  document.addEventListener("click", function (event) {
    var el = event.target.closest("[data-copy], [data-dismiss], #hide-text-toggle");
    if (!el) return;
    if (el.id === "hide-text-toggle") {
      var on = !hidden();
      try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* private mode */ }
      root.classList.toggle("hide-text", on);
      syncToggle();
    } else if (el.hasAttribute("data-copy")) {
      copy(el);
    } else {
      var box = document.querySelector(el.getAttribute("data-dismiss"));
      if (box) box.innerHTML = "";
    }
  });

  document.addEventListener("change", function (event) {
    var t = event.target;
    if (t.id === "select-all") {
      document.querySelectorAll('input.select[form="bulk-form"]').forEach(function (b) {
        b.checked = t.checked;
      });
    }
    if (t.id === "bulk-action") updateBulkFields();
    updateSelection();
  });

  // "/" focuses search, as on most sites; Escape leaves it.
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    var typing = tag === "input" || tag === "textarea" || tag === "select" || event.target.isContentEditable;
    var search = document.getElementById("f-q");
    if (event.key === "/" && !typing && search) {
      event.preventDefault();
      search.focus();
    } else if (event.key === "Escape" && event.target === search) {
      search.blur();
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (form.hasAttribute && form.hasAttribute("data-reset-on-success") && event.detail.successful) {
      form.reset();
    }
  });

  // After htmx swaps in an edit form or a confirmation, put the keyboard focus in it.
  document.addEventListener("htmx:afterSettle", function () {
    var focus = document.querySelector("[data-autofocus]:not([data-focused])");
    if (focus) {
      focus.setAttribute("data-focused", "");
      focus.focus();
    }
    updateSelection();
  });

  document.addEventListener("DOMContentLoaded", function () {
    syncToggle();
    updateSelection();
    updateBulkFields();
  });
})();
