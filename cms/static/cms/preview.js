// The live preview beside a change form: the question or card as printing prints it,
// refreshed as the editor types; the étoile's image with its panels, and its crop tool.
"use strict";
(function () {
  const WAIT = 400; // ms after the last keystroke before asking for a new preview
  const SVG = "http://www.w3.org/2000/svg";
  const TYPED = "textarea, input:not([type]), input[type=text], input[type=number]";

  function setUp() {
    const aside = document.getElementById("plateau-printed");
    const form = aside && aside.closest("form");
    if (!aside || !form) return;
    const status = aside.querySelector(".plateau-printed-status");
    const problems = aside.querySelector(".plateau-printed-problems");
    const faces = aside.querySelector(".plateau-printed-faces");
    const note = aside.querySelector(".plateau-printed-note");
    const product = aside.querySelector(".plateau-printed-product");
    const etoile = setUpEtoile(aside.querySelector(".plateau-etoile"));
    const zoom = aside.querySelector(".plateau-printed-zoom");
    zoom.addEventListener("click", () => {
      const large = aside.classList.toggle("plateau-printed-large");
      zoom.setAttribute("aria-pressed", String(large));
      zoom.textContent = large ? zoom.dataset.smaller : zoom.dataset.larger;
    });
    let timer = null; // set while a refresh waits for the editor to stop typing
    let asked = 0;
    let controller = null;

    function formData() {
      const data = new FormData(form);
      // The preview prints the stored image: an upload is sent when the form is saved.
      form.querySelectorAll("input[type=file]").forEach((input) => data.delete(input.name));
      ["crop_x", "crop_y", "crop_w", "crop_h"].forEach((name) => data.delete(name));
      return data;
    }

    function show(body) {
      problems.replaceChildren();
      faces.replaceChildren();
      if (body.unavailable) {
        status.textContent = body.unavailable;
        product.textContent = "";
        problems.hidden = true;
        note.hidden = true;
        if (etoile) etoile.panels([]);
        return;
      }
      (body.problems || []).forEach((message) => {
        const item = document.createElement("li");
        item.textContent = message;
        problems.append(item);
      });
      problems.hidden = !problems.children.length;
      product.textContent = body.product;
      status.textContent = problems.children.length ? "" : aside.dataset.fits;
      (body.faces || []).forEach((face) => {
        const figure = document.createElement("figure");
        const image = document.createElement("img");
        image.src = face.src;
        image.width = face.width;
        image.height = face.height;
        image.alt = `${body.product} — ${face.label}`;
        image.className = "plateau-printed-face";
        const caption = document.createElement("figcaption");
        caption.textContent = face.label;
        figure.append(image, caption);
        faces.append(figure);
      });
      note.textContent = body.note || "";
      note.hidden = !body.note;
      if (etoile) etoile.panels(body.panels || []);
    }

    function refresh() {
      timer = null;
      const number = ++asked;
      if (controller) controller.abort();
      controller = new AbortController();
      aside.classList.add("plateau-printed-busy");
      status.textContent = aside.dataset.loading;
      fetch(aside.dataset.url, {method: "POST", body: formData(), credentials: "same-origin",
                                signal: controller.signal,
                                headers: {"X-Requested-With": "XMLHttpRequest"}})
        .then((response) => {
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then((body) => {
          if (number === asked) show(body);
        })
        .catch((error) => {
          if (error.name !== "AbortError" && number === asked) {
            status.textContent = aside.dataset.failed;
          }
        })
        .finally(() => {
          if (number === asked && timer === null) {
            aside.classList.remove("plateau-printed-busy");
          }
        });
    }

    function later(event) {
      if (event.target.closest(".plateau-etoile")) return; // the crop tool is not the content
      // Typed text was sent as it was typed: leaving its field changes nothing more.
      if (event.type === "change" && event.target.matches(TYPED)) return;
      aside.classList.add("plateau-printed-busy"); // what is shown is already out of date
      clearTimeout(timer);
      timer = setTimeout(refresh, event.type === "change" ? 0 : WAIT);
    }

    form.addEventListener("input", later);
    form.addEventListener("change", later);
    form.addEventListener("plateau:composed", later); // the card composer's slots changed
    // Rows added, removed or moved by the inlines' buttons.
    form.addEventListener("click", (event) => {
      if (event.target.closest(".add-row, .inline-deletelink, .plateau-move")) {
        aside.classList.add("plateau-printed-busy");
        clearTimeout(timer);
        timer = setTimeout(refresh, WAIT);
      }
    });
    refresh();
  }

  // --- the étoile's image: its panels and the crop tool ---------------------------------

  function setUpEtoile(section) {
    if (!section) return null;
    const picture = section.querySelector(".plateau-etoile-frame img");
    let shown = [];
    let ready = null; // the tool, once the picture's size is known
    const etoile = {
      panels(list) {
        shown = list;
        if (ready) ready.panels(list);
      },
    };
    function start() {
      if (!picture.naturalWidth) return; // the file is gone: nothing to show or crop
      ready = etoileTool(section, picture.naturalWidth, picture.naturalHeight);
      ready.panels(shown);
    }
    if (picture.complete) start();
    else picture.addEventListener("load", start);
    return etoile;
  }

  function etoileTool(section, width, height) {
    const frame = section.querySelector(".plateau-etoile-frame");
    const svg = section.querySelector(".plateau-etoile-panels");
    const toggle = section.querySelector(".plateau-panels-toggle");
    const box = section.querySelector(".plateau-crop-box");
    // The image is fitted whole in the square frame, its shape kept, as on the fiche.
    const side = Math.max(width, height);
    const offsetX = (side - width) / 2;
    const offsetY = (side - height) / 2;

    toggle.addEventListener("change", () => svg.toggleAttribute("hidden", !toggle.checked));

    function panels(list) {
      section.hidden = !list.length;
      svg.replaceChildren();
      list.forEach((panel) => {
        const group = document.createElementNS(SVG, "g");
        group.setAttribute("class", `plateau-panel plateau-panel-${panel.size}`);
        const rect = document.createElementNS(SVG, "rect");
        rect.setAttribute("x", panel.x * 1000);
        rect.setAttribute("y", panel.y * 1000);
        rect.setAttribute("width", panel.w * 1000);
        rect.setAttribute("height", panel.h * 1000);
        const label = document.createElementNS(SVG, "text");
        label.setAttribute("x", (panel.x + panel.w / 2) * 1000);
        label.setAttribute("y", (panel.y + panel.h / 2) * 1000);
        label.setAttribute("text-anchor", "middle");
        label.setAttribute("dominant-baseline", "central");
        label.textContent = String(panel.number);
        group.append(rect, label);
        svg.append(group);
      });
    }

    const inputs = ["crop_x", "crop_y", "crop_w", "crop_h"].map(
      (name) => section.querySelector(`input[name=${name}]`));
    if (!inputs[0]) return {panels};
    const square = section.querySelector(".plateau-crop-square");
    const submit = section.querySelector(".plateau-crop-submit");
    const size = section.querySelector(".plateau-crop-size");
    size.textContent = size.dataset.template.replace("%(w)s", width).replace("%(h)s", height);
    [width, height, width, height].forEach((most, index) => { inputs[index].max = most; });

    function clamp(value, low, high) { return Math.min(Math.max(value, low), high); }

    function read() {
      return inputs.map((input) => Math.round(Number(input.value) || 0));
    }

    function write([x, y, w, h]) {
      [x, y, w, h].forEach((value, index) => { inputs[index].value = value; });
      draw();
    }

    function draw() {
      const [x, y, w, h] = read();
      const valid = w > 0 && h > 0 && x >= 0 && y >= 0 && x + w <= width && y + h <= height;
      submit.disabled = !valid;
      box.hidden = !(w > 0 && h > 0);
      box.style.left = `${((x + offsetX) / side) * 100}%`;
      box.style.top = `${((y + offsetY) / side) * 100}%`;
      box.style.width = `${(w / side) * 100}%`;
      box.style.height = `${(h / side) * 100}%`;
    }

    function imagePoint(event) {
      const bounds = frame.getBoundingClientRect();
      const x = ((event.clientX - bounds.left) / bounds.width) * side - offsetX;
      const y = ((event.clientY - bounds.top) / bounds.height) * side - offsetY;
      return [clamp(Math.round(x), 0, width), clamp(Math.round(y), 0, height)];
    }

    function rectangle(from, to) {
      let w = Math.abs(to[0] - from[0]);
      let h = Math.abs(to[1] - from[1]);
      if (square.checked) {
        // As large as the drag, within the image on the side it goes.
        w = h = Math.min(Math.max(w, h), to[0] >= from[0] ? width - from[0] : from[0],
                         to[1] >= from[1] ? height - from[1] : from[1]);
      }
      const x = to[0] >= from[0] ? from[0] : from[0] - w;
      const y = to[1] >= from[1] ? from[1] : from[1] - h;
      return [x, y, w, h];
    }

    let from = null;
    frame.addEventListener("pointerdown", (event) => {
      from = imagePoint(event);
      frame.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    frame.addEventListener("pointermove", (event) => {
      if (from) write(rectangle(from, imagePoint(event)));
    });
    frame.addEventListener("pointerup", (event) => {
      if (from) write(rectangle(from, imagePoint(event)));
      from = null;
    });

    inputs.forEach((input, index) => input.addEventListener("input", () => {
      if (square.checked && index >= 2) {
        inputs[5 - index].value = input.value; // width and height stay equal
      }
      draw();
    }));
    square.addEventListener("change", () => {
      if (square.checked) {
        const [x, y, w, h] = read();
        const least = Math.min(w, h);
        write([x, y, least, least]);
      }
    });
    draw();
    return {panels};
  }

  window.addEventListener("load", setUp);
})();
