// Plateau's rooms: one WebSocket per page. The page sends intents, each with the next
// sequence number of this device, and shows the room as the server draws it for this seat.
(function () {
  "use strict";
  var root = document.getElementById("room");
  if (!root || !window.WebSocket) { return; }
  var live = document.getElementById("live");
  var status = document.getElementById("room-status");
  var announce = document.getElementById("announce");
  var key = "plateau-seq-" + root.dataset.code;
  var seq = 0;
  try { seq = parseInt(localStorage.getItem(key) || "0", 10) || 0; } catch (e) { seq = 0; }
  var socket = null, retries = 0, pinger = null, closed = false;

  function save() { try { localStorage.setItem(key, String(seq)); } catch (e) { /* private mode */ } }

  function show(text) {
    status.textContent = text || "";
    status.hidden = !text;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(message)); return true; }
    return false;
  }

  var last = null;  // the last intent sent, sent again once if its number was stale

  function intent(data, again) {
    seq += 1;
    save();
    data.seq = seq;
    last = { data: data, again: !!again };
    if (!send(data)) { show(root.dataset.offline); }
  }

  // Replace only the parts of the room that changed: a button someone is pressing stays
  // where it is when another player's move redraws the rest of the room. The room's blocks
  // (the section, then its paragraphs and lists) are matched in order by tag and first
  // class; a block that changed is replaced whole.
  function blockKey(el) { return el.tagName + "." + (el.getAttribute("class") || "").split(" ")[0]; }

  function patch(current, wanted, depth) {
    var olds = Array.prototype.slice.call(current.children);
    var kept = [], at = 0;
    Array.prototype.slice.call(wanted.children).forEach(function (now) {
      var j = at;
      while (j < olds.length && blockKey(olds[j]) !== blockKey(now)) { j++; }
      if (j === olds.length) { kept.push(now); return; }
      var old = olds[j];
      at = j + 1;
      if (old.isEqualNode(now)) { kept.push(old); return; }
      if (depth > 0) { kept.push(now); return; }
      Array.prototype.slice.call(old.attributes).forEach(function (a) {
        if (!now.hasAttribute(a.name)) { old.removeAttribute(a.name); }
      });
      Array.prototype.forEach.call(now.attributes, function (a) { old.setAttribute(a.name, a.value); });
      patch(old, now, depth + 1);
      kept.push(old);
    });
    olds.forEach(function (old) { if (kept.indexOf(old) < 0) { old.remove(); } });
    kept.forEach(function (node, i) {
      var here = current.children[i];
      if (here !== node) { current.insertBefore(node, here || null); }
    });
  }

  function say() {
    var line = live.querySelector("[data-say]");
    if (line && announce.textContent !== line.textContent) { announce.textContent = line.textContent; }
  }

  function receive(message) {
    if (message.type === "state") {
      // Another phase has other controls around the live part: draw the whole page again.
      if (message.phase !== root.dataset.phase) { window.location.reload(); return; }
      if (message.last_seq > seq) { seq = message.last_seq; save(); }
      // The game moved on: a refusal shown for an earlier tap (a double tap) is stale.
      if (String(message.version) !== root.dataset.version) { show(""); }
      var focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.intent : null;
      var fresh = document.createElement("template");
      fresh.innerHTML = message.html;  // drawn by the server's templates, text escaped there
      patch(live, fresh.content, 0);
      if (focused && !live.contains(document.activeElement)) {
        // The pressed button is gone: the keyboard goes on from the same control, or the
        // room's next one (the card after « poser la main »), never from the page's top.
        var controls = live.querySelectorAll("[data-intent]");
        var again = Array.prototype.find.call(controls,
          function (el) { return el.dataset.intent === focused; }) || controls[0];
        if (again) { again.focus(); }
      }
      root.dataset.version = message.version;  // the version of the game on screen
      say();
      if (!pinger && message.ping) {
        pinger = setInterval(function () { send({ type: "ping" }); }, message.ping * 1000);
      }
    } else if (message.type === "refused") {
      show(message.message || root.dataset.refused);
    } else if (message.type === "slow") {
      show(root.dataset.slow);
    } else if (message.type === "ack") {
      show("");
    } else if (message.type === "duplicate" && last && last.data.seq === message.seq && !last.again) {
      // Another tab of this phone numbered its taps past this one's: the tap was not
      // taken. Sent once more with a fresh number, it is checked against the game again.
      seq = Math.max(seq, message.last_seq);
      var data = last.data;
      delete data.seq;
      intent(data, true);
    }
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + root.dataset.socket);
    socket.onopen = function () { retries = 0; show(""); };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      receive(message);
    };
    socket.onclose = function (event) {
      if (pinger) { clearInterval(pinger); pinger = null; }
      if (closed) { return; }
      if (event.code === 4404) { show(root.dataset.gone); return; }
      show(root.dataset.offline);
      retries = Math.min(retries + 1, 5);
      setTimeout(connect, 400 * Math.pow(2, retries - 1));
    };
  }

  live.addEventListener("click", function (event) {
    var button = event.target.closest("[data-intent]");
    if (!button || button.disabled) { return; }
    event.preventDefault();
    var data;
    try { data = JSON.parse(button.dataset.intent); } catch (e) { return; }
    intent(data);
  });

  // A phone that slept comes back: reconnect at once rather than at the next retry.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && socket && socket.readyState === WebSocket.CLOSED) {
      retries = 0;
      connect();
    }
  });
  window.addEventListener("pagehide", function () { closed = true; if (socket) { socket.close(); } });

  say();
  connect();
})();
