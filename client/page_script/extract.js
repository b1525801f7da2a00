// Fragment of the in-page script (the tree and the page signals); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

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
  const outside = Boolean(modal && !modal.contains(el));
  const left = Math.max(rect.left, 0);
  const right = Math.min(rect.right, window.innerWidth);
  const top = Math.max(rect.top, 0);
  const bottom = Math.min(rect.bottom, window.innerHeight);
  if (right <= left || bottom <= top) return outside; // off-screen: cannot tell, unless a modal is open
  const root = el.getRootNode();
  const probe = root.elementFromPoint ? root : document;
  const hit = probe.elementFromPoint((left + right) / 2, (top + bottom) / 2);
  // Outside an open modal an element is covered — unless it is painted above the modal (a
  // later layer over it: a second overlay's "Close"), where a click reaches it.
  if (outside) return !(hit && (hit === el || el.contains(hit)) && !modal.contains(hit));
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
      if (el.tagName.toLowerCase() !== 'label' && !isPopupList(el)) out.push(el);
    } else if (el.tagName.toLowerCase() !== 'label'
      && (isSuggestion(el) || (!el.closest(INTERACTIVE) && isPointerOrigin(el) && !holdsOverflowMenu(el) && collapse(el.textContent)))) {
      out.push(el);
    } else if (!el.closest(INTERACTIVE) && isIcon(el)) {
      out.push(el); // an icon control, even inside a clickable row: its own target
    } else if (!el.closest(INTERACTIVE) && (isEntryIcon(el) || isOverflowItem(el) || isStepperReadout(el) || isStepperButton(el))) {
      out.push(el); // a repeated entry's icon (pointer cursor on :hover only), an overflow menu's item
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
    if (!isVisible(el) && !(isStepperReadout(el) && isShownEmpty(el))) continue;
    const text = collapse(el.innerText || el.textContent, 200);
    if (!text || seen.has(text)) continue;
    if (found.some((m) => m.el.contains(el) && m.text === text)) continue;
    seen.add(text);
    const hint = `${typeof el.className === 'string' ? el.className : ''} ${el.id}`.toLowerCase();
    let kind = 'info';
    // A role="alert" alone says "announce this", not "this failed" ("3 invoices are overdue"):
    // it travels as a status line, and the service reads from its words whether it is an error.
    if (/error|danger|invalid|fail|warning/.test(hint)) kind = 'error';
    else if (/success|saved|complete|confirm/.test(hint)) kind = 'success';
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
  suggestionLists.clear();
  repeatedEntries.clear();
  overflowMenus.clear();
  const containers = containerReader();
  const used = new Set();
  const named = new Map(); // included element -> [its name, its rect]
  const tree = [];
  let stamped = 0;
  for (const el of collect(document, [])) {
    if (!isPerceivable(el) && !(isStepperReadout(el) && isShownEmpty(el))) continue;
    const rect = emptyReadoutRect(el) || el.getBoundingClientRect();
    if (options.pruneToViewport && (rect.bottom < 0 || rect.right < 0
      || rect.top > window.innerHeight || rect.left > window.innerWidth)) continue;
    const role = roleOf(el);
    // What a sighted user reads on it; not for fields, whose text is a value, nor for a named
    // box that scrolls its content (terms, a log), whose text is what it holds.
    const content = isScrollBox(el) && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'));
    const visible = role === 'inp' || role === 'spinbutton' || isFormControl(el) || content ? undefined : textOf(el);
    const name = nameOf(el, visible);
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
    const node = { i: id, r: role, n: name };
    if (visible && visible.toLowerCase() !== name.toLowerCase()) node.t = visible;
    const value = valueOf(el, role);
    if (value !== undefined) node.v = value;
    const ty = fieldType(el);
    if (ty !== undefined) node.ty = ty;
    const fn = controlName(el);
    if (fn) node.fn = fn;
    const ph = collapse(el.getAttribute('placeholder'), NAME_MAX);
    if (ph && ph.toLowerCase() !== name.toLowerCase()) node.ph = ph;
    const states = statesOf(el);
    if (states.length === 1) node.s = states[0];
    else if (states.length > 1) node.s = states;
    const x = rect.left + offset[0];
    const y = rect.top + offset[1];
    node.xy = [Math.round(x + rect.width / 2), Math.round(y + rect.height / 2)];
    node.box = [Math.round(x), Math.round(y), Math.round(rect.width), Math.round(rect.height)];
    if (options.frame) node.f = options.frame;
    if (isOccluded(el, rect, modal)) node.occ = true;
    const ctx = containers.of(el, () => {
      const tag = el.tagName.toLowerCase();
      if (tag === 'input' || tag === 'select') return '';
      return visible !== undefined && visible.length < NAME_MAX ? visible : windowOf(el);
    });
    if (ctx.length) node.ctx = ctx;
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
    text: options.withText ? pageText() : undefined,
    docId: state.docId,
  };
};

// ---- the page's visible text, one block per line (the request's `pageText`) ----
const TEXT_MAX = 8000;
const CELL = '·'; // between the cells of a table row
const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'dd', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main',
  'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'br', 'label', 'legend',
  'caption', 'summary', 'details']);
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'select', 'textarea',
  'input', 'button', 'option']);

const pageText = () => {
  const lines = [];
  let line = [];
  let size = 0;
  const flush = () => {
    const text = line.map((part) => (part === CELL ? CELL : part.replace(/\s+/g, ' '))).join(' ')
      .replace(/ +/g, ' ').trim();
    line = [];
    if (text && size < TEXT_MAX) { lines.push(text); size += text.length + 1; }
  };
  const walk = (node) => {
    if (size >= TEXT_MAX) return;
    if (node.nodeType === Node.TEXT_NODE) { if (node.nodeValue.trim()) line.push(node.nodeValue); return; }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const tag = node.tagName.toLowerCase();
    if (SKIP.has(tag) || node.getAttribute('aria-hidden') === 'true') return;
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.visibility === 'hidden') return;
    const block = BLOCK.has(tag) || style.display === 'block' || style.display === 'flex' || style.display === 'grid'
      || style.display === 'table-row' || style.display === 'list-item';
    if (block) flush();
    const cell = tag === 'td' || tag === 'th' || style.display === 'table-cell';
    if (cell && line.length) line.push(CELL);
    for (const child of node.childNodes) walk(child);
    if (block) flush();
  };
  if (document.body) walk(document.body);
  flush();
  let text = lines.join('\n');
  if (text.length > TEXT_MAX) text = text.slice(0, text.lastIndexOf('\n', TEXT_MAX) > 0 ? text.lastIndexOf('\n', TEXT_MAX) : TEXT_MAX);
  return text;
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
