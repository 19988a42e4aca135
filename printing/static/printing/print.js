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

  // The same options, whatever their order and encoding in each address.
  function sameOptions(one, other) {
    const [a, b] = [new URLSearchParams(one), new URLSearchParams(other)];
    a.sort();
    b.sort();
    return a.toString() === b.toString();
  }

  function setUp() {
    const form = document.getElementById("plateau-print-form");
    const image = document.getElementById("plateau-print-preview");
    const box = document.getElementById("plateau-print-problems");
    if (!form || !image || !box) return;
    const figure = image.closest("figure");
    let timer = null;

    function formQuery() {
      return new URLSearchParams(new FormData(form)).toString();
    }

    // The options a download was refused for. Its reasons are the whole truth for them (the
    // preview checks one sheet): they stay on screen until a preview of other options
    // answers, clean or with problems of its own.
    let refusedFor = "downloadRefused" in box.dataset ? formQuery() : null;

    function refusalStands(src) {
      return refusedFor !== null && sameOptions(new URL(src, location.href).search, refusedFor);
    }

    function refresh() {
      figure.classList.add("plateau-print-busy");
      image.src = form.dataset.previewBase + "?" + formQuery();
    }

    function shown() {
      figure.classList.remove("plateau-print-busy");
      image.hidden = false;
      if (refusalStands(image.src)) return;
      refusedFor = null;
      box.replaceChildren();
    }

    // An image that does not load is a JSON answer saying why: ask again to read it.
    function refused() {
      const failed = image.src;
      fetch(failed, {credentials: "same-origin"})
        .then((response) => response.json())
        .then((answer) => {
          if (image.src !== failed || refusalStands(failed)) return;
          refusedFor = null;
          showProblems(box, answer);
        })
        .catch(() => {
          if (image.src !== failed || refusalStands(failed)) return;
          refusedFor = null;
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
