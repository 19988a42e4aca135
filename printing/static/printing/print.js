// Redraw the preview of the first sheet a moment after the maker changes an option.
"use strict";
(function () {
  const DELAY = 300; // ms: one request once the maker stops typing, not one per keystroke

  function listItem(row, wholeGame) {
    const item = document.createElement("li");
    item.className = "plateau-error";
    if (row.url) {
      const link = document.createElement("a");
      link.href = row.url;
      link.textContent = row.target;
      item.append(link, " : ");
    } else if (row.target !== null) {
      item.append((row.target || wholeGame) + " : ");
    }
    item.append(row.message);
    return item;
  }

  function showProblems(box, answer) {
    box.replaceChildren();
    const problems = answer.problems || [];
    const errors = answer.errors || [];
    const note = document.createElement("p");
    note.className = "errornote";
    note.textContent = problems.length ? box.dataset.refused : box.dataset.invalid;
    const list = document.createElement("ul");
    list.className = "plateau-problems";
    for (const row of problems) list.append(listItem(row, box.dataset.wholeGame));
    for (const error of errors) list.append(listItem({message: error, target: null}, ""));
    if (!problems.length && !errors.length) note.textContent = box.dataset.unavailable;
    box.append(note, list);
  }

  function setUp() {
    const form = document.getElementById("plateau-print-form");
    const image = document.getElementById("plateau-print-preview");
    const box = document.getElementById("plateau-print-problems");
    if (!form || !image || !box) return;
    const figure = image.closest("figure");
    let timer = null;

    // The options, without the CSRF token that « Préparer le PDF » posts with them.
    function formQuery() {
      const query = new URLSearchParams(new FormData(form));
      query.delete("csrfmiddlewaretoken");
      return query.toString();
    }

    function refresh() {
      figure.classList.add("plateau-print-busy");
      image.src = form.dataset.previewBase + "?" + formQuery();
    }

    function shown() {
      figure.classList.remove("plateau-print-busy");
      image.hidden = false;
      box.replaceChildren();
    }

    // An image that does not load is a JSON answer saying why: ask again to read it.
    function refused() {
      const failed = image.src;
      fetch(failed, {credentials: "same-origin"})
        .then((response) => response.json())
        .then((answer) => {
          if (image.src !== failed) return;
          showProblems(box, answer);
        })
        .catch(() => {
          if (image.src !== failed) return;
          showProblems(box, {});
        })
        .finally(() => {
          if (image.src !== failed) return;
          figure.classList.remove("plateau-print-busy");
          image.hidden = true;
        });
    }

    image.addEventListener("load", shown);
    image.addEventListener("error", refused);
    // The first preview may have answered before this script ran.
    if (image.getAttribute("src") && image.complete) {
      if (image.naturalWidth > 0) shown(); else refused();
    }
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, DELAY);
    });
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
