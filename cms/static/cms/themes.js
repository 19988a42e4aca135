// The theme field offers the themes of the game of the kind chosen, as the editor types:
// matched without accents or case, picked with a click or the arrow keys and Enter. Any
// other text is a new theme, created on save. Each game's themes are a <datalist>.
"use strict";
(function () {
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/œ/g, "oe").replace(/æ/g, "ae").replace(/[^a-z0-9]+/g, " ").trim();
  }

  function setUp() {
    const input = document.querySelector("input[data-theme-games]");
    if (!input) return;
    const games = JSON.parse(input.dataset.themeGames);
    const select = document.getElementById("id_kind");
    let names = [];
    let active = -1;
    const list = document.createElement("ul");
    list.className = "plateau-theme-suggestions";
    list.id = input.id + "-suggestions";
    list.setAttribute("role", "listbox");
    list.hidden = true;
    input.after(list);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-expanded", "false");

    function follow() {
      const game = select ? games[select.value] : null;
      const source = document.getElementById("plateau-themes-" + (game || "")) ||
        document.getElementById(input.getAttribute("list") || "");
      names = source ? Array.from(source.options, (option) => option.value) : [];
      input.removeAttribute("list");  // this list replaces the browser's own
    }

    function close() {
      list.hidden = true;
      active = -1;
      input.setAttribute("aria-expanded", "false");
    }

    function show() {
      const typed = fold(input.value);
      const words = typed ? typed.split(" ") : [];
      const found = names.filter((name) => {
        const folded = fold(name);
        return words.every((word) => folded.includes(word)) && folded !== typed;
      }).slice(0, 8);
      list.replaceChildren(...found.map((name, index) => {
        const item = document.createElement("li");
        item.textContent = name;
        item.setAttribute("role", "option");
        item.id = list.id + "-" + index;
        item.addEventListener("mousedown", (event) => {
          event.preventDefault();
          pick(name);
        });
        return item;
      }));
      active = -1;
      list.hidden = found.length === 0;
      if (!list.hidden) place();
      input.setAttribute("aria-expanded", String(!list.hidden));
    }

    function place() {
      // Just below the field, measured from the list's own positioned ancestor.
      const parent = list.offsetParent || document.body;
      const field = input.getBoundingClientRect();
      const frame = parent.getBoundingClientRect();
      list.style.top = (field.bottom - frame.top + parent.scrollTop + 2) + "px";
      list.style.left = (field.left - frame.left + parent.scrollLeft) + "px";
    }

    function pick(name) {
      input.value = name;
      close();
    }

    function highlight(index) {
      const items = list.querySelectorAll("li");
      if (!items.length) return;
      active = (index + items.length) % items.length;
      items.forEach((item, n) => item.classList.toggle("active", n === active));
      input.setAttribute("aria-activedescendant", items[active].id);
    }

    input.addEventListener("input", show);
    input.addEventListener("focus", show);
    input.addEventListener("blur", close);
    input.addEventListener("keydown", (event) => {
      if (list.hidden) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        highlight(active + (event.key === "ArrowDown" ? 1 : -1));
      } else if (event.key === "Enter" && active >= 0) {
        event.preventDefault();
        pick(list.querySelectorAll("li")[active].textContent);
      } else if (event.key === "Escape") {
        close();
      }
    });
    if (select) select.addEventListener("change", follow);
    follow();
  }
  document.addEventListener("DOMContentLoaded", setUp);
})();
