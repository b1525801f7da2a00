"use strict";
(() => {
  // src/shared/state.ts
  var TASK_EXPIRY_MS = 30 * 60 * 1e3;
  var taskKey = (tabId2) => `task_${tabId2}`;
  async function loadTask(tabId2) {
    const key = taskKey(tabId2);
    const got = await chrome.storage.local.get(key);
    return got[key] ?? null;
  }

  // src/sidepanel/render.ts
  var STATUS_TEXT = {
    idle: "Idle — type a goal and press Run",
    running: "Running…",
    paused: "Paused",
    completed: "Completed",
    failed: "Failed",
    needs_user_input: "Needs your input",
    needs_confirmation: "Needs your confirmation",
    error: "Error",
    max_steps: "Stopped at the step limit",
    stopped: "Stopped"
  };
  function el(tag, attrs = {}, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    if (text !== void 0) node.textContent = text;
    return node;
  }
  function clauses(contract) {
    const list = el("ul", { class: "contract", "aria-label": "Goal contract" });
    for (const clause of contract?.clauses ?? []) {
      const item = el("li", { class: "clause", "data-state": clause.status, "data-kind": clause.kind }, clauseText(clause));
      list.append(item);
    }
    return list;
  }
  var clauseText = (clause) => `${clause.description} — ${clause.status}${clause.detail ? ` (${clause.detail})` : ""}`;
  function stepItem(step) {
    const item = el("li", { class: "step", "data-step-index": String(step.index), "data-server-step": String(step.serverStepIndex) });
    const head = el("div", { class: "head" });
    head.append(el("span", {}, `Step ${step.index + 1}`), el("span", {}, `${step.decidedBy} · ${step.status}`));
    item.append(head, el("p", { class: "thought" }, step.thought));
    const action = el("div", { class: "action", "data-status": step.actionStatus ?? "" });
    if (step.actions.length) {
      const list = el("ol");
      for (const text of step.actions) {
        const entry = el("li");
        entry.append(el("code", {}, text));
        list.append(entry);
      }
      action.append("Chain: ", list);
    } else {
      action.append(el("code", {}, step.action));
    }
    item.append(action);
    if (step.actionError) item.append(el("p", { class: "error" }, step.actionError));
    const verdict = step.verdict;
    item.append(el("div", {
      class: "verdict",
      "data-success": verdict ? String(verdict.success) : "",
      "data-tier": verdict ? String(verdict.tier) : ""
    }, verdict ? `${verdict.success ? "Verified" : "Not verified"} (tier ${verdict.tier}): ${verdict.reason}` : step.actionStatus === "terminal" ? "Nothing to verify: the task ended here (see the status)" : "Verification comes with the next answer"));
    item.append(clauses(step.contract));
    if (step.memory) item.append(el("div", { class: "memory" }, `Memory: ${step.memory}`));
    return item;
  }
  function evidence(state) {
    const out = [];
    if (state.evidence) {
      out.push(el("p", { class: "final-thought" }, state.evidence.thought));
      const proven = (state.evidence.contract?.clauses ?? []).filter((c) => c.status === "holds");
      if (proven.length) {
        const list = el("ul", { "aria-label": "Proven on the page" });
        for (const clause of proven) list.append(el("li", { class: "clause", "data-state": clause.status }, clauseText(clause)));
        out.push(el("p", {}, "Proven on the page:"), list);
      }
      if (state.evidence.failureCode) out.push(el("p", { class: "error", "data-failure-code": state.evidence.failureCode }, `Failure code: ${state.evidence.failureCode}`));
    }
    if (state.error && state.status !== "completed") out.push(el("p", { class: "error" }, state.errorCode ? `${state.errorCode}: ${state.error}` : state.error));
    return out;
  }
  function render(state) {
    const status = document.getElementById("status");
    const shown = state?.status ?? "idle";
    status.dataset.status = shown;
    status.textContent = STATUS_TEXT[shown] ?? shown;
    const evidenceBox = document.getElementById("evidence");
    evidenceBox.replaceChildren(...state ? evidence(state) : []);
    const steps = document.getElementById("steps");
    steps.replaceChildren(...(state?.steps ?? []).map(stepItem));
    const running = shown === "running" || shown === "paused";
    document.getElementById("run").disabled = running;
    const pause = document.getElementById("pause");
    pause.disabled = !running;
    pause.textContent = shown === "paused" ? "Resume" : "Pause";
    pause.setAttribute("aria-pressed", String(shown === "paused"));
    document.getElementById("stop").disabled = !running;
    if (state && !document.getElementById("goal").value) {
      document.getElementById("goal").value = state.goal;
    }
  }

  // src/sidepanel/index.ts
  var PING_MS = 1e3;
  var fixed = Number(new URLSearchParams(location.search).get("tabId"));
  var tabId = Number.isInteger(fixed) && fixed > 0 ? fixed : null;
  async function send(command) {
    try {
      return await chrome.runtime.sendMessage(command);
    } catch {
      return null;
    }
  }
  async function show() {
    const label = document.getElementById("tab-label");
    if (tabId === null) {
      label.textContent = "no tab";
      render(null);
      return;
    }
    try {
      const tab = await chrome.tabs.get(tabId);
      label.textContent = `${tab.title || tab.url || ""} (#${tabId})`;
    } catch {
      label.textContent = `#${tabId} (closed)`;
    }
    render(await loadTask(tabId));
  }
  async function followActiveTab() {
    if (fixed > 0) return;
    const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
    tabId = tab?.id ?? null;
    await show();
  }
  document.getElementById("goal-form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    const goal = document.getElementById("goal").value.trim();
    if (!goal || tabId === null) return;
    void send({ type: "run", goal, tabId });
  });
  document.getElementById("pause")?.addEventListener("click", () => {
    if (tabId === null) return;
    const paused = document.getElementById("status").dataset.status === "paused";
    void send({ type: paused ? "resume" : "pause", tabId });
  });
  document.getElementById("stop")?.addEventListener("click", () => {
    if (tabId !== null) void send({ type: "stop", tabId });
  });
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && tabId !== null && changes[taskKey(tabId)]) render(changes[taskKey(tabId)].newValue ?? null);
  });
  chrome.tabs.onActivated.addListener(() => {
    void followActiveTab();
  });
  chrome.tabs.onUpdated.addListener((id, info) => {
    if (id === tabId && info.title) void show();
  });
  setInterval(() => {
    void send({ type: "ping" });
  }, PING_MS);
  void (tabId === null ? followActiveTab() : show());
  void send({ type: "ping" });
})();
