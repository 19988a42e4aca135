// Keyboard shortcuts of the change forms (announced on the page), and a warning before
// leaving a page whose changes are not saved.
//   Ctrl+S: save and continue · Ctrl+Enter: save and add another · Alt+1…4: proposition
//   1 to 4 is the right answer (the card composer handles these keys in its own slots).
"use strict";
(function () {
  function changeForm() {
    return document.querySelector("#content-main form[id$='_form']");
  }

  function press(form, names) {
    for (const name of names) {
      const button = form.querySelector(`input[type=submit][name='${name}']`);
      if (button) {
        button.click();
        return true;
      }
    }
    return false;
  }

  function markRight(form, number) {
    const group = form.querySelector("#propositions-group");
    if (!group) return false;
    const rows = Array.from(group.querySelectorAll("tbody tr.form-row:not(.empty-form)"))
      .filter((row) => !row.hidden);
    const row = rows[number - 1];
    const input = row && row.querySelector("input[type=checkbox][name$='-is_right']");
    if (!input) return false;
    input.checked = true;
    // Bubbles to the kind's rule (one right answer: the others are unticked).
    input.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  }

  function setUp() {
    const form = changeForm();
    if (!form) return;
    // Back on a page, the browser would put the editor's earlier typing over what is stored
    // now, under a fresh version the server takes as seen: another's save overwritten.
    form.setAttribute("autocomplete", "off");
    let dirty = false;
    let leaving = false;
    const touched = (event) => { if (event.isTrusted) dirty = true; };
    form.addEventListener("input", touched);
    form.addEventListener("change", touched);
    form.addEventListener("plateau:dirty", () => { dirty = true; });
    form.addEventListener("submit", () => { leaving = true; });
    window.addEventListener("beforeunload", (event) => {
      if (!dirty || leaving) return;
      event.preventDefault();
      event.returnValue = "";
    });

    document.addEventListener("keydown", (event) => {
      const ctrl = event.ctrlKey || event.metaKey;
      if (ctrl && !event.altKey && event.code === "KeyS") {
        if (press(form, ["_continue", "_save"])) event.preventDefault();
      } else if (ctrl && !event.altKey && event.key === "Enter") {
        if (press(form, ["_addanother", "_save"])) event.preventDefault();
      } else if (event.altKey && !ctrl && /^Digit[1-9]$/.test(event.code)) {
        if (markRight(form, Number(event.code.slice(5)))) {
          dirty = true;
          event.preventDefault();
        }
      }
    });
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
