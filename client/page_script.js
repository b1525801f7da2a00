// Stepwise in-page script: the part of the client that runs inside every frame.
//
// Installed once per document (Playwright init script, or evaluated into an already loaded
// document); everything lives on window.__stepwise. It does four things:
//   1. stamps stable `data-llm-id` attributes on interactive elements (counter on window:
//      an element that has an id keeps it; new elements get new numbers);
//   2. extracts the V3 `interactiveTree` (keys i, r, n, v, s, xy, f, box, occ) and page signals;
//   3. witnesses what an action did (MutationObserver + PerformanceObserver('resource'));
//   4. reports how long the DOM has been quiet, for the stability wait.
(() => {
  const VERSION = 1;
  if (window.__stepwise && window.__stepwise.version === VERSION) return;

  const ATTR = 'data-llm-id';
  const NAME_MAX = 120;
  const VALUE_MAX = 200;
  const EVENTS_MAX = 20;

  const INTERACTIVE = [
    'a[href]', 'button', 'input:not([type="hidden"])', 'select', 'textarea', 'summary',
    '[contenteditable=""]', '[contenteditable="true"]', '[onclick]', '[tabindex]:not([tabindex="-1"])',
    '[role="button"]', '[role="link"]', '[role="checkbox"]', '[role="switch"]', '[role="radio"]',
    '[role="tab"]', '[role="menuitem"]', '[role="menuitemcheckbox"]', '[role="menuitemradio"]',
    '[role="option"]', '[role="combobox"]', '[role="listbox"]', '[role="textbox"]',
    '[role="searchbox"]', '[role="slider"]', '[role="spinbutton"]', '[role="treeitem"]',
  ].join(',');
  const ROLE_ATTR = {
    button: 'btn', link: 'link', checkbox: 'chk', switch: 'switch', radio: 'radio', tab: 'tab',
    menuitem: 'menuitem', menuitemcheckbox: 'menuitem', menuitemradio: 'menuitem', option: 'option',
    combobox: 'sel', listbox: 'sel', textbox: 'inp', searchbox: 'inp', slider: 'slider',
    spinbutton: 'inp', treeitem: 'treeitem',
  };
  const BUTTON_TYPES = new Set(['button', 'submit', 'reset', 'image']);
  const MESSAGE_SELECTOR = [
    '[role="alert"]', '[role="status"]', '[aria-live="polite"]', '[aria-live="assertive"]',
    '.error', '.errors', '.error-message', '.invalid-feedback', '.success', '.toast', '.alert',
    '.notification', '.flash',
  ].join(',');

  const collapse = (text, max) => {
    const out = (text || '').replace(/\s+/g, ' ').trim();
    return max && out.length > max ? out.slice(0, max - 1) + '…' : out;
  };

  // ---- witness: always-on observers; arm() sets the baseline an action is compared to ----
  const state = {
    docId: Math.random().toString(36).slice(2),
    seq: 0,
    resources: 0,
    lastMutation: performance.now(),
    armed: null,
    events: [],
  };

  const describe = (node) => {
    if (!node || node.nodeType !== 1) return node && node.nodeType === 3 ? 'text' : 'node';
    let out = node.tagName.toLowerCase();
    if (node.id) out += '#' + node.id;
    const cls = typeof node.className === 'string' ? node.className.trim().split(/\s+/)[0] : '';
    if (cls) out += '.' + cls;
    const text = collapse(node.textContent, 60);
    return text ? `${out} "${text}"` : out;
  };

  const record = (m) => {
    if (!state.armed || state.events.length >= EVENTS_MAX) return;
    if (m.type === 'childList') {
      for (const n of m.addedNodes) if (n.nodeType === 1) state.events.push('added ' + describe(n));
      for (const n of m.removedNodes) if (n.nodeType === 1) state.events.push('removed ' + describe(n));
    } else if (m.type === 'attributes' && /^(aria-|class$|hidden$|open$|disabled$)/.test(m.attributeName)) {
      state.events.push(`attr ${m.attributeName} on ${describe(m.target)}`);
    }
    if (state.events.length > EVENTS_MAX) state.events.length = EVENTS_MAX;
  };

  const observer = new MutationObserver((records) => {
    let relevant = false;
    for (const m of records) {
      if (m.type === 'attributes' && m.attributeName === ATTR) continue;
      relevant = true;
      record(m);
    }
    if (relevant) {
      state.seq += 1;
      state.lastMutation = performance.now();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    new PerformanceObserver((list) => { state.resources += list.getEntries().length; })
      .observe({ type: 'resource', buffered: false });
  } catch (e) { /* no PerformanceObserver: Playwright's request events still count */ }

  const arm = () => {
    state.armed = { seq: state.seq, resources: state.resources, at: performance.now() };
    state.events = [];
    return state.docId;
  };

  const witness = () => {
    const base = state.armed || { seq: state.seq, resources: state.resources };
    return {
      docId: state.docId,
      didDomMutate: state.seq > base.seq,
      didNetworkOccur: state.resources > base.resources,
      events: state.events.slice(),
      quietMs: performance.now() - state.lastMutation,
    };
  };

  const quietMs = () => performance.now() - state.lastMutation;

  // Inputs the agent itself filled (setValue): their password values may be reported.
  const typed = new WeakSet();
  const markTyped = (el) => { typed.add(el); };

  // ---- visibility, roles, names, values, states ----
  const isVisible = (el) => {
    if (!el.isConnected || !el.getClientRects().length) return false;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return false;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    return true;
  };

  const roleOf = (el) => {
    const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
    if (ROLE_ATTR[explicit]) return ROLE_ATTR[explicit];
    const tag = el.tagName.toLowerCase();
    if (tag === 'a') return 'link';
    if (tag === 'button' || tag === 'summary') return 'btn';
    if (tag === 'select') return 'sel';
    if (tag === 'textarea') return 'inp';
    if (tag === 'input') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (BUTTON_TYPES.has(type)) return 'btn';
      if (type === 'checkbox') return 'chk';
      if (type === 'radio') return 'radio';
      if (type === 'range') return 'slider';
      if (type === 'file') return 'file';
      return 'inp';
    }
    if (el.isContentEditable) return 'inp';
    return 'btn';
  };

  const isFormControl = (el) => ['input', 'select', 'textarea'].includes(el.tagName.toLowerCase());

  // Text of `root` without the text of `skip` (a label that wraps its own control).
  const textWithout = (root, skip) => {
    const parts = [];
    const walk = (node) => {
      if (node === skip) return;
      if (node.nodeType === 3) { parts.push(node.textContent); return; }
      if (node.nodeType !== 1) return;
      const tag = node.tagName.toLowerCase();
      if (tag === 'select' || tag === 'script' || tag === 'style' || tag === 'option') return;
      for (const child of node.childNodes) walk(child);
    };
    walk(root);
    return collapse(parts.join(' '), NAME_MAX);
  };

  // Visible text, without aria-hidden parts (an icon glyph such as "×" is not a name).
  const textOf = (el) => {
    if (!el.querySelector('[aria-hidden="true"]')) return collapse(el.innerText || el.textContent, NAME_MAX);
    const parts = [];
    const walk = (node) => {
      if (node.nodeType === 3) { parts.push(node.textContent); return; }
      if (node.nodeType !== 1 || node.getAttribute('aria-hidden') === 'true') return;
      if (['script', 'style', 'template'].includes(node.tagName.toLowerCase())) return;
      if (!node.getClientRects().length && getComputedStyle(node).display === 'none') return;
      for (const child of node.childNodes) walk(child);
    };
    walk(el);
    return collapse(parts.join(' '), NAME_MAX);
  };

  const byIds = (el, attr) => {
    const ids = (el.getAttribute(attr) || '').trim().split(/\s+/).filter(Boolean);
    const root = el.getRootNode();
    return collapse(ids.map((id) => {
      const ref = root.getElementById ? root.getElementById(id) : document.getElementById(id);
      return ref ? ref.textContent : '';
    }).join(' '), NAME_MAX);
  };

  const nameOf = (el) => {
    const aria = collapse(el.getAttribute('aria-label'), NAME_MAX);
    if (aria) return aria;
    const labelledby = byIds(el, 'aria-labelledby');
    if (labelledby) return labelledby;
    if (isFormControl(el)) {
      if (el.id) {
        const root = el.getRootNode();
        const forLabel = root.querySelector ? root.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
        if (forLabel) { const t = textWithout(forLabel, el); if (t) return t; }
      }
      const wrapping = el.closest('label');
      if (wrapping) { const t = textWithout(wrapping, el); if (t) return t; }
      const placeholder = collapse(el.getAttribute('placeholder'), NAME_MAX);
      if (placeholder) return placeholder;
      // <label>Username</label><input>: a label right before the control that names no other one.
      const previous = el.previousElementSibling;
      if (previous && previous.tagName.toLowerCase() === 'label' && !previous.htmlFor && !previous.querySelector('input,select,textarea')) {
        const t = textWithout(previous, el);
        if (t) return t;
      }
    }
    const tag = el.tagName.toLowerCase();
    if (tag !== 'select' && tag !== 'textarea' && !(tag === 'input' && !BUTTON_TYPES.has((el.type || '').toLowerCase()))) {
      const text = textOf(el);
      if (text) return text;
    }
    const title = collapse(el.getAttribute('title'), NAME_MAX);
    if (title) return title;
    const alt = el.getAttribute('alt') || (el.querySelector && el.querySelector('img[alt]') ? el.querySelector('img[alt]').getAttribute('alt') : '');
    if (collapse(alt)) return collapse(alt, NAME_MAX);
    if (tag === 'input' && BUTTON_TYPES.has((el.type || '').toLowerCase())) {
      return collapse(el.value || (el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : ''), NAME_MAX);
    }
    return '';
  };

  const valueOf = (el, role) => {
    const tag = el.tagName.toLowerCase();
    if (tag === 'select') {
      return collapse(Array.from(el.selectedOptions || []).map((o) => o.label || o.text).join(', '), VALUE_MAX);
    }
    if (tag === 'textarea') return collapse(el.value, VALUE_MAX);
    if (tag === 'input') {
      const type = (el.type || 'text').toLowerCase();
      if (BUTTON_TYPES.has(type) || type === 'checkbox' || type === 'radio') return undefined;
      // A password is sent only when the agent typed it (the server chose it); otherwise masked.
      if (type === 'password') return typed.has(el) ? collapse(el.value, VALUE_MAX) : '•'.repeat(Math.min(el.value.length, 32));
      if (type === 'file') return collapse(Array.from(el.files || []).map((f) => f.name).join(', '), VALUE_MAX);
      return collapse(el.value, VALUE_MAX);
    }
    if (el.isContentEditable && role === 'inp') return collapse(el.innerText, VALUE_MAX);
    if (role === 'inp' || role === 'slider') {
      const now = el.getAttribute('aria-valuenow') || el.getAttribute('aria-valuetext');
      if (now !== null) return collapse(now, VALUE_MAX);
    }
    return undefined;
  };

  const statesOf = (el) => {
    const out = [];
    const aria = (name) => el.getAttribute(name) === 'true';
    if (el.matches(':disabled') || aria('aria-disabled')) out.push('disabled');
    if (el.checked === true || aria('aria-checked') || aria('aria-pressed')) out.push('checked');
    const isSummary = el.tagName.toLowerCase() === 'summary' && el.parentElement && el.parentElement.tagName.toLowerCase() === 'details';
    if (aria('aria-expanded') || (isSummary && el.parentElement.open)) out.push('expanded');
    else if (el.getAttribute('aria-expanded') === 'false' || (isSummary && !el.parentElement.open)) out.push('collapsed');
    if (aria('aria-selected') || (el.tagName.toLowerCase() === 'option' && el.selected)) out.push('selected');
    if (el.required === true || aria('aria-required')) out.push('required');
    if (el.readOnly === true || aria('aria-readonly')) out.push('readonly');
    if (el === document.activeElement && el !== document.body) out.push('focused');
    return out;
  };

  // ---- occlusion: covered by a modal, or the centre point belongs to something else ----
  const openModal = () => {
    const candidates = document.querySelectorAll('dialog[open], [aria-modal="true"]');
    for (const d of candidates) {
      const isModal = d.getAttribute('aria-modal') === 'true' || (d.matches && d.matches(':modal'));
      if (isModal && isVisible(d)) return d;
    }
    return null;
  };

  const isOccluded = (el, rect, modal) => {
    if (modal && !modal.contains(el)) return true;
    const left = Math.max(rect.left, 0);
    const right = Math.min(rect.right, window.innerWidth);
    const top = Math.max(rect.top, 0);
    const bottom = Math.min(rect.bottom, window.innerHeight);
    if (right <= left || bottom <= top) return false; // off-screen: cannot tell
    const root = el.getRootNode();
    const probe = root.elementFromPoint ? root : document;
    const hit = probe.elementFromPoint((left + right) / 2, (top + bottom) / 2);
    if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return false;
    if (el.labels && Array.from(el.labels).some((label) => label === hit || label.contains(hit))) return false;
    return true;
  };

  // ---- collection ----
  const isPointerOrigin = (el) => {
    const cursor = getComputedStyle(el).cursor;
    if (cursor !== 'pointer') return false;
    const parent = el.parentElement;
    return !parent || getComputedStyle(parent).cursor !== 'pointer';
  };

  const collect = (root, out) => {
    const all = root.querySelectorAll('*');
    for (const el of all) {
      if (el.matches(INTERACTIVE)) {
        if (el.tagName.toLowerCase() !== 'label') out.push(el);
      } else if (!el.closest(INTERACTIVE) && el.tagName.toLowerCase() !== 'label' && isPointerOrigin(el)
        && collapse(el.textContent)) {
        out.push(el);
      }
      if (el.shadowRoot) collect(el.shadowRoot, out);
    }
    return out;
  };

  const nextId = (prefix) => {
    window.__stepwiseNextId = (window.__stepwiseNextId || 0) + 1;
    return prefix + window.__stepwiseNextId;
  };

  const messages = () => {
    const found = [];
    const seen = new Set();
    for (const el of document.querySelectorAll(MESSAGE_SELECTOR)) {
      if (!isVisible(el)) continue;
      const text = collapse(el.innerText || el.textContent, 200);
      if (!text || seen.has(text)) continue;
      if (found.some((m) => m.el.contains(el) && m.text === text)) continue;
      seen.add(text);
      const hint = `${typeof el.className === 'string' ? el.className : ''} ${el.id}`.toLowerCase();
      const role = (el.getAttribute('role') || '').toLowerCase();
      let kind = 'info';
      if (/error|danger|invalid|fail|warning/.test(hint)) kind = 'error';
      else if (/success|saved|complete|confirm/.test(hint)) kind = 'success';
      else if (role === 'alert') kind = 'error';
      found.push({ el, kind, text });
    }
    return found.map(({ kind, text }) => ({ kind, text }));
  };

  const sameTarget = ([outerName, outer], name, inner) => {
    if (outerName !== name) return false;
    const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
    const [ox, oy] = centre(outer);
    const [ix, iy] = centre(inner);
    return Math.hypot(ox - ix, oy - iy) <= 10 && inner.width * inner.height >= 0.5 * outer.width * outer.height;
  };

  const extract = (opts) => {
    const options = opts || {};
    const prefix = options.prefix || '';
    if (window.__stepwiseIdPrefix === undefined) window.__stepwiseIdPrefix = prefix;
    // A new document of the same tab continues the tab's numbering: an id never names two
    // different elements in one session, even across navigations.
    if (options.floor && (window.__stepwiseNextId || 0) < options.floor) window.__stepwiseNextId = options.floor;
    const offset = options.offset || [0, 0];
    const modal = openModal();
    const used = new Set();
    const named = new Map(); // included element -> [its name, its rect]
    const tree = [];
    let stamped = 0;
    for (const el of collect(document, [])) {
      if (!isVisible(el)) continue;
      const rect = el.getBoundingClientRect();
      if (options.pruneToViewport && (rect.bottom < 0 || rect.right < 0
        || rect.top > window.innerHeight || rect.left > window.innerWidth)) continue;
      const name = nameOf(el);
      // <li role=tab><a href>Tab 2</a></li>: one element to act on, not two with one name
      // (only when the inner one fills the outer one, so a click on either lands on both).
      const outer = el.parentElement && el.parentElement.closest(INTERACTIVE);
      if (outer && named.has(outer) && sameTarget(named.get(outer), name, rect)) continue;
      named.set(el, [name, rect]);
      let id = el.getAttribute(ATTR);
      if (!id || used.has(id)) { // a clone carries its original's id: give it its own
        id = nextId(window.__stepwiseIdPrefix);
        el.setAttribute(ATTR, id);
        stamped += 1;
      }
      used.add(id);
      const role = roleOf(el);
      const node = { i: id, r: role, n: name };
      const value = valueOf(el, role);
      if (value !== undefined) node.v = value;
      const states = statesOf(el);
      if (states.length === 1) node.s = states[0];
      else if (states.length > 1) node.s = states;
      const x = rect.left + offset[0];
      const y = rect.top + offset[1];
      node.xy = [Math.round(x + rect.width / 2), Math.round(y + rect.height / 2)];
      node.box = [Math.round(x), Math.round(y), Math.round(rect.width), Math.round(rect.height)];
      if (options.frame) node.f = options.frame;
      if (isOccluded(el, rect, modal)) node.occ = true;
      tree.push(node);
      if (options.maxNodes && tree.length >= options.maxNodes) break;
    }
    const found = messages();
    const scrollable = document.documentElement.scrollHeight - window.innerHeight;
    return {
      tree,
      stamped,
      title: document.title,
      viewport: { width: window.innerWidth, height: window.innerHeight },
      scrollPosition: scrollable > 0 ? Math.round((window.scrollY / scrollable) * 100) + '%' : '0%',
      hasErrors: found.some((m) => m.kind === 'error'),
      hasSuccess: found.some((m) => m.kind === 'success'),
      messages: found,
      docId: state.docId,
    };
  };

  const find = (id) => {
    const search = (root) => {
      const direct = root.querySelector(`[${ATTR}="${CSS.escape(id)}"]`);
      if (direct) return direct;
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) { const inner = search(el.shadowRoot); if (inner) return inner; }
      }
      return null;
    };
    return search(document);
  };

  window.__stepwise = { version: VERSION, arm, witness, quietMs, extract, find, isVisible, markTyped };
})();
