// Shape the form to the chosen content kind: say how it is composed, show only its fields,
// exactly its proposition rows (right under the question text), preset and constrain which
// are right or hidden as the kind requires.
"use strict";
(function () {
  const OPTIONAL = ["step", "answer", "variants", "image", "image_preview"];

  function rowsOf(group) {
    return Array.from(group.querySelectorAll("tbody tr.form-row:not(.empty-form)"));
  }

  function textOf(row) {
    const input = row.querySelector("input[name$='-text']");
    return input ? input.value.trim() : "";
  }

  function box(row, name) {
    return row.querySelector(`input[type=checkbox][name$='-${name}']`);
  }

  // Hidden by a class as well: Django's scripts show some rows with an inline display.
  function hide(node, off) {
    node.hidden = off;
    node.classList.toggle("plateau-off", off);
  }

  function setBox(input, value) {
    if (input && input.checked !== value) input.checked = value;
  }

  // A field the kind does not have is hidden and disabled: never posted, never in the way.
  function shapeFields(form, shape) {
    OPTIONAL.forEach((name) => {
      form.querySelectorAll(`.form-row.field-${name}`).forEach((row) => {
        const off = shape.without.includes(name);
        hide(row, off);
        row.querySelectorAll("input, select, textarea").forEach((field) => { field.disabled = off; });
      });
    });
    form.querySelectorAll("fieldset.module").forEach((fieldset) => {
      if (fieldset.closest(".inline-group")) return;
      const rows = Array.from(fieldset.querySelectorAll(".form-row"));
      hide(fieldset, rows.length > 0 && rows.every((row) => row.hidden));
    });
  }

  function shapeRows(group, shape, changed) {
    const wanted = shape.propositions;
    hide(group, wanted === 0 && rowsOf(group).every((row) => !textOf(row)));
    const addLink = group.querySelector(".add-row a");
    let guard = 50;
    while (addLink && rowsOf(group).length < wanted && guard-- > 0) addLink.click();
    if (addLink) hide(addLink.closest(".add-row"), true);
    rowsOf(group).forEach((row, index) => {
      const extra = index >= wanted;
      if (extra && (changed || !textOf(row))) {
        // Emptied, a row goes on save: the kind has no place for it.
        const input = row.querySelector("input[name$='-text']");
        if (input) input.value = "";
        setBox(box(row, "is_right"), false);
        setBox(box(row, "is_hidden"), false);
      }
      hide(row, extra && !textOf(row));
      // A blank row takes the kind's presets: the last ones hidden, every one right when
      // only one is the intruder.
      if (!extra && !textOf(row) && !row.classList.contains("has_original")) {
        setBox(box(row, "is_hidden"), shape.hidden_presets[index]);
        setBox(box(row, "is_right"), shape.right_presets[index]);
      }
    });
    const noHidden = shape.hidden === 0;
    group.querySelectorAll("th.column-is_hidden, td.field-is_hidden").forEach((cell) => {
      hide(cell, noHidden);
    });
  }

  // One right answer (or one hidden, or one intruder): ticking one moves the tick there.
  function constrain(group, shapeNow) {
    group.addEventListener("change", (event) => {
      const shape = shapeNow();
      const target = event.target;
      if (!shape || target.type !== "checkbox") return;
      const rows = rowsOf(group).filter((row) => !row.hidden);
      const name = target.name.endsWith("-is_right") ? "is_right"
        : target.name.endsWith("-is_hidden") ? "is_hidden" : "";
      if (!name) return;
      const only = name === "is_right" ? shape.right : shape.hidden;
      const intruder = name === "is_right" && shape.propositions - shape.right === 1 && shape.right > 1;
      rows.forEach((row) => {
        const other = box(row, name);
        if (!other || other === target) return;
        if (only === 1 && target.checked) setBox(other, false);
        if (intruder && !target.checked) setBox(other, true);
      });
    });
  }

  function setUp() {
    const data = document.getElementById("plateau-kind-shapes");
    const summary = document.getElementById("plateau-kind-summary");
    const select = document.getElementById("id_kind");
    if (!data || !summary || !select) return;
    const shapes = JSON.parse(data.textContent);
    const group = document.getElementById(summary.dataset.rowsGroup);
    const form = select.closest("form");
    const composing = Boolean(document.getElementById("plateau-composer-data"));
    const questionForm = group && group.id === "propositions-group";
    const hint = document.createElement("div");
    hint.className = "help plateau-kind-hint";
    (select.closest(".flex-container") || select).after(hint);
    summary.remove();
    if (questionForm) {
      // The propositions go right under the question's text.
      const text = form.querySelector(".form-row.field-text");
      if (text) text.after(group);
      group.classList.add("plateau-propositions-first");
      constrain(group, () => shapes[select.value]);
    }

    function update(changed) {
      const shape = shapes[select.value];
      hint.textContent = shape ? shape.summary : "";
      if (!shape) return;
      if (questionForm) {
        shapeFields(form, shape);
        shapeRows(group, shape, changed);
      } else if (group && !composing) {
        const addLink = group.querySelector(".add-row a");
        const rows = () => rowsOf(group).length;
        let guard = 50;
        while (addLink && rows() < shape.rows && guard-- > 0) addLink.click();
      }
    }
    select.addEventListener("change", () => update(true));
    update(false);
  }
  // After Django's inlines.js has made its "add another" rows: it does so in a jQuery ready
  // handler, which jQuery runs asynchronously and may run after "load"; a handler queued on
  // jQuery's ready at "load" runs after it.
  window.addEventListener("load", () => {
    if (window.django && window.django.jQuery) window.django.jQuery(setUp);
    else setUp();
  });
})();
