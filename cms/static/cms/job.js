// A background job's page: follow its progress every second, show the end when it comes.
"use strict";
(function () {
  const EVERY = 1000; // ms

  function setUp() {
    const page = document.querySelector("[data-status-url]");
    if (!page) return;
    const state = document.getElementById("plateau-job-state");
    const bar = document.getElementById("plateau-job-progress");
    const count = document.getElementById("plateau-job-count");
    const shown = page.dataset.state;

    function poll() {
      fetch(page.dataset.statusUrl, {credentials: "same-origin", cache: "no-store"})
        .then((response) => {
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then((job) => {
          // The end (or a new state) is drawn by the server: the file, the report, the links.
          if (job.ended || job.state !== shown) {
            location.reload();
            return;
          }
          state.textContent = job.state_label;
          if (job.total) {
            bar.max = job.total;
            bar.value = job.done;
            count.textContent = job.done + " / " + job.total;
          }
          setTimeout(poll, EVERY);
        })
        .catch(() => setTimeout(poll, EVERY * 3));
    }
    setTimeout(poll, EVERY);
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
