// Perturbation layer of the replay benchmark (bench/memory_replay.py), added to a browser
// context with context.add_init_script, after a line that sets
// window.__stepwisePerturb = {seed, kinds, auto, overlayAfter}.
//
// Before perturbing, every element under <body> gets data-bench-key (k0, k1 … in document
// order; elements added later get n0, n1 …), so the bench can tell which *real* element
// each action hit, whatever was wrapped, shuffled, renamed or relabelled. Trusted clicks,
// inputs and changes are logged in window.__benchLog with that key.
//
// Kinds (seeded with a small PRNG, so one seed gives one layout):
//   wrap    — interactive elements (or their parent) wrapped in 1–2 extra <div>s (no class:
//             same-class sibling wrappers would read as a list of repeated items);
//   shuffle — siblings that hold interactive elements put in another order;
//   rename  — every id and class replaced by a random one (label[for] and the page's style
//             rules follow), except those the page's own scripts name (renaming those would
//             break the site, not test Stepwise); controls without an id get a random one;
//   swap    — the visible labels (label text, aria-label, placeholder) of two look-alike
//             text controls exchanged, each control keeping its own name/id;
//   overlay — after the overlayAfter-th trusted action, a covering dialog with a Close
//             button appears (once per page).
// auto: true applies on load and on later mutations (the demo site, whose pages load
// their content); auto: false waits for window.__stepwisePerturbApply() (MiniWoB, whose
// task builds its page when the episode starts).
(() => {
  const cfg = window.__stepwisePerturb || {};
  const kinds = new Set(cfg.kinds || []);
  let state = (cfg.seed >>> 0) || 1;
  const rand = () => {  // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const token = () => 'p' + Math.floor(rand() * 1e9).toString(36);
  // The log, the action count and the overlay's state live in sessionStorage: they survive
  // the page navigations of one episode (one tab), and the bench reads them after each step.
  const store = window.sessionStorage;
  const load = (name, fallback) => { try { return JSON.parse(store.getItem(name)) ?? fallback; } catch (e) { return fallback; } };
  const save = (name, value) => store.setItem(name, JSON.stringify(value));
  const info = (window.__benchInfo = { keyed: 0, wrapped: 0, shuffled: 0, renamedIds: 0, renamedClasses: 0, swapped: [], overlays: 0 });
  const INTERACTIVE = 'a[href],button,input,select,textarea,[role=button],[role=link],[role=checkbox],[role=tab],[onclick],[tabindex]';
  let applying = false;

  // Elements present at the first apply: k<document order>. Elements the page adds later:
  // n:<tag>:<href>:<text>(#i): named by what they are, so the same element gets the same key
  // whatever the layer did before it appeared. The layer's own wrappers and overlay get none.
  const seenLate = new Map();
  const lateKey = (el) => {
    const base = `n:${el.tagName.toLowerCase()}:${el.getAttribute('href') || ''}:${(el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40)}`;
    const i = (seenLate.get(base) || 0) + 1;
    seenLate.set(base, i);
    return i > 1 ? `${base}#${i}` : base;
  };
  const keyAll = () => {
    let n = 0;
    for (const el of document.body ? document.body.querySelectorAll('*') : []) {
      if (el.hasAttribute('data-bench-layer') || el.closest('[data-bench-overlay]')) continue;
      if (!el.hasAttribute('data-bench-key')) el.setAttribute('data-bench-key', applied ? lateKey(el) : `k${n}`);
      n++;
    }
    info.keyed = n;
  };
  const keyOf = (node) => {
    const el = node && node.nodeType === 1 ? node : node && node.parentElement;
    const keyed = el && el.closest ? el.closest('[data-bench-key]') : null;
    return keyed ? keyed.getAttribute('data-bench-key') : null;
  };
  const record = (event) => {
    const t = event.target;
    // Playwright's selectOption dispatches its input/change itself (untrusted); a <select>'s
    // change is kept either way, any other untrusted event is the page's own doing.
    if (!event.isTrusted && !(t && t.tagName === 'SELECT' && event.type !== 'click')) return;
    const entry = { type: event.type, key: keyOf(t), tag: t && t.tagName ? t.tagName.toLowerCase() : null };
    if (event.type !== 'click' && t && 'value' in t) entry.value = t.type === 'checkbox' || t.type === 'radio' ? String(t.checked) : String(t.value);
    if (t && t.closest && t.closest('[data-bench-overlay]')) entry.overlay = true;
    save('__benchLog', [...load('__benchLog', []), entry]);
    if ((event.type === 'click' || event.type === 'input') && !entry.overlay) counted();
  };
  for (const type of ['click', 'input', 'change']) window.addEventListener(type, record, true);

  const wrap = () => {
    for (const el of document.body.querySelectorAll(INTERACTIVE)) {
      if (el.closest('[data-bench-overlay]') || el.hasAttribute('data-bench-wrapped')) continue;
      el.setAttribute('data-bench-wrapped', '1');
      const target = rand() < 0.5 && el.parentElement && el.parentElement !== document.body ? el.parentElement : el;
      if (target.parentElement && ['TR', 'TBODY', 'TABLE', 'UL', 'OL', 'SELECT', 'DL'].includes(target.parentElement.tagName)) continue;
      if (['TR', 'TD', 'LI', 'OPTION'].includes(target.tagName)) continue;
      const depth = 1 + Math.floor(rand() * 2);
      let outer = target;
      for (let d = 0; d < depth; d++) {
        const div = document.createElement(target.tagName === 'A' || getComputedStyle(target).display.startsWith('inline') ? 'span' : 'div');
        div.setAttribute('data-bench-layer', 'wrap');
        outer.parentNode.insertBefore(div, outer);
        div.appendChild(outer);
        outer = div;
      }
      info.wrapped++;
    }
  };

  const shuffle = () => {
    const parents = new Set();
    for (const el of document.body.querySelectorAll(INTERACTIVE)) {
      const p = el.parentElement;  // the control's own block, and the block that holds those
      if (p && p !== document.body) { parents.add(p); if (p.parentElement && p.parentElement !== document.body) parents.add(p.parentElement); }
    }
    for (const parent of parents) {
      if (parent.hasAttribute('data-bench-shuffled') || parent.closest('[data-bench-overlay]')) continue;
      if (['SELECT', 'TR', 'THEAD', 'TBODY', 'TABLE', 'OL'].includes(parent.tagName)) continue;
      const kids = [...parent.children].filter((c) => !['SCRIPT', 'STYLE', 'LABEL'].includes(c.tagName));
      if (kids.length < 2 || kids.length > 40) continue;
      parent.setAttribute('data-bench-shuffled', '1');
      const order = kids.slice();
      for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
      if (order.every((c, i) => c === kids[i])) order.reverse();
      const anchor = kids[kids.length - 1].nextSibling;
      for (const c of order) parent.insertBefore(c, anchor);
      info.shuffled++;
    }
  };

  let readText = null;
  const pageCode = () => {  // what the page's own scripts name: those ids and classes are left alone
    if (readText !== null) return readText;
    const parts = [];
    for (const s of document.scripts) {
      if (!s.src) { parts.push(s.textContent); continue; }
      try { const x = new XMLHttpRequest(); x.open('GET', s.src, false); x.send(); parts.push(x.responseText); } catch (e) { /* cross-origin: ignored */ }
    }
    readText = parts.join('\n');
    return readText;
  };
  const escapeRe = (word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Named by the scripts: the word itself, or the stem of a numbered one built in code
  // ('ch' + i gives ch0, ch1 …: MiniWoB reads its controls back that way).
  const named = (word) => {
    if (new RegExp(`[#.'"\\s]${escapeRe(word)}(?![\\w-])`).test(pageCode())) return true;
    const stem = word.replace(/[-_]?\d+$/, '');
    return stem !== word && stem.length > 0 && new RegExp(`['"#.]${escapeRe(stem)}[-_]?['"]`).test(pageCode());
  };
  const renamed = new Map();  // "#old" / ".old" → the new name (one per old name, so later elements match)
  const newName = (sigil, old) => {
    if (!renamed.has(sigil + old)) { renamed.set(sigil + old, token()); restyle(sigil, old); }
    return renamed.get(sigil + old);
  };
  const restyle = (sigil, old) => {  // the page's style rules that name the old one, copied for the new one
    const pattern = new RegExp(`${sigil === '#' ? '#' : '\\.'}${escapeRe(CSS.escape(old))}(?![\\w-])`, 'g');
    for (const sheet of document.styleSheets) {
      let rules;
      try { rules = [...sheet.cssRules]; } catch (e) { continue; }  // cross-origin
      for (const rule of rules) {
        if (!rule.selectorText || !pattern.test(rule.selectorText)) continue;
        pattern.lastIndex = 0;
        const selector = rule.selectorText.replace(pattern, sigil + renamed.get(sigil + old));
        try { sheet.insertRule(`${selector} { ${rule.style.cssText} }`, sheet.cssRules.length); } catch (e) { /* unsupported */ }
      }
    }
  };
  const rename = () => {
    for (const el of document.body.querySelectorAll('*')) {
      if (el.hasAttribute('data-bench-renamed') || el.closest('[data-bench-overlay]')) continue;
      el.setAttribute('data-bench-renamed', '1');
      if (el.id && !named(el.id)) {
        const old = el.id;
        el.id = newName('#', old);
        for (const label of document.querySelectorAll(`label[for="${CSS.escape(old)}"]`)) label.htmlFor = el.id;
        info.renamedIds++;
      } else if (!el.id && el.matches(INTERACTIVE)) { el.id = token(); info.renamedIds++; }
      for (const c of [...el.classList]) if (!named(c)) { el.classList.replace(c, newName('.', c)); info.renamedClasses++; }
    }
  };

  const labelOf = (el) => {
    if (el.id) { const l = document.querySelector(`label[for="${CSS.escape(el.id)}"]`); if (l) return l; }
    if (el.closest('label')) return el.closest('label');
    const prev = el.previousElementSibling;
    return prev && prev.tagName === 'LABEL' && !prev.htmlFor ? prev : null;
  };
  const TEXTY = 'input:not([type]),input[type=text],input[type=password],input[type=email],input[type=search],input[type=tel],input[type=number],textarea';
  const swap = () => {
    if (info.swapped.length) return;
    const controls = [...document.body.querySelectorAll(TEXTY)].filter((el) => labelOf(el) || el.getAttribute('aria-label') || el.placeholder);
    if (controls.length < 2) return;
    const sameType = [];
    for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++) if ((controls[i].type || 'text') === (controls[j].type || 'text')) sameType.push([controls[i], controls[j]]);
    const [a, b] = sameType.length ? sameType[Math.floor(rand() * sameType.length)] : [controls[0], controls[1]];
    const la = labelOf(a), lb = labelOf(b);
    if (la && lb) { const t = la.textContent; la.textContent = lb.textContent; lb.textContent = t; }
    for (const attr of ['aria-label', 'placeholder']) {
      const va = a.getAttribute(attr), vb = b.getAttribute(attr);
      if (vb === null) a.removeAttribute(attr); else a.setAttribute(attr, vb);
      if (va === null) b.removeAttribute(attr); else b.setAttribute(attr, va);
    }
    info.swapped = [a.getAttribute('data-bench-key'), b.getAttribute('data-bench-key')];
  };

  const counted = () => {  // the overlayAfter-th trusted action arms the overlay (once per episode)
    if (!kinds.has('overlay') || load('__benchOverlay', 0)) return;
    const actions = load('__benchActions', 0) + 1;
    save('__benchActions', actions);
    if (actions < (cfg.overlayAfter || 1)) return;
    save('__benchOverlay', 1);  // armed: shown on this page, or on the next one if it navigates first
    setTimeout(showOverlay, OVERLAY_DELAY_MS);
  };
  const OVERLAY_DELAY_MS = 250;
  const showOverlay = () => {
    if (load('__benchOverlay', 0) !== 1 || !document.body) return;
    save('__benchOverlay', 2);
    const box = document.createElement('div');
    box.setAttribute('data-bench-overlay', '1');
    box.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.45);z-index:2147483647;display:flex;align-items:center;justify-content:center';
    box.innerHTML = '<div role="dialog" aria-modal="true" aria-label="Notice" style="background:#fff;padding:12px;border-radius:6px;font:14px sans-serif">' +
      '<p>We have updated our terms of service.</p><button type="button">Close</button></div>';
    box.querySelector('button').addEventListener('click', () => box.remove());
    document.body.appendChild(box);
    info.overlays++;
  };

  let applied = false;
  const apply = () => {
    if (!document.body || applying) return info;
    applying = true;
    try {
      keyAll();
      applied = true;
      if (kinds.has('wrap')) wrap();
      if (kinds.has('shuffle')) shuffle();
      if (kinds.has('rename')) rename();
      if (kinds.has('swap')) swap();
      if (load('__benchOverlay', 0) === 1) setTimeout(showOverlay, OVERLAY_DELAY_MS);
    } finally { applying = false; }
    return info;
  };
  window.__stepwisePerturbApply = apply;
  window.__benchTake = () => { const out = load('__benchLog', []); save('__benchLog', []); return out; };
  if (cfg.auto) {
    const start = () => {
      apply();
      let timer = null;
      new MutationObserver(() => {
        if (applying) return;
        clearTimeout(timer);
        timer = setTimeout(apply, 20);
      }).observe(document.body, { childList: true, subtree: true });
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
  }
})();
