/* The site opened from disk (file://): browsers refuse the worker the search runs in, which then
   waits at "Initializing search" forever. Say how to open the site instead (README.md,
   "Documentation"); served, by `uv run mkdocs serve` or any web server, search works. */
(function () {
  "use strict";
  if (window.location.protocol !== "file:") return;
  var said = "Search needs the site served: uv run mkdocs serve";
  document.querySelectorAll("input.md-search__input").forEach(function (box) {
    box.disabled = true;
    box.placeholder = said;
    box.title = said + " (or serve the built site/ folder with any web server)";
  });
})();
