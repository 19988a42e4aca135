// The card composer: write the card's questions on its own page, or pick existing ones;
// reorder by drag or Alt+↑/↓; each slot shows its difficulty, right answer and hidden
// proposition; the server checks the card as composed (cms.validation) while one types.
"use strict";
(function () {
  const NBSP = "\u00a0";
  const CHECK_DELAY = 350;
  const SEARCH_DELAY = 250;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([name, value]) => {
      if (value === false || value === null || value === undefined) return;
      if (name === "className") node.className = value;
      else if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    });
    children.flat().forEach((child) => {
      if (child !== null && child !== undefined && child !== false) {
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
      }
    });
    return node;
  }

  function debounce(fn, delay) {
    let timer = null;
    return (...args) => {
      clearTimeout(timer);
      timer = setTimeout(() => fn(...args), delay);
    };
  }

  function letter(index) {
    return String.fromCharCode(65 + index);
  }

  function setUp() {
    const dataNode = document.getElementById("plateau-composer-data");
    const mount = document.getElementById("plateau-composer-mount");
    const shapesNode = document.getElementById("plateau-kind-shapes");
    if (!dataNode || !mount || !shapesNode) return;
    const config = JSON.parse(dataNode.textContent);
    const shapes = JSON.parse(shapesNode.textContent);
    const form = mount.closest("form");
    const kindSelect = document.getElementById("id_kind");
    const titleInput = document.getElementById("id_title");
    const posted = document.getElementById("plateau-composer-input");
    const problemList = document.getElementById("plateau-composer-problems");
    const csrf = form.querySelector("input[name=csrfmiddlewaretoken]");
    posted.disabled = false;
    const legacy = document.getElementById("slots-group");
    if (legacy) legacy.hidden = true;

    const kind = () => (kindSelect ? kindSelect.value : config.kind) || config.kind;
    const shape = () => shapes[kind()];
    let errors = config.errors || {};

    function blank() {
      return { picked: null, text: "", difficulty: "", difficultyTouched: false, answer: "",
        answerTouched: false, propositions: [] };
    }

    function fromState(state) {
      if (state && state.question) return { ...blank(), picked: state };
      const slot = blank();
      if (!state) return slot;
      slot.text = state.text || "";
      slot.difficulty = state.difficulty === null || state.difficulty === undefined ? "" : String(state.difficulty);
      slot.difficultyTouched = slot.difficulty !== "";
      slot.answer = state.answer || "";
      slot.answerTouched = Boolean(slot.answer);
      slot.propositions = (state.propositions || []).map((row) => ({ ...row }));
      return slot;
    }

    let slots = (config.slots || []).map(fromState);

    // The slots as the kind wants them: as many as a card holds, each new question with
    // the kind's proposition rows (presets on blank rows) and the default difficulty.
    function fit() {
      const s = shape();
      if (!s) return;
      while (slots.length < s.questions_per_card) slots.push(blank());
      while (slots.length > s.questions_per_card && isBlank(slots[slots.length - 1])) slots.pop();
      slots.forEach((slot, index) => {
        if (slot.picked) return;
        const rows = slot.propositions;
        while (rows.length < s.propositions) rows.push({ text: "", is_right: false, is_hidden: false });
        while (rows.length > s.propositions && !rows[rows.length - 1].text.trim()) rows.pop();
        rows.forEach((row, i) => {
          if (!row.text.trim() && !row.touched) {
            row.is_hidden = Boolean(s.hidden_presets[i]);
            row.is_right = Boolean(s.right_presets[i]);
          }
        });
        if (!slot.difficultyTouched) {
          const d = s.difficulties[index];
          slot.difficulty = d === null || d === undefined ? "" : String(d);
        }
        autoAnswer(slot);
      });
    }

    function isBlank(slot) {
      return !slot.picked && !slot.text.trim() && !slot.answer.trim()
        && slot.propositions.every((row) => !row.text.trim());
    }

    function freeAnswer() {
      const s = shape();
      return Boolean(s && s.fields.includes("answer"));
    }

    // With propositions and a free answer (CASH), the answer is the right proposition's
    // text until the editor writes another.
    function autoAnswer(slot) {
      const s = shape();
      if (!s || !freeAnswer() || !s.propositions || slot.answerTouched) return;
      const right = slot.propositions.filter((row) => row.is_right && row.text.trim());
      slot.answer = right.length === 1 ? right[0].text.trim() : "";
    }

    function summary(slot) {
      const source = slot.picked || slot;
      const parts = [];
      const d = source.difficulty;
      parts.push(`${gettext("Difficulté")}${NBSP}: ${d === "" || d === null || d === undefined ? "—" : d}`);
      const rows = source.propositions || [];
      const right = rows.filter((row) => row.is_right && row.text.trim()).map((row) => row.text.trim());
      const hidden = rows.filter((row) => row.is_hidden && row.text.trim()).map((row) => row.text.trim());
      if (right.length) parts.push(`${gettext("Bonne réponse")}${NBSP}: ${right.join(" / ")}`);
      if ((source.answer || "").trim() && !rows.length) parts.push(`${gettext("Réponse")}${NBSP}: ${source.answer.trim()}`);
      if (hidden.length) parts.push(`${gettext("Cachée")}${NBSP}: ${hidden.join(" / ")}`);
      return parts.join(" · ");
    }

    // --- rendering ---------------------------------------------------------------------

    const list = el("ol", { className: "plateau-slots", id: "plateau-slots" });
    mount.append(list);

    // Colour and twin mean something only for paired kinds (duels).
    function shapePair() {
      const s = shape();
      const pair = form.querySelector(".form-row.field-colour");
      const fieldset = pair && pair.closest("fieldset");
      if (fieldset && s) fieldset.hidden = !s.paired;
    }

    function render(focus) {
      fit();
      shapePair();
      list.textContent = "";
      const s = shape();
      slots.forEach((slot, index) => list.append(renderSlot(slot, index, s)));
      if (focus) {
        const target = list.children[focus.index]
          && list.children[focus.index].querySelector(`[data-field='${focus.field}']`);
        if (target) target.focus();
      }
      showErrors();
    }

    function renderSlot(slot, index, s) {
      const n = index + 1;
      const format = s && s.slot_labels[index] ? el("span", { className: "plateau-format", text: s.slot_labels[index] }) : null;
      const item = el("li", { className: "plateau-slot", "data-index": index, "data-slot": n });
      const handle = el("span", { className: "plateau-handle", draggable: "true", title: gettext("Glisser pour déplacer"), text: "⠿" });
      const summaryNode = el("span", { className: "plateau-slot-summary", text: summary(slot) });
      const up = el("button", { type: "button", className: "plateau-slot-up", title: gettext("Monter"), "aria-label": gettext("Monter"), text: "▲" });
      const down = el("button", { type: "button", className: "plateau-slot-down", title: gettext("Descendre"), "aria-label": gettext("Descendre"), text: "▼" });
      up.addEventListener("click", () => move(index, -1, "text"));
      down.addEventListener("click", () => move(index, 1, "text"));
      const pick = el("button", { type: "button", className: "plateau-slot-pick", text: slot.picked ? gettext("Écrire une nouvelle question") : gettext("Choisir une question existante") });
      pick.addEventListener("click", () => {
        if (slot.picked) {
          slots[index] = blank();
          render({ index, field: "text" });
          schedule();
        } else {
          openPicker(item, index);
        }
      });
      const head = el("div", { className: "plateau-slot-head" }, handle,
        el("strong", { className: "plateau-slot-number", text: `${gettext("n°")}${n}` }), format, summaryNode, up, down, pick);
      item.append(head);
      item.append(slot.picked ? renderPicked(slot.picked) : renderNew(slot, index, s, summaryNode));
      item.append(el("div", { className: "plateau-picker", hidden: true }));
      item.append(el("ul", { className: "plateau-slot-problems" }));
      dragging(item, handle, index);
      return item;
    }

    function renderPicked(state) {
      const rows = (state.propositions || []).map((row, i) => el("li", { className: [row.is_right ? "plateau-right" : "", row.is_hidden ? "plateau-hidden" : ""].join(" ").trim() },
        row.text, row.is_right ? el("strong", { text: " ✓" }) : null,
        row.is_hidden ? el("em", { text: ` (${gettext("cachée")})` }) : null));
      return el("div", { className: "plateau-slot-body plateau-slot-picked" },
        el("p", {}, el("a", { href: state.url, target: "_blank", text: state.text }), " ",
          el("span", { className: "plateau-status", text: state.status || "" })),
        rows.length ? el("ol", { className: "plateau-answers" }, rows) : null,
        state.answer ? el("p", { text: `${gettext("Réponse libre")}${NBSP}: ${state.answer}` }) : null);
    }

    function renderNew(slot, index, s, summaryNode) {
      const refresh = () => {
        summaryNode.textContent = summary(slot);
        schedule();
      };
      const n = index + 1;
      const text = el("textarea", { rows: 2, className: "plateau-slot-text", "data-field": "text", "aria-label": `${gettext("Question")} ${gettext("n°")}${n}`, placeholder: `${gettext("Question")} ${gettext("n°")}${n}` });
      text.value = slot.text;
      text.addEventListener("input", () => { slot.text = text.value; refresh(); });
      const difficulty = el("input", { type: "number", min: 1, max: 5, className: "plateau-slot-difficulty", "data-field": "difficulty", "aria-label": `${gettext("Difficulté")} ${gettext("n°")}${n}` });
      difficulty.value = slot.difficulty;
      difficulty.addEventListener("input", () => {
        slot.difficulty = difficulty.value;
        slot.difficultyTouched = true;
        refresh();
      });
      const body = el("div", { className: "plateau-slot-body" }, text,
        el("label", { className: "plateau-slot-field" }, `${gettext("Difficulté")}${NBSP}: `, difficulty));
      let answerInput = null;
      if (s && s.propositions) {
        const table = el("table", { className: "plateau-slot-propositions" });
        const boxes = [];
        slot.propositions.forEach((row, i) => {
          const input = el("input", { type: "text", maxlength: 300, "data-field": `p${i}`, "aria-label": `${gettext("Proposition")} ${letter(i)} ${gettext("n°")}${n}`, placeholder: `${gettext("Proposition")} ${letter(i)}` });
          input.value = row.text;
          input.addEventListener("input", () => {
            row.text = input.value;
            syncAnswer();
            refresh();
          });
          const right = el("input", { type: "checkbox", "data-field": `r${i}`, "aria-label": `${gettext("bonne réponse")} ${letter(i)}` });
          right.checked = row.is_right;
          right.addEventListener("change", () => { markRight(slot, i, right.checked, boxes); syncAnswer(); refresh(); });
          const hidden = el("input", { type: "checkbox", "data-field": `h${i}`, "aria-label": `${gettext("cachée")} ${letter(i)}` });
          hidden.checked = row.is_hidden;
          hidden.addEventListener("change", () => { markHidden(slot, i, hidden.checked, boxes); refresh(); });
          boxes.push({ right, hidden });
          table.append(el("tr", {},
            el("th", { text: letter(i) }), el("td", {}, input),
            el("td", {}, el("label", {}, right, ` ${gettext("bonne réponse")}`)),
            s.hidden ? el("td", {}, el("label", {}, hidden, ` ${gettext("cachée")}`)) : null));
        });
        body.append(table);
        slot.boxes = boxes;
      }
      if (freeAnswer()) {
        answerInput = el("input", { type: "text", maxlength: 200, className: "plateau-slot-answer", "data-field": "answer", "aria-label": `${gettext("Réponse libre")} ${gettext("n°")}${n}` });
        answerInput.value = slot.answer;
        answerInput.addEventListener("input", () => {
          slot.answer = answerInput.value;
          slot.answerTouched = Boolean(answerInput.value.trim());
          refresh();
        });
        body.append(el("label", { className: "plateau-slot-field" }, `${gettext("Réponse libre")}${NBSP}: `, answerInput));
      }
      function syncAnswer() {
        autoAnswer(slot);
        if (answerInput && !slot.answerTouched) answerInput.value = slot.answer;
      }
      return body;
    }

    // One right answer: ticking one unticks the others; one intruder: unticking one
    // ticks the others. The same for a kind with one hidden proposition.
    function markRight(slot, index, value, boxes) {
      const s = shape();
      const rows = slot.propositions;
      rows[index].is_right = value;
      rows[index].touched = true;
      const intruder = s.propositions - s.right === 1 && s.right > 1;
      rows.forEach((row, i) => {
        if (i === index) return;
        if (s.right === 1 && value) row.is_right = false;
        if (intruder && !value) row.is_right = true;
      });
      (boxes || []).forEach((pair, i) => { pair.right.checked = rows[i].is_right; });
    }

    function markHidden(slot, index, value, boxes) {
      const s = shape();
      const rows = slot.propositions;
      rows[index].is_hidden = value;
      rows[index].touched = true;
      if (s.hidden === 1 && value) rows.forEach((row, i) => { if (i !== index) row.is_hidden = false; });
      (boxes || []).forEach((pair, i) => { pair.hidden.checked = rows[i].is_hidden; });
    }

    // --- reordering --------------------------------------------------------------------

    function move(index, delta, field) {
      const to = index + delta;
      if (to < 0 || to >= slots.length) return;
      const [slot] = slots.splice(index, 1);
      slots.splice(to, 0, slot);
      render({ index: to, field });
      schedule();
    }

    let dragged = null;
    function dragging(item, handle, index) {
      handle.addEventListener("dragstart", (event) => {
        dragged = index;
        event.dataTransfer.effectAllowed = "move";
        event.dataTransfer.setData("text/plain", String(index));
        item.classList.add("plateau-dragging");
      });
      handle.addEventListener("dragend", () => item.classList.remove("plateau-dragging"));
      item.addEventListener("dragover", (event) => {
        if (dragged === null) return;
        event.preventDefault();
        item.classList.add("plateau-drop");
      });
      item.addEventListener("dragleave", () => item.classList.remove("plateau-drop"));
      item.addEventListener("drop", (event) => {
        event.preventDefault();
        if (dragged === null || dragged === index) return;
        const [slot] = slots.splice(dragged, 1);
        slots.splice(index, 0, slot);
        dragged = null;
        render();
        schedule();
      });
    }

    mount.addEventListener("keydown", (event) => {
      const item = event.target.closest(".plateau-slot");
      if (!item || !event.altKey || event.ctrlKey || event.metaKey) return;
      const index = Number(item.dataset.index);
      const field = event.target.dataset.field || "text";
      if (event.key === "ArrowUp" || event.key === "ArrowDown") {
        event.preventDefault();
        event.stopPropagation();
        move(index, event.key === "ArrowUp" ? -1 : 1, field);
      } else if (/^Digit[1-9]$/.test(event.code)) {
        const slot = slots[index];
        const row = Number(event.code.slice(5)) - 1;
        event.preventDefault();
        event.stopPropagation();
        if (slot.picked || row >= slot.propositions.length) return;
        markRight(slot, row, true, slot.boxes);
        const answer = item.querySelector("[data-field=answer]");
        autoAnswer(slot);
        if (answer && !slot.answerTouched) answer.value = slot.answer;
        item.querySelector(".plateau-slot-summary").textContent = summary(slot);
        schedule();
      }
    });

    // --- picking an existing question ----------------------------------------------------

    function openPicker(item, index) {
      const box = item.querySelector(".plateau-picker");
      box.hidden = false;
      box.textContent = "";
      const search = el("input", { type: "search", className: "plateau-picker-search", placeholder: gettext("Chercher une question de ce type, sur aucune carte…"), "aria-label": gettext("Chercher une question") });
      const results = el("ul", { className: "plateau-picker-results" });
      box.append(search, results);
      const find = debounce(() => {
        const taken = new Set(slots.filter((slot) => slot.picked).map((slot) => slot.picked.question));
        const params = new URLSearchParams({ kind: kind(), term: search.value, card: config.card || "" });
        fetch(`${config.questions_url}?${params}`, { credentials: "same-origin" })
          .then((response) => response.json())
          .then((data) => {
            results.textContent = "";
            const found = data.results.filter((q) => !taken.has(q.question));
            if (!found.length) results.append(el("li", { className: "help", text: gettext("Aucune question libre de ce type.") }));
            found.forEach((q) => {
              const choose = el("button", { type: "button", className: "plateau-picker-result" },
                q.text, el("span", { className: "help", text: ` — ${summary({ picked: q })}` }));
              choose.addEventListener("click", () => {
                slots[index] = { ...blank(), picked: q };
                render({ index, field: "text" });
                dirty();
                schedule();
              });
              results.append(el("li", {}, choose));
            });
          });
      }, SEARCH_DELAY);
      search.addEventListener("input", find);
      search.focus();
      find();
    }

    // --- the live check --------------------------------------------------------------------

    function serialise() {
      return slots.map((slot) => (slot.picked ? { question: slot.picked.question } : {
        text: slot.text,
        difficulty: slot.difficulty,
        answer: slot.answer,
        propositions: slot.propositions.map((row) => ({ text: row.text, is_right: row.is_right, is_hidden: row.is_hidden })),
      }));
    }

    function showErrors(problems) {
      list.querySelectorAll(".plateau-slot").forEach((item) => {
        item.classList.remove("plateau-slot-error", "plateau-slot-warning");
        item.querySelector(".plateau-slot-problems").textContent = "";
      });
      problemList.textContent = "";
      const shown = problems || Object.entries(errors).flatMap(([n, messages]) =>
        messages.map((message) => ({ slots: [Number(n)], message, severity: "error" })));
      shown.forEach((problem) => {
        problemList.append(el("li", { className: `plateau-${problem.severity}`, text: problem.message }));
        problem.slots.forEach((n) => {
          const item = list.children[n - 1];
          if (!item) return;
          item.classList.add(problem.severity === "error" ? "plateau-slot-error" : "plateau-slot-warning");
          item.querySelector(".plateau-slot-problems").append(
            el("li", { className: `plateau-${problem.severity}`, text: problem.message }));
        });
      });
      list.dataset.checked = problems ? "1" : "";
    }

    let asked = 0;
    const check = debounce(() => {
      const number = ++asked;
      const body = new FormData();
      body.append("kind", kind());
      body.append("title", titleInput ? titleInput.value : "");
      body.append("card", config.card || "");
      body.append("plateau_composer", JSON.stringify(serialise()));
      fetch(config.check_url, {
        method: "POST", body, credentials: "same-origin",
        headers: { "X-CSRFToken": csrf ? csrf.value : "" },
      }).then((response) => response.json()).then((data) => {
        if (number !== asked) return; // an older answer, overtaken by a newer question
        errors = {};
        showErrors(data.problems || []);
      });
    }, CHECK_DELAY);

    function schedule() {
      list.dataset.checked = "";
      // The composition as it stands, for the live preview too (cms/preview.js).
      posted.value = JSON.stringify(serialise());
      form.dispatchEvent(new Event("plateau:composed"));
      check();
    }

    function dirty() {
      form.dispatchEvent(new Event("plateau:dirty"));
    }

    if (kindSelect) kindSelect.addEventListener("change", () => { render(); schedule(); });
    if (titleInput) titleInput.addEventListener("input", schedule);
    form.addEventListener("submit", () => { posted.value = JSON.stringify(serialise()); });
    render();
    posted.value = JSON.stringify(serialise()); // what the preview prints from the start
    if (slots.some((slot) => !isBlank(slot))) schedule();
  }

  // After Django's inlines.js has made its "add another" rows: it does so in a jQuery ready
  // handler, which jQuery runs asynchronously and may run after "load"; a handler queued on
  // jQuery's ready at "load" runs after it.
  window.addEventListener("load", () => {
    if (window.django && window.django.jQuery) window.django.jQuery(setUp);
    else setUp();
  });
})();
