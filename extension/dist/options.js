"use strict";
(() => {
  // src/api/client.ts
  var IDEMPOTENCY_HEADER = "Idempotency-Key";
  var MAX_RETRY_AFTER_S = 60;
  var WAITS_WHILE_IN_FLIGHT = 5;
  var REQUEST_TIMEOUT_MS = 9e4;
  var ApiError = class extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  };
  var sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  function retryAfter(response) {
    const seconds = Number(response.headers.get("Retry-After") ?? "1");
    return Math.min(Math.max(Number.isFinite(seconds) ? seconds : 1, 0), MAX_RETRY_AFTER_S) * 1e3;
  }
  async function errorOf(response) {
    const text = await response.text();
    try {
      const body = JSON.parse(text);
      if (body && body.error) return new ApiError(response.status, body.error.code || "HTTP_ERROR", body.error.message || response.statusText);
    } catch {
    }
    return new ApiError(response.status, "HTTP_ERROR", text.slice(0, 300) || response.statusText);
  }
  var StepwiseApi = class {
    constructor(settings) {
      this.settings = settings;
    }
    headers(extra = {}) {
      const headers = { Accept: "application/json", ...extra };
      if (this.settings.apiKey) headers.Authorization = `Bearer ${this.settings.apiKey}`;
      return headers;
    }
    async send(method, path, init = {}) {
      let rateLimited = 0;
      let lost = 0;
      let inFlight = 0;
      for (; ; ) {
        let response;
        try {
          response = await fetch(this.settings.serverUrl + path, {
            method,
            headers: this.headers(init.headers),
            body: init.body,
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
            credentials: "omit"
          });
        } catch (error2) {
          if (init.resend && lost < 1) {
            lost += 1;
            continue;
          }
          throw new ApiError(0, "UNREACHABLE", `${method} ${this.settings.serverUrl}${path} failed (is the server running at that address? see Settings): ${error2 instanceof Error ? error2.message : String(error2)}`);
        }
        if (response.status === 429 && rateLimited === 0) {
          rateLimited += 1;
          await sleep(retryAfter(response));
          continue;
        }
        if (response.ok) return response.json();
        const error = await errorOf(response);
        if (init.resend && error.code === "IDEMPOTENCY_KEY_IN_FLIGHT" && inFlight < WAITS_WHILE_IN_FLIGHT) {
          inFlight += 1;
          await sleep(retryAfter(response));
          continue;
        }
        throw error;
      }
    }
    /** POST /api/agent/interact with the given key (the same key on a re-send after a worker restart). */
    async interact(body, key) {
      return await this.send("POST", "/api/agent/interact", {
        body: JSON.stringify(body),
        headers: { "Content-Type": "application/json", [IDEMPOTENCY_HEADER]: key },
        resend: true
      });
    }
    /** GET /api/session/{id}/task/active?url=; null when the session has no active task (404). */
    async activeTask(sessionId, url) {
      try {
        const query = new URLSearchParams({ url }).toString();
        return await this.send("GET", `/api/session/${encodeURIComponent(sessionId)}/task/active?${query}`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    }
    /** Whether the server answers /readyz, and whether the key is accepted (GET /api/tasks). */
    async check() {
      let ready = false;
      try {
        const response = await fetch(this.settings.serverUrl + "/readyz", { signal: AbortSignal.timeout(5e3), credentials: "omit" });
        ready = response.ok;
        if (ready) await response.json();
      } catch (error) {
        return { ready: false, authorized: false, message: `server not reachable: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (!ready) return { ready, authorized: false, message: "the server answers but is not ready (/readyz)" };
      try {
        await this.send("GET", "/api/tasks");
        return { ready, authorized: true, message: "server ready, API key accepted" };
      } catch (error) {
        const text = error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : String(error);
        return { ready, authorized: false, message: `server ready, but the API key was refused (${text})` };
      }
    }
  };

  // src/shared/state.ts
  var SETTINGS_KEY = "settings";
  var DEFAULT_SERVER = "http://127.0.0.1:8000";
  var TASK_EXPIRY_MS = 30 * 60 * 1e3;
  async function loadSettings() {
    const got = await chrome.storage.local.get(SETTINGS_KEY);
    const raw = got[SETTINGS_KEY] ?? {};
    return { serverUrl: (raw.serverUrl || DEFAULT_SERVER).replace(/\/+$/, ""), apiKey: raw.apiKey || "" };
  }

  // src/options/index.ts
  var byId = (id) => document.getElementById(id);
  var serverInput = byId("server-url");
  var keyInput = byId("api-key");
  var saved = byId("saved");
  var testResult = byId("test-result");
  function current() {
    return { serverUrl: (serverInput.value.trim() || DEFAULT_SERVER).replace(/\/+$/, ""), apiKey: keyInput.value.trim() };
  }
  async function load() {
    const settings = await loadSettings();
    serverInput.value = settings.serverUrl;
    keyInput.value = settings.apiKey;
  }
  byId("settings-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      await chrome.storage.local.set({ [SETTINGS_KEY]: current() });
      saved.hidden = false;
      saved.textContent = `Saved at ${(/* @__PURE__ */ new Date()).toLocaleTimeString()}.`;
    })();
  });
  byId("test").addEventListener("click", () => {
    testResult.textContent = "Testing…";
    testResult.dataset.ok = "";
    void new StepwiseApi(current()).check().then((result) => {
      testResult.textContent = result.message;
      testResult.dataset.ok = String(result.ready && result.authorized);
    });
  });
  void load();
})();
