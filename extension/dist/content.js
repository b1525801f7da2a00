"use strict";
(() => {
  // src/content/events.ts
  var point = (el) => {
    const rect = el.getBoundingClientRect();
    return { clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
  };
  var mouse = (el, type, extra = {}) => el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, composed: true, view: window, ...point(el), ...extra }));
  var pointer = (el, type) => el.dispatchEvent(new PointerEvent(type, {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    pointerId: 1,
    pointerType: "mouse",
    isPrimary: true,
    ...point(el)
  }));
  function hoverEvents(el) {
    pointer(el, "pointerover");
    pointer(el, "pointerenter");
    mouse(el, "mouseover");
    mouse(el, "mouseenter", { bubbles: false });
    pointer(el, "pointermove");
    mouse(el, "mousemove");
  }
  function clickEvents(el) {
    hoverEvents(el);
    pointer(el, "pointerdown");
    const focusable = mouse(el, "mousedown", { button: 0, buttons: 1, detail: 1 });
    if (focusable) focusOn(el);
    pointer(el, "pointerup");
    mouse(el, "mouseup", { button: 0, detail: 1 });
    if (el instanceof HTMLElement) el.click();
    else mouse(el, "click", { button: 0, detail: 1 });
  }
  function focusOn(el) {
    const target = (el instanceof HTMLElement ? el : null)?.closest("a[href], button, input, select, textarea, [tabindex], [contenteditable]");
    (target ?? el).focus?.({ preventScroll: true });
  }
  var KEYS = {
    enter: "Enter",
    return: "Enter",
    tab: "Tab",
    escape: "Escape",
    esc: "Escape",
    space: " ",
    backspace: "Backspace",
    delete: "Delete",
    up: "ArrowUp",
    down: "ArrowDown",
    left: "ArrowLeft",
    right: "ArrowRight",
    arrowup: "ArrowUp",
    arrowdown: "ArrowDown",
    arrowleft: "ArrowLeft",
    arrowright: "ArrowRight",
    home: "Home",
    end: "End",
    pageup: "PageUp",
    pagedown: "PageDown"
  };
  var CODES = {
    Enter: 13,
    Tab: 9,
    Escape: 27,
    " ": 32,
    Backspace: 8,
    Delete: 46,
    ArrowUp: 38,
    ArrowDown: 40,
    ArrowLeft: 37,
    ArrowRight: 39,
    Home: 36,
    End: 35,
    PageUp: 33,
    PageDown: 34
  };
  var keyName = (text) => KEYS[text.toLowerCase()] ?? text;
  function keyEvent(el, type, key) {
    const code = key.length === 1 ? key === " " ? "Space" : `Key${key.toUpperCase()}` : key;
    const keyCode = CODES[key] ?? (key.length === 1 ? key.toUpperCase().charCodeAt(0) : 0);
    const event = new KeyboardEvent(type, { key, code, bubbles: true, cancelable: true, composed: true, view: window });
    Object.defineProperty(event, "keyCode", { get: () => keyCode });
    Object.defineProperty(event, "which", { get: () => keyCode });
    return el.dispatchEvent(event);
  }
  function fire(el, type) {
    const event = type === "input" ? new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText" }) : new Event("change", { bubbles: true });
    el.dispatchEvent(event);
  }
  function nativeSet(el, value) {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
    if (setter) setter.call(el, value);
    else el.value = value;
  }
  var TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';
  function moveFocus(from, backwards) {
    const all = Array.from(document.querySelectorAll(TABBABLE)).filter((el) => el.getClientRects().length > 0);
    if (!all.length) return;
    const index = from ? all.indexOf(from) : -1;
    const next = backwards ? all[(index - 1 + all.length) % all.length] : all[(index + 1) % all.length];
    next.focus();
  }

  // src/content/page.ts
  function pageApi() {
    const api = window.__stepwise;
    if (!api) throw new Error("the page script is not installed in this frame");
    return api;
  }
  var ActionError = class extends Error {
    constructor(message, code = "ACTION_FAILED") {
      super(message);
      this.code = code;
    }
  };

  // src/content/values.ts
  var SET_AS_VALUE = /* @__PURE__ */ new Set(["color", "date", "time", "datetime-local", "month", "range", "week"]);
  var pad = (n) => String(n).padStart(2, "0");
  function asDate(text) {
    const trimmed = text.trim();
    if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return trimmed;
    const numeric = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(trimmed);
    if (numeric) {
      const [first, second] = [Number(numeric[1]), Number(numeric[2])];
      const [month, day] = first > 12 ? [second, first] : [first, second];
      if (month < 1 || month > 12 || day < 1 || day > 31) throw new ActionError(`setValue: ${JSON.stringify(text)} is not a date`);
      return `${numeric[3]}-${pad(month)}-${pad(day)}`;
    }
    const parsed = new Date(trimmed);
    if (Number.isNaN(parsed.getTime())) throw new ActionError(`setValue: ${JSON.stringify(text)} is not a date (a date field takes e.g. 2016-12-02)`);
    return `${parsed.getFullYear()}-${pad(parsed.getMonth() + 1)}-${pad(parsed.getDate())}`;
  }
  function asTime(text) {
    const match = /^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?\s*$/.exec(text);
    if (!match) throw new ActionError(`setValue: ${JSON.stringify(text)} is not a time of day (a time field takes e.g. 21:37)`);
    let hours = Number(match[1]);
    const meridiem = match[4]?.toLowerCase();
    if (meridiem === "pm" && hours < 12) hours += 12;
    if (meridiem === "am" && hours === 12) hours = 0;
    return `${pad(hours)}:${match[2]}${match[3] && match[3] !== "00" ? ":" + match[3] : ""}`;
  }
  function asNumber(text) {
    const cleaned = text.trim().replace(/[,\s]/g, "");
    if (cleaned === "" || !Number.isFinite(Number(cleaned))) {
      throw new ActionError(`setValue: ${JSON.stringify(text)} is not a number, and a number field takes only numbers`);
    }
    return String(Number(cleaned));
  }
  function shaped(type, text) {
    switch (type) {
      case "date":
        return asDate(text);
      case "time":
        return asTime(text);
      case "number":
      case "range":
        return asNumber(text);
      default:
        return text;
    }
  }
  function sameValue(type, wanted, held) {
    if (type === "range" || type === "number") return Number(wanted) === Number(held);
    return wanted === held;
  }

  // src/content/actions.ts
  var sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  var ACTIONABLE_WAIT_MS = 1500;
  var UNCHECKED = /* @__PURE__ */ new Set(["", "false", "0", "off", "no", "unchecked"]);
  function locate(id) {
    if (!id) throw new ActionError("the action names no element", "BAD_ACTION");
    const el = pageApi().find(id);
    if (!el) throw new ActionError(`no element with id ${JSON.stringify(id)} on the page`, "ELEMENT_NOT_FOUND");
    return el;
  }
  var describe = (el) => {
    let out = el.tagName.toLowerCase();
    if (el.id) out += "#" + el.id;
    const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/)[0] : "";
    if (cls) out += "." + cls;
    return out;
  };
  var isDisabled = (el) => el.disabled === true || el.getAttribute("aria-disabled") === "true" || !!el.closest("fieldset:disabled");
  function refusal(el, needsEnabled) {
    if (!el.isConnected) return "the element left the page";
    if (!pageApi().isVisible(el)) return "the element is not visible";
    if (needsEnabled && isDisabled(el)) return "the element is disabled";
    const rect = el.getBoundingClientRect();
    if (rect.bottom < 0 || rect.top > window.innerHeight || rect.right < 0 || rect.left > window.innerWidth) {
      el.scrollIntoView({ block: "center", inline: "nearest" });
    }
    const box = el.getBoundingClientRect();
    const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
    const root = el.getRootNode();
    const hit = (root instanceof ShadowRoot ? root : document).elementFromPoint(x, y);
    if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return null;
    const labels = el.labels;
    if (labels && Array.from(labels).some((label) => label === hit || label.contains(hit))) return null;
    if (hit.closest("label") && hit.closest("label").control === el) return null;
    return `the element is covered by another element (${describe(hit)})`;
  }
  async function actionable(el, what, needsEnabled = true) {
    const until = performance.now() + ACTIONABLE_WAIT_MS;
    let why = refusal(el, needsEnabled);
    while (why && performance.now() < until) {
      await sleep(100);
      why = refusal(el, needsEnabled);
    }
    if (why) throw new ActionError(`${what} failed: ${why}`, why.includes("covered") ? "COVERED" : "NOT_ACTIONABLE");
  }
  async function click(el) {
    await actionable(el, "click");
    clickEvents(el);
  }
  async function hover(el) {
    await actionable(el, "hover", false);
    hoverEvents(el);
  }
  function chooseOption(select2, wanted, add) {
    const options = Array.from(select2.options);
    const label = (o) => (o.label || o.text).trim();
    const want = wanted.trim();
    let index = options.findIndex((o) => label(o) === want);
    if (index < 0) index = options.findIndex((o) => o.value === want);
    if (index < 0) index = options.findIndex((o) => label(o).toLowerCase() === want.toLowerCase());
    if (index < 0) {
      const listed = options.slice(0, 10).map((o) => JSON.stringify(label(o))).join(", ");
      throw new ActionError(`no option ${JSON.stringify(wanted)} in this list (options: ${listed})`, "NOT_ACTIONABLE");
    }
    focusOn(select2);
    if (select2.multiple && add) options[index].selected = true;
    else if (select2.multiple) options.forEach((o, i) => {
      o.selected = i === index;
    });
    else nativeSet(select2, options[index].value);
    if (!select2.multiple) select2.selectedIndex = index;
    fire(select2, "input");
    fire(select2, "change");
  }
  async function setValue(el, text) {
    if (el instanceof HTMLSelectElement) {
      await actionable(el, "setValue");
      chooseOption(el, text, false);
      return;
    }
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
      const want = !UNCHECKED.has(text.trim().toLowerCase());
      if (el.checked !== want) await click(el);
      if (el.checked !== want) throw new ActionError(`setValue: the ${el.type} did not become ${want ? "checked" : "unchecked"}`);
      return;
    }
    if (!(el instanceof HTMLInputElement) && pageApi().roleOf(el) === "slider") {
      await driveSlider(el, text);
      return;
    }
    await actionable(el, "setValue");
    if (el.readOnly) throw new ActionError("setValue failed: the element is not editable", "NOT_ACTIONABLE");
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      const type = el instanceof HTMLInputElement ? el.type.toLowerCase() : "textarea";
      const value = el instanceof HTMLInputElement ? shaped(type, text) : text;
      focusOn(el);
      nativeSet(el, value);
      fire(el, "input");
      if (SET_AS_VALUE.has(type) && !sameValue(type, value, el.value)) {
        throw new ActionError(`setValue: the ${type} field did not take ${JSON.stringify(value)} (it holds ${JSON.stringify(el.value)})`);
      }
      fire(el, "change");
    } else if (el.isContentEditable) {
      focusOn(el);
      const selection = window.getSelection();
      const range = document.createRange();
      range.selectNodeContents(el);
      selection?.removeAllRanges();
      selection?.addRange(range);
      if (!document.execCommand("insertText", false, text)) {
        el.textContent = text;
        fire(el, "input");
      }
    } else {
      throw new ActionError("setValue failed: the element does not take text", "NOT_ACTIONABLE");
    }
    pageApi().markTyped(el);
  }
  async function driveSlider(el, text) {
    const target = Number(text.trim());
    if (!Number.isFinite(target)) throw new ActionError(`setValue: ${JSON.stringify(text)} is not a number a slider can take`);
    const current = () => {
      const shown = pageApi().valueOf(el);
      const number = shown === void 0 ? NaN : Number(String(shown).replace(/[^0-9.+-]/g, ""));
      if (!Number.isFinite(number)) throw new ActionError("setValue: the slider shows no number to steer by");
      return number;
    };
    focusOn(el);
    for (let presses = 0; presses < 1e3; presses += 1) {
      const value = current();
      if (value === target) return;
      const key = value < target ? "ArrowRight" : "ArrowLeft";
      keyEvent(el, "keydown", key);
      keyEvent(el, "keyup", key);
      const moved = current();
      if (moved === value) throw new ActionError(`setValue: the slider stops at ${value}; it cannot reach ${JSON.stringify(text)}`);
      if (value < target !== moved < target && moved !== target) {
        throw new ActionError(`setValue: the slider steps over ${JSON.stringify(text)} (from ${value} to ${moved})`);
      }
    }
    throw new ActionError(`setValue: the slider did not reach ${JSON.stringify(text)}`);
  }
  async function select(el, option) {
    if (el instanceof HTMLSelectElement) {
      await actionable(el, "select");
      chooseOption(el, option, true);
      return;
    }
    await click(el);
    await sleep(150);
    const scope = el.getRootNode();
    const want = option.trim().toLowerCase();
    const options = Array.from(scope.querySelectorAll('[role="option"]')).filter((o) => pageApi().isVisible(o));
    const found = options.find((o) => (o.textContent || "").trim().toLowerCase() === want) ?? options.find((o) => (o.textContent || "").trim().toLowerCase().includes(want));
    if (!found) throw new ActionError(`no option ${JSON.stringify(option)} in this list`, "NOT_ACTIONABLE");
    await click(found);
  }
  async function press(el, text) {
    const key = keyName(text);
    const target = el ?? document.activeElement ?? document.body;
    if (el) {
      await actionable(el, "press", false);
      focusOn(el);
    }
    const proceed = keyEvent(target, "keydown", key);
    const printable = key.length === 1 || key === "Enter";
    const pressed = proceed && printable ? keyEvent(target, "keypress", key) : proceed;
    if (pressed) defaultAction(target, key);
    keyEvent(target, "keyup", key);
  }
  function defaultAction(target, key) {
    const tag = target.tagName.toLowerCase();
    if (key === "Enter") {
      if (target instanceof HTMLInputElement && target.form && !["button", "submit", "reset", "checkbox", "radio"].includes(target.type)) {
        const submitter = target.form.querySelector('button:not([type]), button[type="submit"], input[type="submit"]');
        target.form.requestSubmit(submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : void 0);
      } else if (tag === "button" || tag === "a" || target.getAttribute("role") === "button" || target.getAttribute("role") === "link") {
        target.click();
      }
    } else if (key === " " && (tag === "button" || target instanceof HTMLInputElement && ["checkbox", "radio"].includes(target.type) || target.getAttribute("role") === "button")) {
      target.click();
    } else if (key === "Tab") {
      moveFocus(target === document.body ? null : target, false);
    } else if (key.length === 1 && (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) {
      const start = target.selectionStart ?? target.value.length;
      const end = target.selectionEnd ?? target.value.length;
      nativeSet(target, target.value.slice(0, start) + key + target.value.slice(end));
      fire(target, "input");
    }
  }
  function scrollBy(box, direction) {
    const dx = { left: -0.8, right: 0.8 }[direction] ?? 0;
    const dy = { up: -0.8, down: 0.8 }[direction] ?? 0;
    if (!box) {
      const before2 = [window.scrollX, window.scrollY];
      if (direction === "top") window.scrollTo(0, 0);
      else if (direction === "bottom") window.scrollTo(0, document.documentElement.scrollHeight);
      else window.scrollBy(dx * window.innerWidth, dy * window.innerHeight);
      if (before2[0] !== window.scrollX || before2[1] !== window.scrollY) return true;
      let best = null;
      let area = 0;
      for (const el of Array.from(document.querySelectorAll("*"))) {
        const style = getComputedStyle(el);
        if (!/(auto|scroll)/.test(style.overflowY + style.overflowX)) continue;
        if (el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth) continue;
        if (el.clientWidth * el.clientHeight > area) {
          area = el.clientWidth * el.clientHeight;
          best = el;
        }
      }
      return best ? scrollBy(best, direction) : false;
    }
    const before = [box.scrollLeft, box.scrollTop];
    if (direction === "top") box.scrollTop = 0;
    else if (direction === "bottom") box.scrollTop = box.scrollHeight;
    else box.scrollBy(dx * box.clientWidth, dy * box.clientHeight);
    return before[0] !== box.scrollLeft || before[1] !== box.scrollTop;
  }
  async function executeAction(action) {
    switch (action.name) {
      case "click":
        return click(locate(action.target));
      case "hover":
        return hover(locate(action.target));
      case "setValue":
        return setValue(locate(action.target), action.value ?? "");
      case "select":
        return select(locate(action.target), action.value ?? "");
      case "press":
        return press(action.target ? locate(action.target) : null, action.value ?? "");
      case "scroll": {
        if (action.target && action.value) {
          if (!scrollBy(locate(action.target), action.value)) {
            throw new ActionError(`element ${action.target} has nothing to scroll ${action.value}`, "NOT_ACTIONABLE");
          }
        } else if (action.target) {
          locate(action.target).scrollIntoView({ block: "center", inline: "nearest" });
        } else if (!scrollBy(null, action.value ?? "down")) {
          throw new ActionError(`nothing to scroll ${action.value ?? "down"} on this page`, "NOT_ACTIONABLE");
        }
        return;
      }
      case "finish":
      case "fail":
        return;
      default:
        throw new ActionError(`the content script cannot execute ${action.name}()`, "UNSUPPORTED");
    }
  }

  // src/content/index.ts
  function offsetInTop() {
    let x = 0;
    let y = 0;
    let win = window;
    try {
      while (win !== win.top) {
        const frame = win.frameElement;
        if (!frame) return null;
        const rect = frame.getBoundingClientRect();
        x += rect.left;
        y += rect.top;
        win = win.parent;
      }
    } catch {
      return null;
    }
    return [x, y];
  }
  function sameOriginAsTop() {
    try {
      return window.top !== null && window.top.location.origin === window.location.origin;
    } catch {
      return false;
    }
  }
  function hello() {
    return {
      url: location.href,
      origin: location.origin,
      top: window === window.top,
      sameOriginAsTop: window === window.top || sameOriginAsTop() || location.href.startsWith("about:"),
      offset: window === window.top ? [0, 0] : offsetInTop(),
      readyState: document.readyState
    };
  }
  var DOCTYPE = () => {
    const d = document.doctype;
    return d ? `<!DOCTYPE ${d.name}${d.publicId ? ` PUBLIC "${d.publicId}"` : ""}${d.systemId ? ` "${d.systemId}"` : ""}>` : "";
  };
  var STAMPABLE = "a[href], button, input, select, textarea, summary, label, [onclick], [role], [tabindex], [contenteditable='true']";
  function fullDom() {
    const prefix = window.__stepwiseIdPrefix || "";
    for (const el of Array.from(document.querySelectorAll(STAMPABLE))) {
      if (el.hasAttribute("data-llm-id")) continue;
      window.__stepwiseNextId = (window.__stepwiseNextId || 0) + 1;
      el.setAttribute("data-llm-id", prefix + window.__stepwiseNextId);
    }
    return DOCTYPE() + document.documentElement.outerHTML;
  }
  async function handle(message) {
    switch (message.type) {
      case "hello":
        return hello();
      case "extract":
        return pageApi().extract(message.args);
      case "fullDom":
        return fullDom();
      case "arm":
        return pageApi().arm();
      case "witness":
        return pageApi().witness();
      case "quiet":
        return { quietMs: pageApi().quietMs(), readyState: document.readyState };
      case "inspect":
        return pageApi().inspect(message.ids, message.reveal);
      case "execute":
        try {
          await executeAction(message.action);
          return { ok: true };
        } catch (error) {
          const code = error instanceof ActionError ? error.code : "ACTION_FAILED";
          return { ok: false, error: error instanceof Error ? error.message : String(error), code };
        }
    }
  }
  if (!window.__stepwiseContent) {
    window.__stepwiseContent = true;
    chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
      if (sender.id !== chrome.runtime.id || sender.tab) return false;
      handle(message).then(
        (value) => sendResponse({ ok: true, value }),
        (error) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) })
      );
      return true;
    });
  }
})();
