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
      const body2 = JSON.parse(text);
      if (body2 && body2.error) return new ApiError(response.status, body2.error.code || "HTTP_ERROR", body2.error.message || response.statusText);
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
    async interact(body2, key) {
      return await this.send("POST", "/api/agent/interact", {
        body: JSON.stringify(body2),
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
      let ready2 = false;
      try {
        const response = await fetch(this.settings.serverUrl + "/readyz", { signal: AbortSignal.timeout(5e3), credentials: "omit" });
        ready2 = response.ok;
        if (ready2) await response.json();
      } catch (error) {
        return { ready: false, authorized: false, message: `server not reachable: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (!ready2) return { ready: ready2, authorized: false, message: "the server answers but is not ready (/readyz)" };
      try {
        await this.send("GET", "/api/tasks");
        return { ready: ready2, authorized: true, message: "server ready, API key accepted" };
      } catch (error) {
        const text = error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : String(error);
        return { ready: ready2, authorized: false, message: `server ready, but the API key was refused (${text})` };
      }
    }
  };

  // src/shared/state.ts
  var SETTINGS_KEY = "settings";
  var DEFAULT_SERVER = "http://127.0.0.1:8000";
  var TASK_EXPIRY_MS = 30 * 60 * 1e3;
  var FINAL = /* @__PURE__ */ new Set([
    "completed",
    "failed",
    "needs_user_input",
    "needs_confirmation",
    "error",
    "max_steps",
    "stopped"
  ]);
  var taskKey = (tabId) => `task_${tabId}`;
  async function loadTask(tabId) {
    const key = taskKey(tabId);
    const got = await chrome.storage.local.get(key);
    return got[key] ?? null;
  }
  async function saveTask(state) {
    state.updatedAt = Date.now();
    await chrome.storage.local.set({ [taskKey(state.tabId)]: state });
  }
  async function allTasks() {
    const everything = await chrome.storage.local.get(null);
    return Object.entries(everything).filter(([key]) => key.startsWith("task_")).map(([, value]) => value);
  }
  async function loadSettings() {
    const got = await chrome.storage.local.get(SETTINGS_KEY);
    const raw = got[SETTINGS_KEY] ?? {};
    return { serverUrl: (raw.serverUrl || DEFAULT_SERVER).replace(/\/+$/, ""), apiKey: raw.apiKey || "" };
  }
  function newTask(tabId, goal, maxSteps) {
    return {
      tabId,
      goal,
      status: "running",
      phase: "capture",
      taskId: null,
      sessionId: null,
      url: "",
      timestamp: 0,
      stepIndex: null,
      recovered: false,
      count: 0,
      maxSteps,
      pending: null,
      answer: null,
      report: null,
      armed: null,
      lastUrl: null,
      needsFullDom: false,
      needsScreenshot: false,
      frames: {},
      floors: {},
      actedAt: null,
      steps: [],
      paused: false,
      error: null,
      errorCode: null,
      evidence: null,
      recoveries: 0,
      resumes: 0,
      updatedAt: Date.now(),
      hook: null,
      dialogs: [],
      question: null,
      confirm: null
    };
  }

  // src/shared/actions.ts
  var NAMES = [
    "click",
    "setValue",
    "select",
    "press",
    "scroll",
    "hover",
    "navigate",
    "goBack",
    "wait",
    "finish",
    "fail",
    "googleSearch"
  ];
  var BY_LOWER = new Map(NAMES.map((name) => [name.toLowerCase(), name]));
  var DIRECTIONS = /* @__PURE__ */ new Set(["up", "down", "left", "right", "top", "bottom"]);
  var TERMINAL = /* @__PURE__ */ new Set(["finish", "fail"]);
  function args(text) {
    const out = [];
    let i = 0;
    const skip = () => {
      while (i < text.length && /\s/.test(text[i])) i += 1;
    };
    skip();
    while (i < text.length) {
      const quote = text[i];
      if (quote === '"' || quote === "'") {
        let j = i + 1;
        let raw = "";
        while (j < text.length && text[j] !== quote) {
          if (text[j] === "\\" && j + 1 < text.length) {
            const next = text[j + 1];
            const simple = { n: "\n", t: "	", r: "\r", b: "\b", f: "\f", "/": "/", "\\": "\\", '"': '"', "'": "'" };
            if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
              raw += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
              j += 6;
              continue;
            }
            raw += simple[next] ?? "\\" + next;
            j += 2;
            continue;
          }
          raw += text[j];
          j += 1;
        }
        if (j >= text.length) throw new Error(`unterminated string in ${text}`);
        out.push(raw);
        i = j + 1;
      } else {
        const match = /^[A-Za-z0-9_\-.:/#@+~?=&%]+/.exec(text.slice(i));
        if (!match) throw new Error(`unexpected ${JSON.stringify(text[i])} in an action`);
        out.push(match[0]);
        i += match[0].length;
      }
      skip();
      if (i < text.length) {
        if (text[i] !== ",") throw new Error(`expected ',' in an action, got ${JSON.stringify(text[i])}`);
        i += 1;
        skip();
      }
    }
    return out;
  }
  function parseAction(text) {
    const match = /^\s*([A-Za-z]+)\s*\(([\s\S]*)\)\s*;?\s*$/.exec(text);
    if (!match) throw new Error(`not an action of the grammar: ${JSON.stringify(text)}`);
    const name = BY_LOWER.get(match[1].toLowerCase());
    if (!name) throw new Error(`unknown action ${match[1]}`);
    const a = args(match[2]);
    switch (name) {
      case "click":
      case "hover":
        if (!a[0]) throw new Error(`${name}() needs an element id`);
        return { name, target: a[0] };
      case "setValue":
      case "select":
        if (a.length < 2) throw new Error(`${name}() needs an element id and a value`);
        return { name, target: a[0], value: a[1] };
      case "press":
        if (a.length === 1) return { name, value: a[0] };
        if (a.length === 2) return { name, target: a[0], value: a[1] };
        throw new Error("press() takes a key, or an element id and a key");
      case "scroll":
        if (a.length === 0) return { name };
        if (a.length === 1) return DIRECTIONS.has(a[0].toLowerCase()) ? { name, value: a[0].toLowerCase() } : { name, target: a[0] };
        return { name, target: a[0], value: a[1].toLowerCase() };
      case "navigate":
      case "googleSearch":
        if (a.length < 1) throw new Error(`${name}() needs a value`);
        return { name, value: a[0] };
      case "wait": {
        if (!a.length) return { name };
        const seconds = Number(a[0]);
        if (a[0].trim() === "" || !Number.isFinite(seconds) || seconds < 0) throw new Error("wait() needs a number of seconds");
        return { name, seconds };
      }
      case "finish":
      case "fail":
        return { name, value: a[0] ?? null };
      case "goBack":
        return { name };
    }
  }
  function actionOf(text, details) {
    return details && details.name ? details : parseAction(text);
  }

  // src/background/hook.ts
  function installDialogHook(key, accept, chars, max) {
    const w = globalThis;
    if (Object.prototype.hasOwnProperty.call(w, key)) return false;
    const store = {
      records: [],
      originals: { confirm: w.confirm, alert: w.alert, prompt: w.prompt },
      wrappers: { confirm: void 0, alert: void 0, prompt: void 0 },
      accept,
      dropped: 0
    };
    const text = (message) => {
      let raw = "";
      try {
        raw = message === void 0 ? "" : String(message);
      } catch {
        raw = "";
      }
      return raw.split(/\s+/).filter(Boolean).join(" ").slice(0, chars);
    };
    const record = (kind, message, answered) => {
      if (store.records.length < max) store.records[store.records.length] = { kind, message: text(message), answered };
      else store.dropped += 1;
    };
    const confirm = function confirm2(message) {
      const yes = store.accept;
      store.accept = false;
      record("confirm", message, yes ? "accepted" : "dismissed");
      return yes;
    };
    const alert = function alert2(message) {
      record("alert", message, "accepted");
    };
    const prompt = function prompt2(message) {
      record("prompt", message, "dismissed");
      return null;
    };
    store.wrappers = { confirm, alert, prompt };
    Object.defineProperty(w, key, { value: store, configurable: true, enumerable: false, writable: false });
    w.confirm = confirm;
    w.alert = alert;
    w.prompt = prompt;
    return true;
  }
  function takeDialogHook(key) {
    const w = globalThis;
    if (!Object.prototype.hasOwnProperty.call(w, key)) return null;
    const store = w[key];
    try {
      delete w[key];
    } catch {
    }
    if (!store || typeof store !== "object") return null;
    for (const name of ["confirm", "alert", "prompt"]) {
      if (store.wrappers && w[name] === store.wrappers[name]) w[name] = store.originals[name];
    }
    return { records: store.records, dropped: store.dropped };
  }

  // src/background/dialogs.ts
  var MESSAGE_CHARS = 300;
  var MAX_REPORTED = 10;
  var KINDS = /* @__PURE__ */ new Set(["confirm", "alert", "prompt", "beforeunload"]);
  var ANSWERED = /* @__PURE__ */ new Set(["dismissed", "accepted"]);
  function acceptsDialog(details) {
    return typeof details === "object" && details !== null && details.dialog === "accept";
  }
  function validate(raw, action, room = MAX_REPORTED) {
    const records = typeof raw === "object" && raw !== null ? raw.records : null;
    if (!Array.isArray(records)) return [];
    const out = [];
    for (const entry of records.slice(0, Math.max(0, room))) {
      if (typeof entry !== "object" || entry === null) continue;
      const { kind, message, answered } = entry;
      if (typeof kind !== "string" || !KINDS.has(kind) || typeof answered !== "string" || !ANSWERED.has(answered)) continue;
      const text = typeof message === "string" ? message.split(/\s+/).filter(Boolean).join(" ").slice(0, MESSAGE_CHARS) : "";
      out.push({ kind, message: text, action, answered });
    }
    return out;
  }
  async function installHook(tabId, action, accept) {
    const key = `__stepwise_dialogs_${crypto.randomUUID().replace(/-/g, "")}`;
    for (const target of [{ tabId, allFrames: true }, { tabId, frameIds: [0] }]) {
      try {
        await chrome.scripting.executeScript({ target, world: "MAIN", func: installDialogHook, args: [key, accept, MESSAGE_CHARS, MAX_REPORTED] });
        return { key, action };
      } catch {
      }
    }
    return null;
  }
  async function takeHook(tabId, hook, room = MAX_REPORTED) {
    let results = [];
    try {
      results = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, world: "MAIN", func: takeDialogHook, args: [hook.key] });
    } catch {
      try {
        results = await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: "MAIN", func: takeDialogHook, args: [hook.key] });
      } catch {
        return [];
      }
    }
    const out = [];
    for (const frame of results) out.push(...validate(frame?.result, hook.action, room - out.length));
    return out;
  }

  // src/background/frames.ts
  var PAGE_FILES = ["page_script.js", "content.js"];
  var MESSAGE_TIMEOUT_MS = 5e3;
  var MAX_NODES = 2500;
  var FrameGone = class extends Error {
  };
  var CLOSED = /message channel closed|message port closed|Receiving end does not exist|Could not establish connection|No frame with id|Frame with ID/i;
  async function ask(tabId, frameId, message, timeoutMs = MESSAGE_TIMEOUT_MS) {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new FrameGone(`frame ${frameId} did not answer ${message.type} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const answer = await Promise.race([
        chrome.tabs.sendMessage(tabId, message, { frameId }),
        timeout
      ]);
      if (!answer) throw new FrameGone(`frame ${frameId} gave no answer to ${message.type}`);
      if (!answer.ok) throw new Error(answer.error);
      return answer.value;
    } catch (error) {
      if (error instanceof FrameGone) throw error;
      const text = error instanceof Error ? error.message : String(error);
      if (CLOSED.test(text)) throw new FrameGone(text);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
  async function inject(tabId) {
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: PAGE_FILES });
    try {
      await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: PAGE_FILES });
    } catch {
    }
  }
  async function ready(tabId, boundMs = 15e3) {
    const until = Date.now() + boundMs;
    for (; ; ) {
      const tab = await chrome.tabs.get(tabId);
      if (tab.status === "complete" || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (let attempt = 0; ; attempt += 1) {
      try {
        await inject(tabId);
        return;
      } catch (error) {
        if (attempt >= 20 || Date.now() > until + 5e3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
  }
  async function snapshotFrames(tabId) {
    const results = await chrome.scripting.executeScript({
      target: { tabId, allFrames: true },
      func: () => window.top === window || !!window.__stepwiseContent
    });
    const frames = [];
    for (const result of results.sort((a, b) => a.frameId - b.frameId)) {
      if (!result.result) continue;
      try {
        const hello = await ask(tabId, result.frameId, { type: "hello" }, 2e3);
        if (result.frameId === 0 || hello.sameOriginAsTop && hello.offset) frames.push({ frameId: result.frameId, hello });
      } catch (error) {
        if (result.frameId === 0) throw error;
      }
    }
    if (!frames.length || frames[0].frameId !== 0) throw new FrameGone("the main frame has no content script");
    return frames;
  }
  function prefixOf(state, frameId) {
    if (frameId === 0) return "";
    const key = String(frameId);
    if (state.frames[key] === void 0) {
      const used = Object.values(state.frames);
      state.frames[key] = (used.length ? Math.max(...used) : 0) + 1;
    }
    return `f${state.frames[key]}-`;
  }
  function frameOf(state, elementId) {
    const match = /^f(\d+)-/.exec(elementId);
    if (!match) return 0;
    const entry = Object.entries(state.frames).find(([, n]) => n === Number(match[1]));
    return entry ? Number(entry[0]) : null;
  }
  function remember(state, prefix, tree) {
    const numbers = tree.map((node) => node.i.slice(prefix.length)).filter((rest) => /^\d+$/.test(rest)).map(Number);
    if (numbers.length) state.floors[prefix] = Math.max(state.floors[prefix] ?? 0, ...numbers);
  }
  async function capture(state, options) {
    const tabId = state.tabId;
    await ready(tabId);
    const frames = await snapshotFrames(tabId);
    let main = null;
    const tree = [];
    const messages = [];
    for (const frame of frames) {
      const prefix = prefixOf(state, frame.frameId);
      const args2 = {
        prefix,
        floor: state.floors[prefix] ?? 0,
        frame: frame.frameId === 0 ? 0 : state.frames[String(frame.frameId)],
        offset: frame.hello.offset ?? [0, 0],
        pruneToViewport: false,
        maxNodes: Math.max(MAX_NODES - tree.length, 1),
        withText: frame.frameId === 0
      };
      let result;
      try {
        result = await ask(tabId, frame.frameId, { type: "extract", args: { ...args2, offset: [...args2.offset] } });
      } catch (error) {
        if (frame.frameId === 0) throw error;
        continue;
      }
      if (frame.frameId === 0) main = result;
      remember(state, prefix, result.tree);
      if (tree.length < MAX_NODES) tree.push(...result.tree.slice(0, MAX_NODES - tree.length));
      messages.push(...result.messages);
    }
    if (!main) throw new FrameGone("the main frame gave no snapshot");
    const tab = await chrome.tabs.get(tabId);
    const dom = options.fullDom ? await ask(tabId, 0, { type: "fullDom" }) : null;
    let screenshot = null;
    if (options.screenshot && tab.active) {
      try {
        const url = await chrome.tabs.captureVisibleTab(tab.windowId, { format: "jpeg", quality: 70 });
        screenshot = url.slice(url.indexOf(",") + 1);
      } catch {
        screenshot = null;
      }
    }
    return {
      url: tab.url ?? frames[0].hello.url,
      title: main.title,
      viewport: main.viewport,
      tree,
      scrollPosition: main.scrollPosition,
      messages,
      text: main.text ?? "",
      docId: main.docId,
      truncated: tree.length >= MAX_NODES,
      dom,
      screenshot
    };
  }

  // src/background/guards.ts
  var MISSING = { exists: false };
  var FIELD_VALUE_MAX = 2e3;
  var UNCHECKED = /* @__PURE__ */ new Set(["", "false", "0", "off", "no", "unchecked"]);
  var ROLE_ALIASES = {
    btn: "button",
    inp: "textbox",
    input: "textbox",
    txt: "textbox",
    text: "textbox",
    textarea: "textbox",
    ta: "textbox",
    chk: "checkbox",
    cb: "checkbox",
    sel: "combobox",
    select: "combobox",
    a: "link",
    lnk: "link",
    opt: "option",
    mi: "menuitem",
    menu_item: "menuitem",
    sw: "switch",
    toggle: "switch",
    search: "searchbox",
    num: "spinbutton",
    number: "spinbutton",
    img: "image"
  };
  var normalizeRole = (role) => {
    const key = role.trim().toLowerCase();
    return (ROLE_ALIASES[key] ?? key) || "generic";
  };
  var folded = (text) => text.split(/\s+/).filter(Boolean).join(" ").toLowerCase();
  var describe = (r) => `${normalizeRole(r.role ?? "")} ${JSON.stringify(r.name ?? "")}`;
  var describeExpect = (e) => `${e.role ? normalizeRole(e.role) : "element"} ${JSON.stringify(e.name ?? "")}`;
  function samePage(a, b) {
    return a.split("#")[0] === b.split("#")[0];
  }
  function shown(r) {
    if (r.selected && r.selected.length) return r.selected.map((o) => o.text || o.value).join(" / ");
    if (r.checked !== void 0 && r.value === void 0) return r.checked ? "checked" : "unchecked";
    const held = r.value ?? r.text;
    return held !== void 0 ? JSON.stringify(held) : "no readable value";
  }
  function holds(r, wanted) {
    const want = wanted.trim();
    if (r.selected && r.selected.length) {
      return r.selected.some((o) => o.value.trim() === want || folded(o.text) === folded(want));
    }
    if (r.checked !== void 0 && r.value === void 0) return r.checked === !UNCHECKED.has(want.toLowerCase());
    const raw = r.value ?? r.text;
    if (raw === void 0) return false;
    const held = raw.trim();
    if (held === want) return true;
    if (held.length === FIELD_VALUE_MAX && held.endsWith("…") && want.startsWith(held.slice(0, -1))) return true;
    const numeric = r.ty === "number" || r.ty === "range" || ["slider", "spinbutton"].includes(normalizeRole(r.role ?? ""));
    if (numeric) {
      const a = Number(want.replace(/,/g, ""));
      const b = Number(held.replace(/,/g, ""));
      return Number.isFinite(a) && Number.isFinite(b) && a === b;
    }
    return false;
  }
  function checkTarget(id, r, expect) {
    if (!r.exists) return { kind: "target_missing", message: `target missing: no element ${JSON.stringify(id)} on the page` };
    if (!r.perceivable) return { kind: "target_missing", message: `target missing: element ${JSON.stringify(id)} (${describe(r)}) is not shown` };
    if (r.covered) return { kind: "covered", message: `target covered: ${describe(r)} is under another element` };
    if (!expect) return null;
    const roleChanged = !!expect.role && normalizeRole(expect.role) !== normalizeRole(r.role ?? "");
    const nameChanged = !!folded(expect.name ?? "") && folded(expect.name ?? "") !== folded(r.name ?? "");
    if (roleChanged || nameChanged) {
      return { kind: "target_changed", message: `target changed: expected ${describeExpect(expect)}, found ${describe(r)}` };
    }
    return null;
  }
  function checkRequired(required, readings) {
    for (const [id, wanted] of required) {
      const r = readings[id] ?? MISSING;
      if (!r.exists) return { kind: "required_value_mismatch", message: `required value lost: no element ${JSON.stringify(id)} on the page` };
      if (!holds(r, wanted)) {
        return { kind: "required_value_mismatch", message: `required value lost: ${describe(r)} should hold ${JSON.stringify(wanted)}, it holds ${shown(r)}` };
      }
    }
    return null;
  }
  function checkReadback(id, r, wanted) {
    if (!r.exists) return { kind: "value_mismatch", message: `value not kept: element ${JSON.stringify(id)} left the page after the input` };
    if (!holds(r, wanted)) return { kind: "value_mismatch", message: `value not kept: ${describe(r)} holds ${shown(r)}, not ${JSON.stringify(wanted)}` };
    return null;
  }

  // src/background/network.ts
  var RESPONDED_GRACE_MS = 1e3;
  var NetworkTracker = class {
    constructor(now = Date.now) {
      this.now = now;
    }
    inFlight = /* @__PURE__ */ new Map();
    lastActivity = /* @__PURE__ */ new Map();
    started = /* @__PURE__ */ new Map();
    /** Count this tab's requests from now on (idempotent). */
    watch(tabId) {
      if (this.lastActivity.has(tabId)) return;
      this.lastActivity.set(tabId, this.now());
      this.started.set(tabId, 0);
    }
    /** Stop counting (the task ended, the tab closed). */
    unwatch(tabId) {
      this.lastActivity.delete(tabId);
      this.started.delete(tabId);
      for (const [id, request] of this.inFlight) if (request.tabId === tabId) this.inFlight.delete(id);
    }
    watching(tabId) {
      return this.lastActivity.has(tabId);
    }
    onStart(requestId, tabId, url, type) {
      if (!this.watching(tabId) || type === "websocket" || url.startsWith("data:")) return;
      this.inFlight.set(requestId, { tabId, respondedAt: null });
      this.started.set(tabId, (this.started.get(tabId) ?? 0) + 1);
      this.lastActivity.set(tabId, this.now());
    }
    onResponse(requestId) {
      const request = this.inFlight.get(requestId);
      if (!request) return;
      request.respondedAt = this.now();
      this.lastActivity.set(request.tabId, this.now());
    }
    onDone(requestId) {
      const request = this.inFlight.get(requestId);
      if (!request) return;
      this.inFlight.delete(requestId);
      if (this.watching(request.tabId)) this.lastActivity.set(request.tabId, this.now());
    }
    /** Requests of the tab still loading (a response older than the grace no longer counts). */
    inFlightCount(tabId) {
      const now = this.now();
      let count = 0;
      for (const request of this.inFlight.values()) {
        if (request.tabId !== tabId) continue;
        if (request.respondedAt === null || now - request.respondedAt < RESPONDED_GRACE_MS) count += 1;
      }
      return count;
    }
    /** How long the tab's network has been idle; 0 while a request loads, null when not watched. */
    idleMs(tabId) {
      const last = this.lastActivity.get(tabId);
      if (last === void 0) return null;
      if (this.inFlightCount(tabId) > 0) return 0;
      return this.now() - last;
    }
    /** Requests started in the tab since it was watched (compare two readings). */
    seen(tabId) {
      return this.started.get(tabId) ?? null;
    }
  };
  var network = new NetworkTracker();
  function listen(tracker = network) {
    const filter = { urls: ["<all_urls>"] };
    chrome.webRequest.onBeforeRequest.addListener((details) => {
      tracker.onStart(details.requestId, details.tabId, details.url, details.type);
      return void 0;
    }, filter);
    chrome.webRequest.onResponseStarted.addListener((details) => tracker.onResponse(details.requestId), filter);
    chrome.webRequest.onCompleted.addListener((details) => tracker.onDone(details.requestId), filter);
    chrome.webRequest.onErrorOccurred.addListener((details) => tracker.onDone(details.requestId), filter);
  }

  // src/background/settle.ts
  var STABILITY = { minWaitMs: 300, domQuietMs: 500, networkIdleMs: 500, maxWaitMs: 5e3 };
  var CHAIN_GAP = { minWaitMs: 100, domQuietMs: 100, networkIdleMs: 200, maxWaitMs: 2e3 };
  var FIRST_POLL_MS = 100;
  var sleep2 = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  async function arm(tabId) {
    const tab = await chrome.tabs.get(tabId);
    let docId = "";
    try {
      await ready(tabId);
      docId = await ask(tabId, 0, { type: "arm" });
    } catch {
      docId = "";
    }
    network.watch(tabId);
    return { docId, url: tab.url ?? "", at: Date.now(), requests: network.seen(tabId) ?? 0 };
  }
  async function witness(tabId, armed) {
    const tab = await chrome.tabs.get(tabId);
    const didUrlChange = (tab.url ?? "") !== armed.url;
    let seen = null;
    try {
      await ready(tabId);
      seen = await ask(tabId, 0, { type: "witness" });
    } catch {
      seen = null;
    }
    if (!seen || seen.docId !== armed.docId) {
      return { didDomMutate: true, didNetworkOccur: true, didUrlChange, navigated: true, events: [] };
    }
    const requests = network.seen(tabId);
    const started = requests !== null && armed.requests !== void 0 && requests > armed.requests;
    return { didDomMutate: seen.didDomMutate, didNetworkOccur: seen.didNetworkOccur || started, didUrlChange, navigated: false, events: seen.events };
  }
  async function quiet(tabId) {
    const tab = await chrome.tabs.get(tabId);
    if (tab.status !== "complete") return null;
    let least = null;
    try {
      for (const frame of await snapshotFrames(tabId)) {
        const answer = await ask(tabId, frame.frameId, { type: "quiet" }, 1e3);
        if (frame.frameId === 0 && answer.readyState !== "complete") return null;
        least = least === null ? answer.quietMs : Math.min(least, answer.quietMs);
      }
    } catch (error) {
      if (error instanceof FrameGone) await inject(tabId).catch(() => void 0);
      return null;
    }
    return least;
  }
  function networkSettled(tracker, tabId, idleMs) {
    const idle = tracker.idleMs(tabId);
    return idle === null || idle >= idleMs;
  }
  async function waitForStability(state, config = STABILITY) {
    const started = Date.now();
    await sleep2(Math.min(config.minWaitMs, FIRST_POLL_MS));
    while (Date.now() - started < config.maxWaitMs) {
      let quietMs = null;
      try {
        const tab = await chrome.tabs.get(state.tabId);
        if (tab.status === "complete") quietMs = await quiet(state.tabId);
      } catch {
        quietMs = null;
      }
      const settled = quietMs !== null && quietMs >= config.domQuietMs && networkSettled(network, state.tabId, config.networkIdleMs);
      if (settled && Date.now() - started >= config.minWaitMs) return { stable: true, waitedMs: Date.now() - started };
      await sleep2(100);
    }
    return { stable: false, waitedMs: Date.now() - started };
  }

  // src/background/execute.ts
  var EXECUTE_TIMEOUT_MS = 2e4;
  var MAX_WAIT_S = 30;
  var NAVIGATES = /* @__PURE__ */ new Set(["click", "press", "select", "setValue"]);
  var ExecError = class extends Error {
    constructor(message, code = "ACTION_FAILED") {
      super(message);
      this.code = code;
    }
  };
  var sleep3 = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  async function navigate(tabId, url) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      throw new ExecError(`navigate: refusing to open ${JSON.stringify(url)} (not a URL)`, "BAD_ACTION");
    }
    if (!["http:", "https:"].includes(parsed.protocol) || !parsed.host) {
      throw new ExecError(`navigate: refusing to open ${JSON.stringify(url)} (only http(s) URLs with a host)`, "BAD_ACTION");
    }
    await chrome.tabs.update(tabId, { url: parsed.href });
    await sleep3(200);
    await ready(tabId);
  }
  async function hookFor(state, action, details) {
    await takeBack(state);
    state.hook = await installHook(state.tabId, action, acceptsDialog(details));
    await saveTask(state);
  }
  async function takeBack(state) {
    const hook = state.hook;
    if (!hook) return;
    const seen = state.dialogs ?? [];
    state.dialogs = [...seen, ...await takeHook(state.tabId, hook, MAX_REPORTED - seen.length)];
    state.hook = null;
  }
  async function executeOne(state, action) {
    const tabId = state.tabId;
    switch (action.name) {
      case "finish":
      case "fail":
        return;
      case "wait": {
        const seconds = Math.min(action.seconds ?? 1, MAX_WAIT_S);
        const elapsed = state.actedAt ? (Date.now() - state.actedAt) / 1e3 : 0;
        await sleep3(Math.max(0, seconds - elapsed) * 1e3);
        return;
      }
      case "navigate": {
        const tab = await chrome.tabs.get(tabId);
        return navigate(tabId, new URL(action.value ?? "", tab.url).href);
      }
      case "googleSearch":
        return navigate(tabId, "https://www.google.com/search?q=" + encodeURIComponent(action.value ?? ""));
      case "goBack": {
        const before = (await chrome.tabs.get(tabId)).url;
        try {
          await chrome.tabs.goBack(tabId);
        } catch (error) {
          throw new ExecError(`goBack failed: ${error instanceof Error ? error.message : String(error)}`, "NAVIGATION_FAILED");
        }
        await sleep3(300);
        await ready(tabId);
        if ((await chrome.tabs.get(tabId)).url === before) throw new ExecError("goBack: there is no previous page in this tab", "NAVIGATION_FAILED");
        return;
      }
      default:
        break;
    }
    const frameId = action.target ? frameOf(state, action.target) : 0;
    if (frameId === null) throw new ExecError(`element ${JSON.stringify(action.target)} is in a frame that is no longer on the page`, "ELEMENT_NOT_FOUND");
    await ready(tabId);
    let result;
    try {
      result = await ask(tabId, frameId, { type: "execute", action }, EXECUTE_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof FrameGone && NAVIGATES.has(action.name)) return;
      throw new ExecError(`${action.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!result.ok) throw new ExecError(result.error ?? `${action.name} failed`, result.code);
  }
  async function read(state, ids, reveal) {
    const byFrame = /* @__PURE__ */ new Map();
    const out = {};
    for (const id of new Set(ids)) {
      const frameId = frameOf(state, id);
      if (frameId === null) out[id] = MISSING;
      else byFrame.set(frameId, [...byFrame.get(frameId) ?? [], id]);
    }
    for (const [frameId, frameIds] of byFrame) {
      let raw = null;
      try {
        raw = await ask(state.tabId, frameId, { type: "inspect", ids: frameIds, reveal });
      } catch {
        raw = null;
      }
      for (const id of frameIds) out[id] = raw?.[id] ?? MISSING;
    }
    return out;
  }
  async function runChain(state, items) {
    const ordered = [...items].sort((a, b) => a.index - b.index);
    const executed = [];
    const skipped = [];
    let lastIndex = null;
    let startUrl = null;
    let failed = null;
    let terminal = null;
    for (const [position, item] of ordered.entries()) {
      let action;
      try {
        action = actionOf(item.action, item.actionDetails);
      } catch (error) {
        const message = `${item.action}: ${error instanceof Error ? error.message : String(error)}`;
        if (item.canFail) {
          skipped.push(item.index);
          continue;
        }
        failed = { index: item.index, kind: "error", message };
        break;
      }
      if (TERMINAL.has(action.name)) {
        terminal = action.name;
        break;
      }
      const url = (await chrome.tabs.get(state.tabId)).url ?? "";
      if (startUrl === null) startUrl = url;
      if (position > 0 && !samePage(startUrl, url)) {
        failed = { index: item.index, kind: "url_changed", message: `${item.action}: page changed: the chain started on ${startUrl}, the page is now ${url}` };
        break;
      }
      const target = position > 0 ? action.target ?? null : null;
      const required = (item.requireValues ?? []).map((entry) => {
        const value = entry.value ?? (typeof entry.checked === "boolean" ? String(entry.checked) : "");
        return [String(entry.target), value];
      });
      const ids = [...target ? [target] : [], ...required.map(([id]) => id)];
      if (ids.length) {
        const readings = await read(state, ids, target);
        const failure = (target ? checkTarget(target, readings[target], item.expect) : null) ?? checkRequired(required, readings);
        if (failure) {
          failed = { index: item.index, kind: failure.kind, message: `${item.action}: ${failure.message}` };
          break;
        }
      }
      try {
        await hookFor(state, item.action, item.actionDetails);
        await executeOne(state, action);
        if ((action.name === "setValue" || action.name === "select") && action.target) {
          const readings = await read(state, [action.target], null);
          const failure = checkReadback(action.target, readings[action.target], action.value ?? "");
          if (failure) {
            failed = { index: item.index, kind: failure.kind, message: `${item.action}: ${failure.message}` };
            break;
          }
        }
        executed.push(item.action);
        lastIndex = item.index;
      } catch (error) {
        const message = `${item.action}: ${error instanceof Error ? error.message : String(error)}`;
        if (!item.canFail) {
          failed = { index: item.index, kind: "error", message };
          break;
        }
        skipped.push(item.index);
      }
      if (position < ordered.length - 1) await waitForStability(state, CHAIN_GAP);
    }
    const partial = { executedActions: executed, totalActionsInChain: ordered.length, skippedIndexes: skipped };
    if (failed) {
      partial.failedIndex = failed.index;
      partial.failureKind = failed.kind;
    }
    const report = { lastActionStatus: failed ? "failure" : "success", chainPartialState: partial };
    if (failed) report.lastActionError = failed.message;
    if (lastIndex !== null) report.lastExecutedActionIndex = lastIndex;
    return { report, terminal, executed };
  }
  async function runSingle(state, text, details) {
    try {
      await executeOne(state, details && details.name ? details : parseAction(text));
      return { lastActionStatus: "success" };
    } catch (error) {
      return { lastActionStatus: "failure", lastActionError: `${text}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  // src/background/loop.ts
  var driving = /* @__PURE__ */ new Set();
  var CAPTURE_ATTEMPTS = 3;
  var KEEP_ALIVE_MS = 2e4;
  var controlKey = (tabId) => `control_${tabId}`;
  async function control(tabId) {
    const key = controlKey(tabId);
    return (await chrome.storage.local.get(key))[key] ?? {};
  }
  async function drive(tabId, resumed = false) {
    if (driving.has(tabId)) return;
    driving.add(tabId);
    network.watch(tabId);
    const keepAlive = setInterval(() => {
      void chrome.runtime.getPlatformInfo();
    }, KEEP_ALIVE_MS);
    try {
      for (let first = true; ; first = false) {
        const state = await loadTask(tabId);
        if (!state || state.status !== "running") return;
        if (first && resumed) state.resumes += 1;
        const asked = await control(tabId);
        if (asked.stop) {
          await takeBack(state);
          state.dialogs = [];
          Object.assign(state, { status: "stopped", phase: "done", error: "stopped from the panel" });
          await saveTask(state);
          return;
        }
        if (asked.pause && state.phase !== "request" && state.phase !== "executing") {
          state.status = "paused";
          await saveTask(state);
          return;
        }
        await advance(state);
      }
    } finally {
      clearInterval(keepAlive);
      driving.delete(tabId);
      network.unwatch(tabId);
    }
  }
  var isDriving = (tabId) => driving.has(tabId);
  async function advance(state) {
    try {
      switch (state.phase) {
        case "capture":
          return await capturePhase(state);
        case "request":
          return await requestPhase(state);
        case "execute":
          return await executePhase(state);
        case "executing":
          return await interruptedPhase(state);
        case "settle":
          return await settlePhase(state);
        case "done":
          state.status = state.status === "running" ? "error" : state.status;
          return await saveTask(state);
      }
    } catch (error) {
      const apiError = error instanceof ApiError ? error : null;
      Object.assign(state, {
        status: "error",
        phase: "done",
        error: apiError ? apiError.message : `browser: ${error instanceof Error ? error.message : String(error)}`,
        errorCode: apiError ? apiError.code : "BROWSER_ERROR"
      });
      await saveTask(state);
    }
  }
  async function snapshotWithRetries(state) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await capture(state, { fullDom: state.needsFullDom, screenshot: state.needsScreenshot });
      } catch (error) {
        if (attempt >= CAPTURE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }
  async function taskIdFor(state, api, url) {
    if (state.taskId && Date.now() - state.timestamp < TASK_EXPIRY_MS) return { taskId: state.taskId, recovered: false };
    if (!state.sessionId || state.count === 0) return { taskId: null, recovered: false };
    let active = await api.activeTask(state.sessionId, url);
    if (!active && state.lastUrl && state.lastUrl !== url) active = await api.activeTask(state.sessionId, state.lastUrl);
    if (!active || typeof active.taskId !== "string") return { taskId: null, recovered: false };
    state.recoveries += 1;
    return { taskId: active.taskId, recovered: true };
  }
  function body(state, snap, taskId, recovered) {
    const notes = snap.messages.filter((m) => m.kind === "info").map((m) => m.text);
    const errors = snap.messages.filter((m) => m.kind === "error").map((m) => m.text);
    const successes = snap.messages.filter((m) => m.kind === "success").map((m) => m.text);
    const out = {
      url: snap.url,
      domMode: "semantic_v3",
      // A status line is the page's answer to an action too: it travels as a V3 status node.
      interactiveTree: [...snap.tree, ...notes.slice(0, 10).map((text, n) => ({ i: `msg${n + 1}`, r: "status", n: text }))],
      pageTitle: snap.title,
      viewport: snap.viewport,
      scrollPosition: snap.scrollPosition,
      hasErrors: errors.length > 0,
      hasSuccess: successes.length > 0
    };
    if (snap.text) out.pageText = snap.text;
    if (errors.length) out.errors_detected = errors.slice(0, 10);
    if (successes.length) out.success_messages = successes.slice(0, 10);
    if (snap.truncated) out.treeTruncated = true;
    if (snap.screenshot) {
      out.screenshot = snap.screenshot;
      out.domMode = "hybrid";
    }
    if (snap.dom !== null) {
      out.dom = snap.dom;
      out.domMode = "full";
    }
    if (taskId) out.taskId = taskId;
    else out.query = state.goal;
    if (state.sessionId) out.sessionId = state.sessionId;
    if (taskId && state.report) Object.assign(out, state.report);
    if (taskId && !recovered && state.stepIndex !== null) out.stepIndex = state.stepIndex;
    if (taskId && typeof state.confirm === "boolean") out.confirm = state.confirm;
    return out;
  }
  async function capturePhase(state) {
    if (state.count >= state.maxSteps) {
      Object.assign(state, { status: "max_steps", phase: "done" });
      return saveTask(state);
    }
    const snap = await snapshotWithRetries(state);
    const api = new StepwiseApi(await loadSettings());
    const { taskId, recovered } = await taskIdFor(state, api, snap.url);
    state.recovered = recovered;
    if (recovered && taskId) Object.assign(state, { taskId, timestamp: Date.now() });
    state.pending = { key: crypto.randomUUID(), body: body(state, snap, taskId, recovered) };
    state.confirm = null;
    state.phase = "request";
    await saveTask(state);
  }
  function actionName(text) {
    try {
      return parseAction(text).name;
    } catch {
      return null;
    }
  }
  function view(state, answer) {
    return {
      index: state.steps.length,
      serverStepIndex: answer.stepIndex,
      thought: answer.thought,
      action: answer.action,
      actions: (answer.actions ?? []).map((item) => item.action),
      status: answer.status,
      decidedBy: answer.decidedBy,
      verdict: null,
      contract: answer.contract ?? null,
      memory: answer.memory ? memoryText(answer.memory) : null
    };
  }
  function memoryText(memory) {
    const parts = [`replay ${memory.replay}`];
    if (memory.recipeId) parts.push(`recipe ${memory.recipeId}${memory.recipeStep != null ? ` step ${memory.recipeStep}` : ""}`);
    if (memory.missReason) parts.push(memory.missReason);
    if (memory.skillsUsed?.length) parts.push(`skills: ${memory.skillsUsed.join(", ")}`);
    return parts.join(" · ");
  }
  function question(answer) {
    const asked = answer.needsUserInput ?? {};
    const str = (value) => typeof value === "string" ? value : null;
    const confirm = typeof asked.confirm === "object" && asked.confirm !== null ? asked.confirm : null;
    const dialog = confirm && typeof confirm.dialog === "object" && confirm.dialog !== null ? confirm.dialog : null;
    return {
      message: str(asked.message) || answer.thought,
      confirm: confirm && str(confirm.action) !== null ? {
        action: str(confirm.action) ?? "",
        element: str(confirm.element),
        what: str(confirm.what),
        dialog: dialog ? { kind: str(dialog.kind) ?? "", message: str(dialog.message) ?? "" } : null
      } : null
    };
  }
  function finish(state, answer, step) {
    const name = actionName(answer.action);
    const terminal = name !== null && TERMINAL.has(name) && !(answer.actions ?? []).length;
    if (["completed", "failed", "needs_confirmation"].includes(answer.status) || terminal) {
      step.actionStatus = "terminal";
      state.status = answer.status === "completed" || answer.status === "needs_confirmation" ? answer.status : "failed";
    } else if (answer.status === "needs_user_input") {
      state.status = "needs_user_input";
      state.question = question(answer);
    } else {
      return false;
    }
    state.phase = "done";
    if (state.status !== "completed") {
      state.error = answer.thought || answer.action;
      state.errorCode = answer.failureCode ?? null;
    }
    state.evidence = { thought: answer.thought, contract: answer.contract ?? null, failureCode: answer.failureCode ?? null };
    return true;
  }
  async function requestPhase(state) {
    const pending = state.pending;
    if (!pending) {
      state.phase = "capture";
      return saveTask(state);
    }
    const api = new StepwiseApi(await loadSettings());
    const answer = await api.interact(pending.body, pending.key);
    const previous = state.steps[state.steps.length - 1];
    if (previous && answer.verification) {
      const v = answer.verification;
      previous.verdict = { success: v.success, tier: v.tier, reason: v.reason, decidedBy: v.decidedBy };
    }
    const step = view(state, answer);
    state.steps.push(step);
    state.count += 1;
    state.lastUrl = pending.body.url;
    state.sessionId = answer.sessionId || state.sessionId;
    const taskId = answer.taskId || pending.body.taskId || null;
    if (answer.taskId) Object.assign(state, { taskId: answer.taskId, timestamp: Date.now(), url: pending.body.url });
    else state.taskId = taskId;
    state.stepIndex = answer.stepIndex;
    state.pending = null;
    state.report = null;
    state.answer = answer;
    state.needsFullDom = answer.needsFullDom;
    state.needsScreenshot = answer.needsScreenshot;
    if (!finish(state, answer, step)) state.phase = "execute";
    await saveTask(state);
  }
  async function executePhase(state) {
    const answer = state.answer;
    if (!answer) {
      state.phase = "capture";
      return saveTask(state);
    }
    state.armed = await arm(state.tabId);
    state.phase = "executing";
    await saveTask(state);
    const step = state.steps[state.steps.length - 1];
    if ((answer.actions ?? []).length) {
      const outcome = await runChain(state, answer.actions ?? []);
      state.report = outcome.report;
      if (outcome.terminal) {
        await takeBack(state);
        state.dialogs = [];
        step.actionStatus = "terminal";
        state.status = outcome.terminal === "finish" && answer.status === "completed" ? "completed" : "failed";
        state.phase = "done";
        state.evidence = { thought: answer.thought, contract: answer.contract ?? null, failureCode: answer.failureCode ?? null };
        return saveTask(state);
      }
    } else {
      await hookFor(state, answer.action, answer.actionDetails);
      state.report = await runSingle(state, answer.action, answer.actionDetails);
    }
    state.actedAt = Date.now();
    step.actionStatus = state.report.lastActionStatus === "success" ? "success" : "failure";
    step.actionError = typeof state.report.lastActionError === "string" ? state.report.lastActionError : null;
    state.phase = "settle";
    await saveTask(state);
  }
  async function interruptedPhase(state) {
    state.report = { lastActionStatus: "pending" };
    const step = state.steps[state.steps.length - 1];
    if (step) step.actionStatus = "pending";
    state.phase = "settle";
    await saveTask(state);
  }
  async function settlePhase(state) {
    await waitForStability(state);
    const report = state.report ?? { lastActionStatus: "pending" };
    if (state.armed) {
      const seen = await witness(state.tabId, state.armed);
      report.clientObservations = { didNetworkOccur: seen.didNetworkOccur, didDomMutate: seen.didDomMutate, didUrlChange: seen.didUrlChange };
      report.previousUrl = state.armed.url;
      if (seen.events.length) report.recentEvents = seen.events;
    }
    await takeBack(state);
    if (state.dialogs?.length) {
      report.clientObservations = { ...report.clientObservations ?? {}, nativeDialogs: state.dialogs };
      const step = state.steps[state.steps.length - 1];
      if (step) step.dialogs = state.dialogs;
    }
    state.dialogs = [];
    Object.assign(state, { report, armed: null, answer: null, phase: "capture" });
    await saveTask(state);
  }

  // src/background/index.ts
  var DEFAULT_MAX_STEPS = 30;
  chrome.storage.local.setAccessLevel?.({ accessLevel: "TRUSTED_CONTEXTS" }).catch(() => void 0);
  chrome.sidePanel?.setPanelBehavior?.({ openPanelOnActionClick: true }).catch(() => void 0);
  function trusted(sender) {
    const own = chrome.runtime.getURL("");
    return sender.id === chrome.runtime.id && typeof sender.url === "string" && sender.url.startsWith(own);
  }
  async function setControl(tabId, value) {
    await chrome.storage.local.set({ [controlKey(tabId)]: value });
  }
  async function resumeAll() {
    for (const state of await allTasks()) {
      if (state.status === "running" && !isDriving(state.tabId)) void drive(state.tabId, true);
    }
  }
  async function handle(command) {
    switch (command.type) {
      case "ping":
        await resumeAll();
        return { alive: true };
      case "run": {
        const current = await loadTask(command.tabId);
        if (current && (current.status === "running" || current.status === "paused") && !FINAL.has(current.status)) {
          return { started: false, reason: "a task is already running in this tab" };
        }
        await setControl(command.tabId, {});
        const state = newTask(command.tabId, command.goal.trim(), command.maxSteps ?? DEFAULT_MAX_STEPS);
        state.url = (await chrome.tabs.get(command.tabId)).url ?? "";
        await saveTask(state);
        void drive(command.tabId);
        return { started: true };
      }
      case "pause":
        await setControl(command.tabId, { pause: true });
        return { ok: true };
      case "resume": {
        await setControl(command.tabId, {});
        const state = await loadTask(command.tabId);
        if (state && state.status === "paused") {
          state.status = "running";
          await saveTask(state);
          void drive(command.tabId);
        }
        return { ok: true };
      }
      case "stop": {
        await setControl(command.tabId, { stop: true });
        const state = await loadTask(command.tabId);
        if (state && state.status === "paused") {
          Object.assign(state, { status: "stopped", phase: "done", error: "stopped from the panel" });
          await saveTask(state);
        }
        return { ok: true };
      }
      case "confirm": {
        const state = await loadTask(command.tabId);
        if (!state || state.status !== "needs_user_input" || !state.taskId || !state.question?.confirm || typeof command.confirm !== "boolean") {
          return { resumed: false, reason: "no confirm question is waiting in this tab" };
        }
        await setControl(command.tabId, {});
        Object.assign(state, {
          status: "running",
          phase: "capture",
          confirm: command.confirm,
          question: null,
          error: null,
          errorCode: null,
          evidence: null
        });
        await saveTask(state);
        void drive(command.tabId);
        return { resumed: true };
      }
      case "testSettings":
        return new StepwiseApi(await loadSettings()).check();
    }
  }
  chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!trusted(sender) || !message || typeof message.type !== "string") return false;
    handle(message).then(
      (value) => sendResponse({ ok: true, value }),
      (error) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) })
    );
    return true;
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    void (async () => {
      const state = await loadTask(tabId);
      if (state && !FINAL.has(state.status)) {
        Object.assign(state, { status: "stopped", phase: "done", error: "the tab was closed" });
        await saveTask(state);
      }
    })();
  });
  listen();
  void resumeAll();
})();
