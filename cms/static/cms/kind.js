// Say how the chosen content kind is composed, and offer as many blank rows as it needs.
"use strict";
(function () {
  function setUp() {
    const data = document.getElementById("plateau-kind-shapes");
    const summary = document.getElementById("plateau-kind-summary");
    const select = document.getElementById("id_kind");
    if (!data || !summary || !select) return;
    const shapes = JSON.parse(data.textContent);
    const group = document.getElementById(summary.dataset.rowsGroup);
    const hint = document.createElement("div");
    hint.className = "help plateau-kind-hint";
    (select.closest(".flex-container") || select).after(hint);
    summary.remove();

    function update() {
      const shape = shapes[select.value];
      hint.textContent = shape ? shape.summary : "";
      if (!shape || !group) return;
      const addLink = group.querySelector(".add-row a");
      const rows = () => group.querySelectorAll("tbody tr.form-row:not(.empty-form)").length;
      let guard = 50;
      while (addLink && rows() < shape.rows && guard-- > 0) addLink.click();
    }
    select.addEventListener("change", update);
    update();
  }
  // After Django's inlines.js has set up the "add another" links.
  window.addEventListener("load", setUp);
})();
