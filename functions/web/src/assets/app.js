// Progressive enhancement for the dashboard; every page works without it.
// - live progress: elements with data-poll-job follow GET /api/v1/jobs/{id};
// - partial navigation: links and forms marked data-partial swap #results in place and
//   keep the URL (shareable, back button) in step;
// - forms marked data-once send once; buttons with data-copy copy a field;
// - the new-job form previews what the job will use (POST /api/v1/jobs/estimate);
// - a brief not made yet is made by the API (POST .../brief), then the page shows it;
// - Settings → Search Console connects (POST, then Google's consent page) and disconnects
//   (DELETE) through the API, and its callback page posts Google's code and state to it.
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
      box.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });

  // What a job on the form as it stands would use, from the API's own estimate, so the form
  // and POST /jobs/estimate can never disagree. Asked for once the user pauses typing.
  function numbers(value) { return Number(value).toLocaleString("en-US"); }

  function estimateRequest(form) {
    var field = function (name) { var element = form.elements[name]; return element ? element.value.trim() : ""; };
    var competitors = field("competitorDomains").split(/[\n,]/).map(function (line) { return line.trim(); })
      .filter(function (line) { return line !== ""; });
    var discover = !(form.elements.keywordsOnly && form.elements.keywordsOnly.checked);
    var keywords = field("keywords");
    if (keywords === "") {
      var location = Number(field("locationCode"));
      return { url: "/api/v1/jobs/estimate", type: "application/json", body: JSON.stringify({
        primaryDomain: field("primaryDomain"), competitorDomains: competitors, languageCode: field("languageCode"),
        locationCode: field("locationCode") !== "" && Number.isInteger(location) ? location : field("locationCode"),
        discoverKeywords: discover }) };
    }
    var query = new URLSearchParams({ primaryDomain: field("primaryDomain"), languageCode: field("languageCode"),
      locationCode: field("locationCode"), discoverKeywords: String(discover) });
    if (competitors.length) query.set("competitorDomains", competitors.join(","));
    return { url: "/api/v1/jobs/estimate?" + query.toString(),
      type: field("keywordsFormat") === "csv" ? "text/csv" : "text/plain", body: form.elements.keywords.value };
  }

  function showEstimate(box, estimate) {
    var lines = [];
    var keywords = estimate.keywords;
    lines.push("Keeps up to " + numbers(keywords.totalAtMost) + " keywords" +
      (keywords.imported ? " (" + numbers(keywords.imported) + " of yours" +
        (keywords.discoveredAtMost ? " + up to " + numbers(keywords.discoveredAtMost) + " found)" : ")") : "") + ".");
    lines.push("Uses 1 of your " + numbers(estimate.runsBalance) + " runs" +
      (estimate.newDomain ? " and a new domain (" + numbers(estimate.domainsBalance) + " left)." : "; you have researched this domain before."));
    var provider = estimate.provider;
    if (provider) {
      lines.push("Search results for up to " + numbers(Math.min(provider.serpBudget, keywords.totalAtMost)) +
        " keywords (highest volume first) are fetched and clustered by shared results; the rest are clustered by words.");
      lines.push("Data from " + provider.provider + " costs at most $" + provider.maxCostUsd.toFixed(2) +
        " (per-job cap $" + provider.capUsd.toFixed(2) + ").");
    } else {
      lines.push("No data provider is configured: demand is estimated from the crawl and keywords are clustered by words, at no data cost.");
    }
    if (estimate.refusal === "insufficient_credits") lines.push("It would be refused now: no runs left.");
    if (estimate.refusal === "domain_limit_reached") lines.push("It would be refused now: your allowance of new domains is used up.");
    box.replaceChildren.apply(box, lines.map(function (text) { var line = document.createElement("span"); line.textContent = text; return line; }));
    box.setAttribute("data-state", estimate.refusal ? "refused" : "ready");
  }

  function previewEstimates(box) {
    var form = box.form;
    var timer = null, asked = 0;
    function ask() {
      var request = estimateRequest(form), mine = ++asked;
      if (!form.elements.primaryDomain.value.trim()) {
        box.textContent = "Enter your site to see what the job will use.";
        box.setAttribute("data-state", "waiting");
        return;
      }
      fetch(request.url, { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": request.type, Accept: "application/json" }, body: request.body })
        .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
        .then(function (answer) {
          if (mine !== asked) return;
          if (answer.ok) { showEstimate(box, answer.body.estimate); return; }
          box.textContent = "Once every field is valid, this shows what the job will use.";
          box.setAttribute("data-state", "invalid");
        })
        .catch(function () { if (mine === asked) box.textContent = ""; });
    }
    function later() { window.clearTimeout(timer); timer = window.setTimeout(ask, 400); }
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    box.hidden = false;
    ask();
  }

  // The API makes the brief (reading the ranking pages takes a few seconds); the page then
  // reloads to show the stored one. Refusals (not completed, the job's bound, another request
  // making it) are shown.
  function briefMaker(box) {
    var button = box.querySelector("[data-make-brief]");
    var error = box.querySelector("[data-brief-error]");
    button.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      button.textContent = "Reading the pages that rank…";
      fetch(box.getAttribute("data-brief-endpoint"), { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
        .then(function (answer) {
          if (answer.ok) { window.location.reload(); return; }
          error.textContent = answer.body.error || "The brief could not be made.";
          error.hidden = false;
          button.disabled = false;
          button.textContent = "Try again";
        })
        .catch(function () {
          error.textContent = "The brief could not be made; check your connection and try again.";
          error.hidden = false;
          button.disabled = false;
          button.textContent = "Try again";
        });
    });
  }

  // The API's answer as { ok, status, body }; a body that is not JSON (204, a proxy's page)
  // is null.
  function callApi(url, method, payload) {
    var init = { method: method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (payload !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(payload); }
    return fetch(url, init).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (ignored) { body = null; }
        return { ok: response.ok, status: response.status, body: body };
      });
    });
  }

  function showError(element, text) {
    element.textContent = text;
    element.hidden = false;
  }

  // Settings → Search Console: Connect (or Reconnect) asks the API for Google's consent page
  // and goes there; Disconnect revokes after a confirmation.
  function searchConsole(section) {
    var api = section.getAttribute("data-search-console");
    var error = section.querySelector("[data-sc-error]");
    var buttons = section.querySelectorAll("[data-sc-connect], [data-sc-disconnect]");
    function busy(on) { buttons.forEach(function (button) { button.disabled = on; }); }
    function failed(answer, fallback) {
      busy(false);
      showError(error, (answer && answer.body && answer.body.error) || fallback);
    }
    section.querySelectorAll("[data-sc-connect]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        busy(true);
        error.hidden = true;
        callApi(api, "POST")
          .then(function (answer) {
            if (answer.ok && answer.body && answer.body.authorizationUrl) {
              window.location.assign(answer.body.authorizationUrl);
              return;
            }
            failed(answer, "Search Console could not be connected. Try again in a minute.");
          })
          .catch(function () { failed(null, "Search Console could not be reached; check your connection and try again."); });
      });
    });
    section.querySelectorAll("[data-sc-disconnect]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        if (!window.confirm("Disconnect Search Console? Access is revoked at Google, and jobs no longer read its data.")) return;
        busy(true);
        error.hidden = true;
        callApi(api, "DELETE")
          .then(function (answer) {
            // 404: already disconnected (another tab); the page shows how things are.
            if (answer.ok || answer.status === 404) { window.location.assign(window.location.pathname); return; }
            failed(answer, "Search Console could not be disconnected. Try again in a minute.");
          })
          .catch(function () { failed(null, "Search Console could not be reached; check your connection and try again."); });
      });
    });
  }

  // Settings → Search Console: a service account's JSON key file, read here and put to the
  // API as it is; the API's refusal (naming the field) is shown as text.
  function serviceAccountKey(form) {
    var input = form.querySelector("input[type=file]");
    var button = form.querySelector("button[type=submit]");
    var error = form.querySelector("[data-sc-key-error]");
    form.hidden = false;
    function failed(text) {
      button.disabled = false;
      showError(error, text);
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      error.hidden = true;
      var file = input.files && input.files[0];
      if (!file) { failed("Choose the service account's JSON key file."); return; }
      if (file.size > 16 * 1024) { failed("That file is larger than a service-account key (16 KiB at most)."); return; }
      button.disabled = true;
      file.text()
        .then(function (text) {
          return fetch(form.getAttribute("data-sc-service-account"), {
            method: "PUT",
            credentials: "same-origin",
            headers: { Accept: "application/json", "Content-Type": "application/json" },
            body: text
          });
        })
        .then(function (response) {
          return response.text().then(function (text) {
            var body = null;
            try { body = text ? JSON.parse(text) : null; } catch (ignored) { body = null; }
            return { ok: response.ok, body: body };
          });
        })
        .then(function (answer) {
          if (answer.ok) { window.location.assign("/settings/search-console?connected=1"); return; }
          failed((answer.body && answer.body.error) || "The key could not be used. Try again in a minute.");
        })
        .catch(function () { failed("The key could not be read or sent; check your connection and try again."); });
    });
  }

  // The page Google sends the browser back to: the API redeems the code, then the settings
  // page shows the connection. The code is spent either way, so the page is replaced in
  // history and the back button cannot send it again.
  function finishConnection(box) {
    var error = box.querySelector("[data-sc-error]");
    var progress = box.querySelector("[data-sc-progress]");
    var back = box.querySelector("[data-sc-back]");
    function failed(text) {
      progress.hidden = true;
      showError(error, text);
      back.hidden = false;
    }
    callApi(box.getAttribute("data-sc-callback"), "POST",
      { code: box.getAttribute("data-code"), state: box.getAttribute("data-state") })
      .then(function (answer) {
        if (answer.ok) { window.location.replace(box.getAttribute("data-done")); return; }
        failed((answer.body && answer.body.error) || "The connection could not be finished. Start again from the settings.");
      })
      .catch(function () { failed("The connection could not be finished; check your connection and start again from the settings."); });
  }

  document.querySelectorAll("output[data-estimate]").forEach(previewEstimates);
  document.querySelectorAll("[data-brief-endpoint]").forEach(briefMaker);
  document.querySelectorAll("[data-poll-job]").forEach(follow);
  document.querySelectorAll("[data-search-console]").forEach(searchConsole);
  document.querySelectorAll("[data-sc-callback]").forEach(finishConnection);
  document.querySelectorAll("[data-sc-service-account]").forEach(serviceAccountKey);
})();
