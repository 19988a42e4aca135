// Offer the themes of the game of the kind chosen (each game's themes are a <datalist>).
"use strict";
(function () {
  function setUp() {
    const input = document.querySelector("input[data-theme-games]");
    if (!input) return;
    const games = JSON.parse(input.dataset.themeGames);
    const select = document.getElementById("id_kind");
    if (!select) return;
    function follow() {
      const game = games[select.value];
      if (game) input.setAttribute("list", "plateau-themes-" + game);
    }
    select.addEventListener("change", follow);
    follow();
  }
  document.addEventListener("DOMContentLoaded", setUp);
})();
