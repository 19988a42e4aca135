// Le jeu du Minotaure: draws the labyrinth the server sends, aims a flick (a drag like a
// slingshot, or the keyboard), and animates the trajectory the server simulated.
// The page decides nothing: a flick is sent as an intent, and the board redrawn from the
// server's answer.
(function () {
  "use strict";

  var PARCHMENT = "#f7f0e1", ROOM = "#ead9b8", WALL = "#5b3a1e", AIM = "#f2c200";
  var DEAD_ZONE = 20; // px: a pull shorter than this is a tap, or a flick called off
  var animated = null; // the last move this page animated or drew as it stands
  var sound = false;
  try { sound = window.localStorage.getItem("plateau.minotaure.sound") === "1"; } catch (e) { /* private mode */ }

  function root() { return document.querySelector("[data-minotaure]"); }

  function readView() {
    var node = document.getElementById("minotaure-view");
    return node ? JSON.parse(node.textContent) : null;
  }

  // --- geometry: board millimetres (y up) to canvas pixels (y down) ----------------------

  function Board(canvas, view) {
    this.canvas = canvas;
    this.view = view;
    this.geometry = view.board;
    this.selected = null;
    this.angle = 90;
    this.strength = 30;
    this.aiming = false;
    this.resize();
  }

  Board.prototype.resize = function () {
    var rect = this.canvas.getBoundingClientRect();
    var size = Math.max(200, Math.round(Math.min(rect.width, rect.height || rect.width)));
    var ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(size * ratio);
    this.canvas.height = Math.round(size * ratio);
    this.ratio = ratio;
    this.size = size;
    this.scale = size / (2 * this.geometry.radius);
  };

  Board.prototype.toCanvas = function (x, y) {
    return [this.size / 2 + x * this.scale, this.size / 2 - y * this.scale];
  };

  Board.prototype.toBoard = function (px, py) {
    return [(px - this.size / 2) / this.scale, (this.size / 2 - py) / this.scale];
  };

  // --- drawing -----------------------------------------------------------------------------

  Board.prototype.drawBoard = function (ctx) {
    var g = this.geometry, s = this.scale, c = this.size / 2;
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    ctx.clearRect(0, 0, this.size, this.size);
    ctx.fillStyle = PARCHMENT;
    ctx.beginPath(); ctx.arc(c, c, g.radius * s, 0, 2 * Math.PI); ctx.fill();
    ctx.fillStyle = ROOM;
    ctx.beginPath(); ctx.arc(c, c, g.room * s, 0, 2 * Math.PI); ctx.fill();
    ctx.strokeStyle = WALL;
    ctx.lineWidth = Math.max(1.5, g.wall * s);
    ctx.lineCap = "round";
    g.walls.forEach(function (wall) {
      ctx.beginPath();
      if (wall.arc) {
        var r = wall.arc[0], a = wall.arc[1] * Math.PI / 180, b = wall.arc[2] * Math.PI / 180;
        // Counter-clockwise on the board is clockwise on a canvas, whose y points down.
        ctx.arc(c, c, r * s, -a, -b, true);
      } else {
        var l = wall.line;
        ctx.moveTo(c + l[0] * s, c - l[1] * s);
        ctx.lineTo(c + l[2] * s, c - l[3] * s);
      }
      ctx.stroke();
    });
  };

  Board.prototype.drawMarble = function (ctx, marble, x, y, alpha) {
    var p = this.toCanvas(x, y), r = Math.max(3, marble.r * this.scale);
    ctx.globalAlpha = alpha === undefined ? 1 : alpha;
    var shine = ctx.createRadialGradient(p[0] - r / 3, p[1] - r / 3, r / 6, p[0], p[1], r);
    shine.addColorStop(0, "rgba(255,255,255,.85)");
    shine.addColorStop(0.35, marble.hex);
    shine.addColorStop(1, marble.hex);
    ctx.fillStyle = shine;
    ctx.strokeStyle = "rgba(0,0,0,.75)";
    ctx.lineWidth = Math.max(1, r / 8);
    ctx.beginPath(); ctx.arc(p[0], p[1], r, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    if (marble.kind !== "prisoner") {
      ctx.fillStyle = marble.kind === "minotaure" ? "#fff" : "#3b2a00";
      ctx.font = "bold " + Math.round(r * 1.1) + "px system-ui, sans-serif";
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillText(marble.kind === "minotaure" ? "M" : "T", p[0], p[1] + r * 0.05);
    }
    ctx.globalAlpha = 1;
  };

  Board.prototype.draw = function () {
    var ctx = this.canvas.getContext("2d"), self = this;
    this.drawBoard(ctx);
    this.view.marbles.forEach(function (m) { self.drawMarble(ctx, m, m.x, m.y); });
    this.drawAim(ctx);
  };

  Board.prototype.drawAim = function (ctx) {
    var m = this.selectedMarble();
    if (!m) { return; }
    var p = this.toCanvas(m.x, m.y), r = m.r * this.scale;
    ctx.strokeStyle = AIM; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(p[0], p[1], r + 4, 0, 2 * Math.PI); ctx.stroke();
    var length = (12 + this.strength * 1.2) * this.scale;
    var a = this.angle * Math.PI / 180;
    var end = [p[0] + Math.cos(a) * (r + length), p[1] - Math.sin(a) * (r + length)];
    ctx.setLineDash([6, 5]);
    ctx.beginPath(); ctx.moveTo(p[0] + Math.cos(a) * r, p[1] - Math.sin(a) * r);
    ctx.lineTo(end[0], end[1]); ctx.stroke();
    ctx.setLineDash([]);
    // The arrow's head, and the strength as a filled arc around the marble.
    ctx.fillStyle = AIM;
    ctx.beginPath();
    ctx.moveTo(end[0] + Math.cos(a) * 10, end[1] - Math.sin(a) * 10);
    ctx.lineTo(end[0] + Math.cos(a + 2.5) * 9, end[1] - Math.sin(a + 2.5) * 9);
    ctx.lineTo(end[0] + Math.cos(a - 2.5) * 9, end[1] - Math.sin(a - 2.5) * 9);
    ctx.fill();
    ctx.strokeStyle = this.strength > this.geometry.foul_strength ? "#ff5a4f" : AIM; ctx.lineWidth = 5;
    ctx.beginPath();
    ctx.arc(p[0], p[1], r + 10, -Math.PI / 2, -Math.PI / 2 + 2 * Math.PI * this.strength / 100);
    ctx.stroke();
  };

  Board.prototype.selectedMarble = function () {
    var id = this.selected;
    return this.view.choices.filter(function (m) { return m.id === id; })[0] || null;
  };

  // --- the trajectory the server returned -------------------------------------------------

  Board.prototype.animate = function (done) {
    var last = this.view.last, t = last.trajectory, self = this;
    var ctx = this.canvas.getContext("2d");
    var scale = t.scale, fps = t.fps, frames = Math.max(1, t.frames);
    var gone = {};
    t.events.forEach(function (e) { if (e.type !== "foul") { gone[e.marble] = e.frame; } });
    var foul = t.events.filter(function (e) { return e.type === "foul"; })[0];
    // Marbles the flick did not move stand where the server says; the others follow their
    // tracks (an eaten one is not among the marbles any more: its track brings it back).
    var still = this.view.marbles.filter(function (m) { return !t.tracks[m.id]; });
    var moving = Object.keys(t.tracks).map(function (id) {
      var known = self.view.marbles.filter(function (m) { return m.id === id; })[0];
      return { id: id, track: t.tracks[id], marble: known || self.view.pieces[id] };
    });
    var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    var started = null, flashes = [];
    function place(track, f) {
      var i = Math.max(0, Math.min(track.xy.length / 2 - 1, f - track.from));
      var i0 = Math.floor(i), i1 = Math.min(track.xy.length / 2 - 1, i0 + 1), k = i - i0;
      return [(track.xy[2 * i0] * (1 - k) + track.xy[2 * i1] * k) / scale,
              (track.xy[2 * i0 + 1] * (1 - k) + track.xy[2 * i1 + 1] * k) / scale];
    }
    function frame(now) {
      if (started === null) { started = now; }
      var f = reduce ? frames : (now - started) / 1000 * fps;
      self.drawBoard(ctx);
      still.forEach(function (m) { self.drawMarble(ctx, m, m.x, m.y); });
      moving.forEach(function (item) {
        var at = gone[item.id];
        if (at !== undefined && f >= at) {
          if (flashes.indexOf(item.id) < 0) { flashes.push(item.id); beep(180, 0.15); }
          var p = place(item.track, at);
          var fade = Math.max(0, 1 - (f - at) / (fps * 0.6));
          if (fade > 0) {
            self.drawMarble(ctx, item.marble, p[0], p[1], fade);
            ring(ctx, self, p, item.marble.r * (2.2 - fade), "#ff5a4f", fade);
          }
          return;
        }
        var q = place(item.track, f);
        self.drawMarble(ctx, item.marble, q[0], q[1]);
      });
      if (foul && f >= foul.frame) {
        var culprit = moving.filter(function (item) { return item.id === foul.marble; })[0];
        if (culprit) {
          var pos = place(culprit.track, foul.frame);
          ring(ctx, self, pos, culprit.marble.r * 2.4, "#ff5a4f", 1);
        }
        beep(110, 0.3);
        setTimeout(function () { self.draw(); done(); }, reduce ? 0 : 900);
        return;
      }
      if (f < frames + fps * 0.7) { window.requestAnimationFrame(frame); return; }
      self.draw();
      done();
    }
    beep(520, 0.05);
    window.requestAnimationFrame(frame);
  };

  function ring(ctx, board, p, r, colour, alpha) {
    var c = board.toCanvas(p[0], p[1]);
    ctx.globalAlpha = alpha; ctx.strokeStyle = colour; ctx.lineWidth = 4;
    ctx.beginPath(); ctx.arc(c[0], c[1], r * board.scale, 0, 2 * Math.PI); ctx.stroke();
    ctx.globalAlpha = 1;
  }

  // Sounds are off unless asked for: a short tone made on the spot, no file to load.
  var audio = null;
  function beep(freq, seconds) {
    if (!sound) { return; }
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = freq; gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(audio.destination);
      osc.start(); osc.stop(audio.currentTime + seconds);
    } catch (e) { sound = false; }
  }

  // --- aiming ----------------------------------------------------------------------------

  function setup() {
    var el = root();
    // htmx reports its out-of-band swaps too: a board is set up once.
    if (!el || el.dataset.ready) { return; }
    el.dataset.ready = "1";
    var view = readView();
    var canvas = el.querySelector("[data-board]");
    active = null;
    if (!view || !canvas) { animated = view ? view.move : animated; return; }
    var board = new Board(canvas, view);
    var form = el.querySelector("[data-flick]");
    var select = el.querySelector("[data-marble]");
    var angle = el.querySelector("[data-angle]");
    var strength = el.querySelector("[data-strength]");
    var out = el.querySelector("[data-strength-out]");
    var gauge = el.querySelector("[data-gauge]");
    var launch = el.querySelector("[data-launch]");
    var toggle = el.querySelector("[data-sound]");
    var french = (document.documentElement.lang || "fr").slice(0, 2) === "fr";
    var announce = document.getElementById("announce");
    if (toggle) {
      toggle.checked = sound;
      toggle.addEventListener("change", function () {
        sound = toggle.checked;
        try { window.localStorage.setItem("plateau.minotaure.sound", sound ? "1" : "0"); } catch (e) { /* ignore */ }
        if (sound) { beep(440, 0.08); }
      });
    }

    function sync(fromInputs) {
      if (form) {
        if (fromInputs) {
          board.selected = select.value;
          var a = parseFloat(String(angle.value).replace(",", "."));
          board.angle = isFinite(a) ? ((a % 360) + 360) % 360 : board.angle;
          board.strength = parseInt(strength.value, 10) || 1;
        } else {
          select.value = board.selected;
          angle.value = (Math.round(board.angle * 10) / 10).toString();
          strength.value = String(board.strength);
        }
        out.textContent = board.strength + (french ? "\u202f%" : "%");
        gauge.style.width = board.strength + "%";
        gauge.classList.toggle("danger", board.strength > board.geometry.foul_strength);
      }
      board.draw();
    }

    function busy(on) {
      el.classList.toggle("animating", on);
      el.querySelectorAll("button, select, input").forEach(function (c) { c.disabled = on; });
    }

    if (form && select.options.length) {
      var remembered = el.dataset.remember && JSON.parse(el.dataset.remember);
      // A refused flick or a look at a colour keeps the aim; the next player starts afresh.
      if (remembered && (remembered.move !== view.move || remembered.turn !== view.turn)) {
        remembered = null;
      }
      board.selected = select.value;
      sync(true);
      if (remembered) {
        if (view.choices.some(function (m) { return m.id === remembered.marble; })) {
          select.value = remembered.marble;
          board.selected = remembered.marble;
        }
        board.angle = remembered.angle;
        board.strength = remembered.strength;
        sync(false);
      }
      select.addEventListener("change", function () { sync(true); });
      angle.addEventListener("input", function () { sync(true); });
      strength.addEventListener("input", function () { sync(true); });
      form.addEventListener("submit", function () { sync(true); });
    }

    function submit() {
      if (!form || launch.disabled) { return; }
      if (form.requestSubmit) { form.requestSubmit(launch); } else { launch.click(); }
    }

    // A drag: press a marble (or anywhere, for the marble already chosen), pull back like a
    // slingshot, release to flick. Back within the dead zone, or Escape, calls it off.
    var drag = null;
    function point(event) {
      var rect = canvas.getBoundingClientRect();
      return [event.clientX - rect.left, event.clientY - rect.top];
    }
    function fullPull() { return Math.max(90, Math.min(220, board.size * 0.25)); }
    canvas.addEventListener("pointerdown", function (event) {
      if (!form || el.classList.contains("animating") || event.button > 0) { return; }
      var p = point(event), at = board.toBoard(p[0], p[1]);
      var reach = Math.max(14, 22 / board.scale); // at least 22 px around a marble
      var near = view.choices.filter(function (m) {
        return Math.hypot(m.x - at[0], m.y - at[1]) < m.r + reach;
      });
      near.sort(function (a, b) {
        return Math.hypot(a.x - at[0], a.y - at[1]) - Math.hypot(b.x - at[0], b.y - at[1]);
      });
      // Among the marbles under the finger, the one chosen in the list comes first.
      var picked = near.filter(function (m) { return m.id === board.selected; })[0] || near[0];
      if (!picked && !board.selectedMarble()) { return; }
      event.preventDefault();
      canvas.setPointerCapture(event.pointerId);
      if (picked) { board.selected = picked.id; }
      drag = { from: p, moved: false, angle: board.angle, strength: board.strength };
      sync(false);
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!drag) { return; }
      var p = point(event), dx = drag.from[0] - p[0], dy = p[1] - drag.from[1];
      var pull = Math.hypot(dx, dy);
      drag.moved = pull >= DEAD_ZONE;
      el.classList.toggle("pulling", drag.moved);
      if (!drag.moved) { board.angle = drag.angle; board.strength = drag.strength; sync(false); return; }
      board.angle = ((Math.atan2(dy, dx) * 180 / Math.PI) + 360) % 360;
      board.strength = Math.max(1, Math.min(100, Math.round((pull - DEAD_ZONE) / fullPull() * 100)));
      sync(false);
    });
    function release(event) {
      if (!drag) { return; }
      var flick = drag.moved && event.type === "pointerup";
      if (!flick) { board.angle = drag.angle; board.strength = drag.strength; sync(false); }
      drag = null;
      el.classList.remove("pulling");
      if (flick) { submit(); }
    }
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    active = {
      cancel: function () { if (drag) { release({ type: "pointercancel" }); } },
      redraw: function () { if (canvas.isConnected) { board.resize(); board.draw(); } }
    };

    // The keyboard: arrows aim and set the strength, Enter flicks, N picks the next marble.
    canvas.addEventListener("keydown", function (event) {
      if (!form) { return; }
      var fine = event.shiftKey ? 1 : 5, handled = true;
      if (event.key === "ArrowLeft") { board.angle = (board.angle + fine) % 360; }
      else if (event.key === "ArrowRight") { board.angle = (board.angle - fine + 360) % 360; }
      else if (event.key === "ArrowUp") { board.strength = Math.min(100, board.strength + fine); }
      else if (event.key === "ArrowDown") { board.strength = Math.max(1, board.strength - fine); }
      else if (event.key === "n" || event.key === "N") {
        select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
        board.selected = select.value;
      }
      else if (event.key === "Enter" || event.key === " ") { fromKeyboard = true; submit(); }
      else { handled = false; }
      if (handled) { event.preventDefault(); sync(false); }
    });

    var fresh = view.last && animated !== null && view.last.move > animated;
    animated = view.move;
    var keyboard = fromKeyboard;
    fromKeyboard = false;
    if (fresh) {
      // The panel and the spoken summary tell the result once the marbles have stopped.
      var said = announce ? announce.textContent : "";
      if (announce) { announce.textContent = ""; }
      busy(true);
      board.animate(function () {
        busy(false);
        if (announce) { announce.textContent = said; }
        settleFocus(el, canvas, keyboard);
      });
    } else {
      board.draw();
      if (keyboard) { settleFocus(el, canvas, keyboard); }
    }
  }

  // Listeners of the window and the document, once: they act on the board drawn last.
  var active = null, resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { if (active) { active.redraw(); } }, 100);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && active) { active.cancel(); }
  });

  // After a flick, a keyboard player is back on the board; anyone else on the heading.
  var fromKeyboard = false;
  function settleFocus(el, canvas, keyboard) {
    if (keyboard && el.querySelector("[data-flick]")) { canvas.focus(); return; }
    var heading = el.querySelector("h2[tabindex]");
    if (heading && !el.querySelector("[autofocus]")) { heading.focus(); }
  }

  // The aim survives the board being drawn again: a player fine-tuning with the keyboard
  // keeps their direction and strength after a refused flick.
  document.addEventListener("htmx:beforeSwap", function () {
    var angle = document.querySelector("[data-angle]"), strength = document.querySelector("[data-strength]");
    var el = root(), view = readView();
    if (angle && strength && el && view) {
      var marble = document.querySelector("[data-marble]");
      remember = { angle: parseFloat(angle.value) || 90, strength: parseInt(strength.value, 10) || 30,
                   marble: marble ? marble.value : null, move: view.move, turn: view.turn };
    }
  });
  var remember = null;
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "game") { return; }
    var el = root();
    if (el && remember) { el.dataset.remember = JSON.stringify(remember); }
    setup();
  });
  document.addEventListener("DOMContentLoaded", setup);
})();
