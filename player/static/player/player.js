// Plateau's player: counts a clock down, asks the server when it runs out, keeps focus.
(function () {
  "use strict";

  function game() { return document.getElementById("game"); }

  function format(seconds) {
    var s = Math.max(0, seconds);
    return s >= 10 ? String(Math.ceil(s)) : s.toFixed(1).replace(".", ",");
  }

  var timer = null;
  function startClocks() {
    if (timer) { clearInterval(timer); timer = null; }
    var clocks = Array.prototype.slice.call(document.querySelectorAll("[data-countdown]"));
    if (!clocks.length) { return; }
    var started = performance.now();
    var asked = false;
    clocks.forEach(function (el) { el.textContent = format(parseFloat(el.dataset.countdown)); });
    timer = setInterval(function () {
      var elapsed = (performance.now() - started) / 1000;
      clocks.forEach(function (el) {
        if (el.dataset.running !== "1") { return; }
        var left = parseFloat(el.dataset.countdown) - elapsed;
        el.textContent = format(left);
        // The server decides; the page only asks it once the time is up.
        if (left <= 0 && !asked && window.htmx && game()) {
          asked = true;
          setTimeout(function () { htmx.ajax("GET", game().dataset.stateUrl, { target: "#game" }); }, 150);
        }
      });
    }, 100);
  }

  // htmx focuses an [autofocus] element of the new board itself; without one, the focus
  // goes to the board's heading, so a keyboard or a screen reader starts from the top.
  function focusBoard() {
    var root = game();
    if (!root || root.querySelector("[autofocus]")) { return; }
    // Someone already moved to a control of the new board: leave the focus with them.
    var active = document.activeElement;
    if (active && active !== document.body && root.contains(active)) { return; }
    var heading = root.querySelector("h2[tabindex]");
    if (heading) { heading.focus({ preventScroll: false }); }
  }

  function showSeats() {
    var select = document.querySelector("[data-count]");
    if (!select) { return; }
    var update = function () {
      var count = parseInt(select.value, 10);
      document.querySelectorAll("[data-seat]").forEach(function (seat) {
        var shown = parseInt(seat.dataset.seat, 10) <= count;
        seat.hidden = !shown;
        var input = seat.querySelector("input");
        input.required = shown;
        if (!shown) { input.value = ""; }
      });
    };
    select.addEventListener("change", update);
    update();
  }

  // A picture that changes with each move (the étoile) keeps showing until its successor
  // has loaded, instead of flashing empty in between.
  var leaving = {};
  document.addEventListener("htmx:beforeSwap", function () {
    leaving = {};
    document.querySelectorAll("#game img[data-keep-while-loading]").forEach(function (img) {
      leaving[img.dataset.keepWhileLoading] = img;
    });
  });
  function keepPictures() {
    document.querySelectorAll("#game img[data-keep-while-loading]").forEach(function (img) {
      var old = leaving[img.dataset.keepWhileLoading];
      if (!old || old.src === img.src || img.complete) { return; }
      old.classList.add("leaving");
      old.removeAttribute("data-keep-while-loading");
      old.setAttribute("aria-hidden", "true");
      old.alt = "";
      img.parentNode.insertBefore(old, img.nextSibling);
      var done = function () { if (old.parentNode) { old.parentNode.removeChild(old); } };
      img.addEventListener("load", done, { once: true });
      img.addEventListener("error", done, { once: true });
    });
    leaving = {};
  }

  // A move the server could not take (an expired page, an error, no network) says so,
  // instead of leaving a button that seems to do nothing.
  function trouble(kind) {
    var box = document.getElementById("trouble");
    if (!box) { return; }
    box.textContent = box.dataset[kind] || box.dataset.failed;
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("htmx:responseError", function (event) {
    trouble(event.detail.xhr && event.detail.xhr.status === 403 ? "expired" : "failed");
  });
  document.addEventListener("htmx:sendError", function () { trouble("offline"); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = document.getElementById("trouble");
    if (box && event.detail.successful) { box.hidden = true; }
  });

  document.addEventListener("DOMContentLoaded", function () { startClocks(); showSeats(); });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "game") { keepPictures(); startClocks(); }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "game") { focusBoard(); }
  });
})();
