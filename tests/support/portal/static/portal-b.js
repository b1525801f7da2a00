// Layout B of the test portal: everything happens through fetch, in place.
(function () {
  "use strict";

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
  }

  function text(tag, value, className) {
    const node = document.createElement(tag);
    node.textContent = value;
    if (className) node.className = className;
    return node;
  }

  // Avatar menu.
  document.querySelectorAll(".avatar-menu").forEach((menu) => {
    const button = menu.querySelector(".avatar");
    const list = menu.querySelector("[role=menu]");
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      list.hidden = !open;
    });
  });

  // Catalog search: results rendered in place, the URL never changes.
  const searchForm = document.getElementById("search-form");
  if (searchForm) {
    searchForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const q = document.getElementById("search-box").value;
      const results = document.getElementById("results");
      const response = await fetch("/api/search?q=" + encodeURIComponent(q));
      const products = await response.json();
      results.replaceChildren();
      if (!products.length) {
        results.appendChild(text("p", "No results", "empty"));
        return;
      }
      const list = document.createElement("ul");
      list.className = "result-list";
      for (const product of products) {
        const item = document.createElement("li");
        const link = text("a", product.name);
        link.href = "/b/product/" + product.id;
        item.append(link, " ", text("span", "$" + product.price.toFixed(2), "price"));
        list.appendChild(item);
      }
      results.appendChild(list);
    });
  }

  // Preferences: switches flip locally; "Save changes" posts them and shows nothing.
  document.querySelectorAll("[role=switch]").forEach((toggle) => {
    toggle.addEventListener("click", () => {
      toggle.setAttribute("aria-checked", String(toggle.getAttribute("aria-checked") !== "true"));
    });
  });
  const savePrefs = document.getElementById("save-prefs");
  if (savePrefs) {
    savePrefs.addEventListener("click", () => {
      const values = {};
      document.querySelectorAll("[role=switch]").forEach((toggle) => {
        values[toggle.dataset.key] = toggle.getAttribute("aria-checked") === "true";
      });
      post("/api/settings", values);
    });
  }

  // Team cards.
  document.querySelectorAll("article.card").forEach((card) => {
    card.addEventListener("click", async (event) => {
      const button = event.target.closest("button[data-action]");
      if (!button) return;
      const id = card.dataset.id;
      const action = button.dataset.action;
      if (action === "edit") {
        window.location.href = "/b/people/" + id + "/edit";
        return;
      }
      const response = await post("/api/people/" + id + "/" + action);
      if (!response.ok) return;
      const person = await response.json();
      card.classList.toggle("inactive", !person.active);
      card.querySelector(".status").textContent = person.active ? "Active" : "Inactive";
      button.dataset.action = person.active ? "deactivate" : "activate";
      button.textContent = person.active ? "Deactivate" : "Activate";
    });
  });

  const personForm = document.getElementById("person-form");
  if (personForm) {
    personForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const role = personForm.querySelector("select").value;
      const response = await post("/api/people/" + personForm.dataset.id, { role: role });
      if (response.ok) window.location.href = "/b/people";
    });
  }

  // Reports: the service is down.
  const generate = document.getElementById("generate-report");
  if (generate) {
    generate.addEventListener("click", async () => {
      const period = document.querySelector("input[name=period]:checked").value;
      const response = await post("/api/reports", { period: period });
      const box = document.getElementById("report-error");
      box.replaceChildren();
      if (!response.ok) {
        const body = await response.json();
        box.appendChild(text("div", body.error, "banner banner-danger"));
      }
    });
  }
})();
