// Progressive enhancement for the dashboard; every page works without it.
// - live progress: elements with data-poll-job follow GET /api/v1/jobs/{id};
// - partial navigation: links and forms marked data-partial swap #results in place and
//   keep the URL (shareable, back button) in step;
// - forms marked data-once send once; buttons with data-copy copy a field.
(function () {
  "use strict";

  var STAGES = {
    references: "Fetching site previews",
    crawl: "Crawling the sites",
    discovery: "Finding keywords",
    metrics: "Measuring search demand",
    analysis: "Scoring, clustering and personas"
  };

  function words(job) {
    if (job.status === "queued") return "Waiting to start";
    if (job.status === "completed") return "Completed";
    if (job.status === "failed") return "Failed";
    return (job.progress && STAGES[job.progress.stage]) || "Running";
  }

  function update(element, job) {
    var bar = element.querySelector("[data-progress]");
    if (bar) { bar.value = job.progress.percent; bar.textContent = job.progress.percent + "%"; }
    var stage = element.querySelector("[data-stage]");
    if (stage) stage.textContent = words(job);
    var status = element.querySelector("[data-status]");
    if (status) { status.textContent = job.status; status.className = "status status-" + job.status; }
    var count = element.querySelector("[data-keyword-count]");
    if (count && job.keywordCount !== null && job.keywordCount !== undefined) count.textContent = job.keywordCount;
  }

  function follow(element) {
    var id = element.getAttribute("data-poll-job");
    var reload = element.hasAttribute("data-reload-when-done");
    function poll() {
      fetch("/api/v1/jobs/" + encodeURIComponent(id), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (body) {
          if (!body) return;
          update(element, body.job);
          if (body.job.status === "completed" || body.job.status === "failed") {
            element.removeAttribute("data-poll-job");
            if (reload) refresh();
            return;
          }
          window.setTimeout(poll, 2000);
        })
        .catch(function () { window.setTimeout(poll, 5000); });
    }
    window.setTimeout(poll, 1500);
  }

  // A finished job's page gains its results: fetch it again and replace the content, so the
  // page never reloads and keeps its place in history.
  function refresh() {
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (fresh && main) main.replaceWith(fresh);
      });
  }

  function swap(url, push) {
    var results = document.getElementById("results");
    if (!results) { window.location.href = url; return; }
    results.classList.add("loading");
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.getElementById("results");
        if (!fresh) { window.location.href = url; return; }
        results.replaceWith(fresh);
        var tabs = document.querySelector("nav.tabs"), freshTabs = page.querySelector("nav.tabs");
        if (tabs && freshTabs) tabs.replaceWith(freshTabs);
        if (push) window.history.pushState({ partial: true }, "", url);
        document.title = page.title;
      })
      .catch(function () { window.location.href = url; });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-partial]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    swap(link.href, true);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    // Attributes, not form.action and form.method: a field named "action" (the content plan's
    // filter) takes the place of those properties.
    var method = (form.getAttribute("method") || "get").toLowerCase();
    if (form.hasAttribute("data-partial") && method === "get") {
      event.preventDefault();
      var query = new URLSearchParams();
      new FormData(form).forEach(function (value, name) {
        if (String(value).trim() === "") return;
        var known = query.get(name);
        if (known !== null && (name === "intent" || name === "personaAvatarNames")) query.set(name, known + "," + value);
        else query.set(name, value);
      });
      swap((form.getAttribute("action") || window.location.pathname) + "?" + query.toString(), true);
      return;
    }
    if (form.hasAttribute("data-once")) {
      if (form.getAttribute("data-sent")) { event.preventDefault(); return; }
      form.setAttribute("data-sent", "true");
      var button = form.querySelector("button[type=submit]");
      if (button) window.setTimeout(function () { button.disabled = true; }, 0);
    }
  });

  window.addEventListener("popstate", function () {
    if (document.getElementById("results")) swap(window.location.href, false);
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.querySelector(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
    else { document.execCommand("copy"); done(); }
  });

  // A keyword file is read into the keywords box; the server parses it (CSV or one per line).
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("input[type=file][data-fill]") || !input.files.length) return;
    var file = input.files[0];
    var box = document.getElementById(input.getAttribute("data-fill"));
    var format = document.getElementById(input.getAttribute("data-format"));
    file.text().then(function (text) {
      box.value = text;
      if (format) format.value = /\.csv$/i.test(file.name) || file.type === "text/csv" ? "csv" : "text";
    });
  });

  document.querySelectorAll("[data-poll-job]").forEach(follow);
})();
