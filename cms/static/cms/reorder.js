// Reorder inline rows with up/down buttons; positions are renumbered from the page order.
"use strict";
(function () {
  function rows(group) {
    return Array.from(group.querySelectorAll("tbody tr.form-row"))
      .filter((row) => !row.classList.contains("empty-form"));
  }

  // A blank extra row must keep its initial position, or Django would validate it as changed.
  function filled(row) {
    if (row.classList.contains("has_original")) return true;
    return Array.from(row.querySelectorAll("input:not([type=hidden]):not([type=checkbox]), select, textarea"))
      .some((field) => field.value.trim() !== "");
  }

  function renumber(group) {
    let position = 0;
    rows(group).forEach((row) => {
      const input = row.querySelector("input[name$='-position']");
      if (!input) return;
      input.value = filled(row) ? ++position : input.defaultValue;
    });
  }

  function button(label, title, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.title = title;
    b.setAttribute("aria-label", title);
    b.addEventListener("click", onClick);
    return b;
  }

  function decorate(group, row) {
    const cell = row.querySelector("td.field-move");
    // Read-only pages (a reader's) have no position to change: no buttons there.
    if (!cell || cell.dataset.decorated || !row.querySelector("input[name$='-position']")) return;
    cell.dataset.decorated = "1";
    cell.classList.add("plateau-move");
    cell.textContent = "";
    cell.append(
      button("▲", gettext("Monter"), () => {
        const previous = row.previousElementSibling;
        if (previous && previous.classList.contains("form-row")) previous.before(row);
        renumber(group);
      }),
      button("▼", gettext("Descendre"), () => {
        const next = row.nextElementSibling;
        if (next && next.classList.contains("form-row") && !next.classList.contains("empty-form")) {
          next.after(row);
        }
        renumber(group);
      })
    );
  }

  function setUp() {
    document.querySelectorAll(".inline-group .plateau-sortable, .inline-group.plateau-sortable")
      .forEach((node) => {
        const group = node.closest(".inline-group");
        rows(group).forEach((row) => decorate(group, row));
        group.closest("form").addEventListener("submit", () => renumber(group));
      });
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("formset:added", (event) => {
    const group = event.target.closest(".inline-group");
    if (group && group.querySelector(".plateau-sortable")) {
      decorate(group, event.target);
      renumber(group);
    }
  });
})();
