(() => {
// Fragment of the in-page script (what it looks for); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

const VERSION = 11;
if (window.__stepwise && window.__stepwise.version === VERSION) return;

const ATTR = 'data-llm-id';
const NAME_MAX = 120;
const GROUP_LABEL_MAX = 60; // a text opening a field's group longer than this is prose, not its label
const VALUE_MAX = 200;
const FIELD_VALUE_MAX = 2000;
const EVENTS_MAX = 20;

const INTERACTIVE = [
  'a[href]', 'a[title]', 'a[data-handler]', 'a[role]', '[data-action]', 'button', 'input:not([type="hidden"])', 'select', 'textarea', 'summary',
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
  spinbutton: 'spinbutton', treeitem: 'treeitem',
};
const BUTTON_TYPES = new Set(['button', 'submit', 'reset', 'image']);
const MESSAGE_SELECTOR = [
  '[role="alert"]', '[role="status"]', '[aria-live="polite"]', '[aria-live="assertive"]',
  '.error', '.errors', '.error-message', '.invalid-feedback', '.success', '.toast', '.alert',
  '.notification', '.flash',
].join(',');

const clip = (text, max) => {
  const out = text || '';
  return out.length > max ? out.slice(0, max - 1) + '…' : out;
};

const collapse = (text, max) => {
  const out = (text || '').replace(/\s+/g, ' ').trim();
  return max && out.length > max ? out.slice(0, max - 1) + '…' : out;
};

// An icon control that is not marked up as one (a <span class="trash">, <i id="star-3">): an
// element with a pointer cursor whose class or id words name what it does. It is collected
// even inside a clickable row, named by its text, title or alt, else by those words.
const ICON_WORDS = new Set(['trash', 'delete', 'remove', 'bin', 'star', 'reply', 'forward', 'archive',
  'flag', 'important', 'send', 'close', 'edit', 'pin', 'like', 'share', 'retweet', 'bookmark',
  'favorite', 'favourite', 'unread', 'spam', 'snooze', 'mute', 'retweet', 'repost', 'comment', 'follow', 'block',
  'report']);
// Class words of a record's overflow control (the "more" / kebab / "⋯" that opens its menu of
// actions), and the glyphs such a control shows instead of a word.
const OVERFLOW_WORDS = new Set(['more', 'menu', 'options', 'actions', 'kebab', 'ellipsis', 'overflow', 'dots']);
const OVERFLOW_GLYPHS = new Set(['⋯', '…', '...', '⋮', '︙', '•••', '···']);
// Class words with which such an icon says it is on (a clicked star: class="star clicked").
const ICON_ON_WORDS = new Set(['active', 'on', 'checked', 'selected', 'pressed', 'clicked', 'starred', 'flagged',
  'toggled', 'marked', 'liked', 'pinned']);

// Fragment of the in-page script (what an action did); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

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

// Fragment of the in-page script (one element: visible, role, name, value, states); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

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

// A target a person can see and reach: visible, not transparent (opacity 0 on it or an
// ancestor), not inside an inert subtree nor one hidden from assistive technology
// (aria-hidden="true"). Anything else is never an element of the tree: it cannot be a target.
// A transparent field (not a button) of its own stays: a skinned checkbox or a terminal's
// input is typed into or ticked through what the page draws over it.
const FIELD_BUTTON_TYPES = new Set(['submit', 'button', 'reset', 'image']);
const isTransparent = (el) => (el.checkVisibility
  ? !el.checkVisibility({ opacityProperty: true })
  : getComputedStyle(el).opacity === '0');
const isPerceivable = (el) => {
  if (!isVisible(el)) return false;
  if (el.closest('[inert], [aria-hidden="true"]')) return false;
  if (!isTransparent(el)) return true;
  const field = isFormControl(el) && !FIELD_BUTTON_TYPES.has((el.getAttribute('type') || '').toLowerCase());
  if (!field || getComputedStyle(el).opacity !== '0') return false;
  return !el.parentElement || !isTransparent(el.parentElement);
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
  if (isSliderHandle(el)) return 'slider';
  if (isStepperReadout(el)) return 'spinbutton';
  if (isSuggestion(el)) return 'option';
  return 'btn';
};

// An autocomplete's suggestions: the items of a list a text field controls (aria-controls /
// aria-owns / list), or of one whose class or id says so (jQuery UI's ul.ui-autocomplete,
// "suggestions", "typeahead" …). Each item is an option; the list itself is not a field.
const SUGGEST_WORDS = /(^|[-_\s])(ui-autocomplete|autocomplete|auto-complete|autocomplete-items|autocomplete-list|suggest|suggests|suggestion|suggestions|typeahead|type-ahead|awesomplete|completions?)([-_\s]|$)/i;
const suggestionLists = new Map(); // element -> is a suggestion list (cleared by each extract)
const isSuggestionList = (el) => {
  if (!el || el === document.body || el === document.documentElement) return false;
  if (suggestionLists.has(el)) return suggestionLists.get(el);
  let found = false;
  if (!el.matches('input, textarea, select')) {
    const hint = `${typeof el.className === 'string' ? el.className : ''} ${el.id || ''}`;
    if (SUGGEST_WORDS.test(hint)) found = true;
    else if (el.id) {
      const id = CSS.escape(el.id);
      found = !!document.querySelector(`input[aria-controls~="${id}"], input[aria-owns~="${id}"], [role="combobox"][aria-controls~="${id}"], [role="combobox"][aria-owns~="${id}"]`);
    }
  }
  suggestionLists.set(el, found);
  return found;
};
const isSuggestion = (el) => {
  const parent = el.parentElement;
  if (!parent || !isSuggestionList(parent) || isSuggestionList(el)) return false;
  if (!/^(li|div|a|span|p|button)$/i.test(el.tagName) || el.querySelector('input, textarea, select')) return false;
  return !!collapse(el.textContent);
};
// The list that pops up under a text field (a listbox, a focusable ul) is its suggestions, not
// an element of its own: its items are listed instead.
const isPopupList = (el) => !el.matches('input, textarea, select, button, a[href]') && el.children.length > 0
  && isSuggestionList(el);

// A script-made slider without role="slider" (jQuery UI and the like): a focusable handle or
// thumb whose class names say so, or that sits in a track whose class names say "slider".
const HANDLE_WORDS = /(^|[-_\s])(handle|thumb|knob)([-_\s]|$)/i;
const SLIDER_WORDS = /(^|[-_\s])(slider|range|scrubber)([-_\s]|$)/i;
const sliderTrack = (el) => {
  for (let node = el.parentElement, depth = 0; node && depth < 3; node = node.parentElement, depth += 1) {
    if (SLIDER_WORDS.test(typeof node.className === 'string' ? node.className : '')) return node;
  }
  return null;
};
const isSliderHandle = (el) => el.tabIndex >= 0 && !collapse(el.textContent)
  && HANDLE_WORDS.test(typeof el.className === 'string' ? el.className : '') && sliderTrack(el) !== null;

// The number a slider shows beside its track when it has no aria-valuenow: an <output> for
// it, or the sibling just after (else before) the track whose whole text is one number.
const NUMBER_TEXT = /^[-+−]?\d+(?:[.,]\d+)?$/;
const sliderReadout = (el) => {
  const track = sliderTrack(el) || el;
  const output = track.id ? document.querySelector(`output[for~="${CSS.escape(track.id)}"]`) : null;
  if (output) return collapse(output.textContent, VALUE_MAX);
  for (const node of [track.nextElementSibling, track.previousElementSibling]) {
    const text = node ? collapse(node.textContent) : '';
    if (NUMBER_TEXT.test(text) && isVisible(node)) return text.replace('−', '-');
  }
  return undefined;
};

// The words of an element's class and id ("email-reply star clicked" → email, reply, star, clicked).
const classWords = (el) => `${typeof el.className === 'string' ? el.className : ''} ${el.id || ''}`
  .replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
// The words that name an icon control (ICON_WORDS), in the order they appear; [] for anything else.
const iconWords = (el) => {
  const tag = el.tagName.toLowerCase();
  if (tag === 'html' || tag === 'body' || isFormControl(el)) return [];
  const found = classWords(el).filter((word) => (ICON_WORDS.has(word) || OVERFLOW_WORDS.has(word)) && !ICON_ON_WORDS.has(word));
  return found.filter((word, at) => found.indexOf(word) === at);
};
const isIcon = (el) => iconWords(el).length > 0 && collapse(el.textContent, NAME_MAX + 1).length <= 40
  && getComputedStyle(el).cursor === 'pointer';
// A record's overflow control ("more", kebab, "⋯"): its class words or its glyph say so.
const overflowWords = (el) => classWords(el).filter((word) => OVERFLOW_WORDS.has(word));
const isOverflow = (el) => !isFormControl(el) && (el.textContent || '').length <= 40 && collapse(el.textContent).length <= 4
  && (overflowWords(el).length > 0 || OVERFLOW_GLYPHS.has(collapse(el.textContent)) || OVERFLOW_GLYPHS.has(collapse(el.getAttribute('aria-label'))));
// An icon control of a repeated entry (a feed's reply / like / more icons): named by class words
// but showing the pointer cursor only on :hover, which getComputedStyle cannot see. Inside an
// entry of a list made of repeated boxes (isRepeatedEntry) the class words are enough.
const ENTRY_DEPTH = 6;
const inRepeatedEntry = (el) => {
  let node = el.parentElement;
  for (let depth = 0; node && depth < ENTRY_DEPTH; node = node.parentElement, depth += 1) {
    const classes = node.getAttribute('class') || '';
    if (classes.trim() && isRepeatedEntry(node, classes)) return true;
  }
  return false;
};
const isEntryIcon = (el) => !el.firstElementChild && collapse(el.textContent, NAME_MAX + 1).length <= 40
  && (iconWords(el).length > 0 || isOverflow(el)) && inRepeatedEntry(el);
// An item of the menu an overflow control opens: a child of a list (ul, ol, [role=menu]) that
// sits beside the control, when the item has text. Hidden until the menu opens.
const overflowMenus = new Map(); // list -> sits beside an overflow control (cleared by each extract)
const isOverflowMenu = (list) => {
  if (overflowMenus.has(list)) return overflowMenus.get(list);
  let found = false;
  if (list.parentElement && /^(ul|ol|div)$/i.test(list.tagName)) {
    for (const sibling of list.parentElement.children) {
      if (sibling !== list && isOverflow(sibling)) { found = true; break; }
    }
  }
  overflowMenus.set(list, found);
  return found;
};
// A quantity stepper without markup (a shop's "−  2  +"): a readout — no element children, its
// text empty or a whole number — between a "−" and a "+" sibling (text or class words say
// which). The readout is a `spinbutton` whose value is the number shown ("0" when empty); the
// two signs are its buttons.
const STEP_UP = new Set(['+', '＋']);
const STEP_DOWN = new Set(['-', '−', '–', '－']);
const STEP_UP_WORDS = new Set(['add', 'plus', 'increment', 'increase', 'inc', 'up']);
const STEP_DOWN_WORDS = new Set(['remove', 'minus', 'decrement', 'decrease', 'dec', 'down', 'subtract']);
const stepSign = (el) => {
  if (!el || el.firstElementChild || isFormControl(el)) return '';
  const text = collapse(el.textContent);
  const words = classWords(el);
  if (STEP_UP.has(text) || (!text && words.some((w) => STEP_UP_WORDS.has(w)))) return 'up';
  if (STEP_DOWN.has(text) || (!text && words.some((w) => STEP_DOWN_WORDS.has(w)))) return 'down';
  return '';
};
const isStepperReadout = (el) => {
  if (el.firstElementChild || isFormControl(el) || !/^\d*$/.test(collapse(el.textContent))) return false;
  const signs = [stepSign(el.previousElementSibling), stepSign(el.nextElementSibling)];
  return signs.includes('up') && signs.includes('down');
};
// An empty readout may have no height (an empty inline box): shown all the same when it is laid out.
const isShownEmpty = (el) => {
  if (!el.isConnected || !el.getClientRects().length) return false;
  const rect = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  return (rect.width > 0 || rect.height > 0) && style.display !== 'none' && style.visibility !== 'hidden';
};
// An empty readout (no height) shows as the gap between its two buttons: that is its box.
const emptyReadoutRect = (el) => {
  if (!isStepperReadout(el)) return null;
  const own = el.getBoundingClientRect();
  if (own.width > 0 && own.height > 0) return null;
  const a = el.previousElementSibling.getBoundingClientRect();
  const b = el.nextElementSibling.getBoundingClientRect();
  const left = Math.min(a.right, b.right);
  const right = Math.max(a.left, b.left, left + 1);
  const top = Math.min(a.top, b.top);
  const bottom = Math.max(a.bottom, b.bottom);
  return { left, top, right, bottom, width: right - left, height: bottom - top };
};
const isStepperButton = (el) => {
  const sign = stepSign(el);
  if (!sign) return false;
  return [el.previousElementSibling, el.nextElementSibling].some((s) => s && isStepperReadout(s));
};
// An overflow menu, or the box that holds one beside its control: never an element of its own
// (a hovered wrapper would otherwise be "clickable", named by every item of the menu).
const holdsOverflowMenu = (el) => isOverflowMenu(el) || Array.from(el.children).some((child) => isOverflowMenu(child));
const isOverflowItem = (el) => !!el.parentElement && isOverflowMenu(el.parentElement)
  && !el.querySelector('input, select, textarea') && !!collapse(el.textContent);
// Does a box hold a control (a repeated entry's test): an interactive element or an icon/overflow
// control named by its class words.
const holdsControl = (box) => {
  if (box.querySelector(INTERACTIVE)) return true;
  for (const el of box.querySelectorAll('*')) {
    if (iconWords(el).length > 0 || overflowWords(el).length > 0 || stepSign(el)) return true;
  }
  return false;
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

// Visible text, without aria-hidden parts (an icon glyph such as "×" is not a name), cut at
// `max` characters (0: not cut).
// A box drawn apart from the text beside it — a label chip before a mail's subject, a badge on
// a button (`display: inline-block`) — is a word of its own, even when the markup puts no space
// between them: innerText would glue "Travel" and "Stockholm trip" into "TravelStockholm trip".
const BOXED = new Set(['inline-block', 'inline-flex', 'inline-grid', 'inline-table']);
const BOX_SCAN_MAX = 200;  // descendants looked at; a larger subtree is read as innerText reads it
const holdsBoxedText = (el) => {
  const all = el.getElementsByTagName('*');
  if (!all.length || all.length > BOX_SCAN_MAX) return false;
  for (const node of all) {
    if (BOXED.has(getComputedStyle(node).display) && node.textContent.trim() && (node.previousSibling || node.nextSibling)) return true;
  }
  return false;
};
const textOf = (el, max = NAME_MAX) => {
  if (!el.querySelector('[aria-hidden="true"]') && !holdsBoxedText(el)) return collapse(el.innerText || el.textContent, max);
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === 3) { parts.push(node.textContent); return; }
    if (node.nodeType !== 1 || node.getAttribute('aria-hidden') === 'true') return;
    if (['script', 'style', 'template'].includes(node.tagName.toLowerCase())) return;
    if (!node.getClientRects().length && getComputedStyle(node).display === 'none') return;
    for (const child of node.childNodes) walk(child);
  };
  walk(el);
  return collapse(parts.join(' '), max);
};

const byIds = (el, attr) => {
  const ids = (el.getAttribute(attr) || '').trim().split(/\s+/).filter(Boolean);
  const root = el.getRootNode();
  return collapse(ids.map((id) => {
    const ref = root.getElementById ? root.getElementById(id) : document.getElementById(id);
    return ref ? ref.textContent : '';
  }).join(' '), NAME_MAX);
};

// `visible`: textOf(el), when the caller has it already.
const nameOf = (el, visible) => {
  const aria = collapse(el.getAttribute('aria-label'), NAME_MAX);
  if (aria) return aria;
  const labelledby = byIds(el, 'aria-labelledby');
  if (labelledby) return labelledby;
  if (isStepperReadout(el)) return 'quantity'; // its text is its value
  if (isFormControl(el)) {
    if (el.id) {
      const root = el.getRootNode();
      const forLabel = root.querySelector ? root.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
      if (forLabel) { const t = textWithout(forLabel, el); if (t) return t; }
    }
    const wrapping = el.closest('label');
    if (wrapping) { const t = textWithout(wrapping, el); if (t) return t; }
    // <label>Username</label><input>: a label right before the control that names no other one
    // (also when wrappers that hold nothing else came between them: <label>…</label><div><input></div>).
    let anchor = el;
    for (let depth = 0; depth < 3 && !anchor.previousElementSibling && anchor.parentElement && anchor.parentElement.children.length === 1; depth++) {
      anchor = anchor.parentElement;
    }
    const previous = anchor.previousElementSibling;
    if (previous && previous.tagName.toLowerCase() === 'label' && !previous.htmlFor && !previous.querySelector('input,select,textarea')) {
      const t = textWithout(previous, el);
      if (t) return t;
    }
    // <div class="form-label">Mobile number</div><input>: a label written without <label> — a
    // short text that opens the control's own group (the group's only field) names it.
    const group = anchor.parentElement;
    if (previous && group && previous === group.firstElementChild && !previous.matches(INTERACTIVE) && !previous.querySelector(INTERACTIVE)
        && group.querySelectorAll('input:not([type="hidden"]),select,textarea').length === 1) {
      const t = collapse(previous.textContent, NAME_MAX);
      if (t && t.length <= GROUP_LABEL_MAX && t.split(' ').length <= 8) return t;
    }
    // The placeholder last: a label a person reads above the field names it before its hint
    // ("Last name" over "As on the booking"); the hint is sent apart (`ph`).
    const placeholder = collapse(el.getAttribute('placeholder'), NAME_MAX);
    if (placeholder) return placeholder;
  }
  const tag = el.tagName.toLowerCase();
  if (tag !== 'select' && tag !== 'textarea' && !(tag === 'input' && !BUTTON_TYPES.has((el.type || '').toLowerCase()))) {
    const text = visible === undefined ? textOf(el) : visible;
    if (text) return text;
  }
  const title = collapse(el.getAttribute('title'), NAME_MAX);
  if (title) return title;
  const alt = el.getAttribute('alt') || (el.querySelector && el.querySelector('img[alt]') ? el.querySelector('img[alt]').getAttribute('alt') : '');
  if (collapse(alt)) return collapse(alt, NAME_MAX);
  if (tag === 'input' && BUTTON_TYPES.has((el.type || '').toLowerCase())) {
    return collapse(el.value || (el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : ''), NAME_MAX);
  }
  return iconWords(el).join(' ');
};

const valueOf = (el, role) => {
  const tag = el.tagName.toLowerCase();
  if (tag === 'select') {
    return collapse(Array.from(el.selectedOptions || []).map((o) => o.label || o.text).join(', '), VALUE_MAX);
  }
  // A field's value is sent as it is (spacing is part of it), cut at FIELD_VALUE_MAX with "…".
  if (tag === 'textarea') return clip(el.value, FIELD_VALUE_MAX);
  if (tag === 'input') {
    const type = (el.type || 'text').toLowerCase();
    if (BUTTON_TYPES.has(type) || type === 'checkbox' || type === 'radio') return undefined;
    // A password is sent only when the agent typed it (the server chose it); otherwise masked.
    if (type === 'password') return typed.has(el) ? collapse(el.value, VALUE_MAX) : '•'.repeat(Math.min(el.value.length, 32));
    if (type === 'file') return collapse(Array.from(el.files || []).map((f) => f.name).join(', '), VALUE_MAX);
    return clip(el.value, FIELD_VALUE_MAX);
  }
  if (el.isContentEditable && role === 'inp') return clip(el.innerText, FIELD_VALUE_MAX);
  if (role === 'spinbutton' && isStepperReadout(el)) return collapse(el.textContent) || '0';
  if (role === 'inp' || role === 'slider' || role === 'spinbutton') {
    const now = el.getAttribute('aria-valuenow') || el.getAttribute('aria-valuetext');
    if (now !== null) return collapse(now, VALUE_MAX);
    if (role === 'slider') return sliderReadout(el);
  }
  return undefined;
};

// The V3 `ty` key: the kind of field, as the server reads it (tag + input type). Only fields.
const fieldType = (el) => {
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea') return 'textarea';
  if (tag === 'select') return el.multiple ? 'select-multiple' : 'select';
  if (tag === 'input') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    // The browser's own reading: an unknown type ("input") is a text box.
    return el.type || type || 'text';
  }
  if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'contenteditable';
  return undefined;
};

// The V3 `fn` key: a form control's name attribute — what the form submits it as. A label can
// be reworded or moved; this identity stays (the server checks it before replaying memory).
const NAMED_CONTROLS = new Set(['input', 'select', 'textarea', 'button']);
const controlName = (el) => {
  if (!NAMED_CONTROLS.has(el.tagName.toLowerCase())) return undefined;
  const name = (el.getAttribute('name') || '').trim();
  return name ? name.slice(0, 100) : undefined;
};

const isScrollBox = (el) => el.scrollHeight > el.clientHeight + 2 && /(auto|scroll)/.test(getComputedStyle(el).overflowY);

// A control that shows a part of this page: a plain tab's in-page link (href="#panel-2"), or
// aria-controls naming the part. Where aria-expanded does not say, it reads as collapsed when
// that part is hidden, and as expanded when it shows while a sibling control's part is hidden
// (the tab now open among plain tabs; a lone "#top" link is neither).
const shownParts = (el) => {
  const ids = (el.getAttribute('aria-controls') || '').split(/\s+/).filter(Boolean);
  const href = el.tagName.toLowerCase() === 'a' ? (el.getAttribute('href') || '') : '';
  if (href.length > 1 && href.startsWith('#')) ids.push(href.slice(1));
  const parts = ids.map((id) => document.getElementById(id)).filter(Boolean);
  if (!parts.length) return null;
  return parts.every((part) => !isVisible(part)) ? 'hidden' : 'shown';
};
const revealState = (el) => {
  const own = shownParts(el);
  if (own !== 'shown') return own === 'hidden' ? 'collapsed' : null;
  const group = el.closest('ul, ol, nav, [role=tablist]');
  const siblings = group ? [...group.querySelectorAll('a[href^="#"], [aria-controls]')].filter((o) => o !== el) : [];
  return siblings.some((other) => shownParts(other) === 'hidden') ? 'expanded' : null;
};

const statesOf = (el) => {
  const out = [];
  const aria = (name) => el.getAttribute(name) === 'true';
  if (el.matches(':disabled') || aria('aria-disabled')) out.push('disabled');
  if (el.checked === true || aria('aria-checked') || aria('aria-pressed')) out.push('checked');
  // An icon control with no ARIA state of its own that says it is on with a class word.
  else if (!el.hasAttribute('aria-pressed') && !el.hasAttribute('aria-checked') && iconWords(el).length
    && classWords(el).some((word) => ICON_ON_WORDS.has(word))) out.push('checked');
  const isSummary = el.tagName.toLowerCase() === 'summary' && el.parentElement && el.parentElement.tagName.toLowerCase() === 'details';
  if (aria('aria-expanded') || (isSummary && el.parentElement.open)) out.push('expanded');
  else if (el.getAttribute('aria-expanded') === 'false' || (isSummary && !el.parentElement.open)) out.push('collapsed');
  else if (!el.hasAttribute('aria-expanded') && !isSummary && revealState(el)) out.push(revealState(el));
  if (aria('aria-selected') || (el.tagName.toLowerCase() === 'option' && el.selected)) out.push('selected');
  if (el.required === true || aria('aria-required')) out.push('required');
  if (el.readOnly === true || aria('aria-readonly')) out.push('readonly');
  const popup = (el.getAttribute('aria-haspopup') || '').toLowerCase();
  if (popup && popup !== 'false') out.push('haspopup');
  if (el === document.activeElement && el !== document.body) out.push('focused');
  // Where a box that scrolls its own content (a long textarea, a list) is scrolled to.
  if (isScrollBox(el)) {
    if (el.scrollTop <= 1) out.push('scrolled-top');
    else if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2) out.push('scrolled-bottom');
  }
  return out;
};

// Fragment of the in-page script (the containers an element sits in); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

// ---- containers: the row, list item, card, dialog, section or form around an element ----
// The V3 `ctx` key: nearest first, at most CONTAINER_MAX entries "<kind>: <text>". The rules are
// the server's (verification/html_containers.py), so both extractions of a page agree:
//   row (tr, [role=row]): the texts of its cells (child elements), the element's own text taken
//     out of its cell, joined with " · ";
//   item (li, [role=listitem], or a clickable box with a sibling of the same class — a plain-div list
//     entry; V3 only: the server cannot see the pointer cursor), card (article, [role=article], a class
//     word ending in "card"/"Card"):
//     its heading, else its text without the element's own text;
//   dialog (dialog, [role=dialog], [role=alertdialog]): aria-label, aria-labelledby or heading;
//   section (section, [role=region], fieldset): aria-label, aria-labelledby, legend or heading;
//   form: aria-label, aria-labelledby, heading or legend.
// A container's heading is the first one inside it whose nearest container it is. A container
// without identifying text is skipped, except a dialog ("dialog:"); repeated entries are dropped.
// Every container is read once per extraction (containerReader caches).
const CONTAINER_MAX = 3;
const CONTAINER_TEXT_MAX = 120;
const CONTAINER_WINDOW = 400; // characters of a cell / item / card text kept to cut from
const CHAIN_MAX = 6;
const CONTAINER_TAGS = new Map([
  ['tr', 'row'], ['li', 'item'], ['article', 'card'], ['dialog', 'dialog'], ['section', 'section'],
  ['fieldset', 'section'], ['form', 'form'],
]);
const CONTAINER_ROLES = new Map([
  ['row', 'row'], ['listitem', 'item'], ['article', 'card'], ['dialog', 'dialog'],
  ['alertdialog', 'dialog'], ['region', 'section'], ['form', 'form'],
]);
const HEADINGS = 'h1,h2,h3,h4,h5,h6,[role="heading"]';
const SEPARATOR = ' · ';

const containerKind = (el) => {
  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  if (CONTAINER_ROLES.has(role)) return CONTAINER_ROLES.get(role);
  if (role !== 'presentation' && role !== 'none') {
    const kind = CONTAINER_TAGS.get(el.tagName.toLowerCase());
    if (kind) return kind;
  }
  const classes = el.getAttribute('class') || '';
  if ((classes.includes('card') || classes.includes('Card'))
    && classes.split(/\s+/).some((word) => word.endsWith('card') || word.endsWith('Card'))) return 'card';
  if (classes.trim() && isRepeatedEntry(el, classes)) return 'item';
  return '';
};

// An entry of a list made of plain boxes (an inbox of <div class="email-thread">, a feed of
// <div class="media"> posts): a box with a sibling of the same tag and class that is one too —
// both clickable (pointer cursor; V3 only), or both holding text and a control (an interactive
// element, or an icon / overflow control named by class words — the server's rule too,
// verification/html_repeated.py).
// The class list that makes boxes twins: without the words that only say a state ("selected").
const entryClass = (classes) => classes.split(/\s+/).filter((w) => w && !ICON_ON_WORDS.has(w.toLowerCase())).sort().join(' ');
// A <div> / <span> that adds nothing around one element (no class, role or text of its own: an
// animation or layout wrapper around one entry) is looked through (html_repeated._bare_wrapper).
const isBareWrapper = (node) => ['DIV', 'SPAN'].includes(node.tagName) && node.childElementCount === 1
  && !(node.getAttribute('class') || '').trim() && !node.hasAttribute('role')
  && !Array.from(node.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
const unwrapped = (node) => { while (isBareWrapper(node)) node = node.firstElementChild; return node; };
const repeatedEntries = new Map(); // element -> is such an entry (cleared by each extract)
const isRepeatedEntry = (el, classes) => {
  if (repeatedEntries.has(el)) return repeatedEntries.get(el);
  let parent = el.parentElement;
  while (parent && parent.parentElement && isBareWrapper(parent)) parent = parent.parentElement;
  let found = false;
  if (parent && el.firstElementChild && !['ul', 'ol', 'table', 'tbody', 'tr', 'body', 'html'].includes(el.tagName.toLowerCase())) {
    const key = entryClass(classes);
    const twins = Array.from(parent.children).map(unwrapped).filter((other) => other !== el && other.tagName === el.tagName
      && entryClass(other.getAttribute('class') || '') === key);
    if (twins.length) {
      const pointer = (box) => getComputedStyle(box).cursor === 'pointer';
      const holding = (box) => !!collapse(box.textContent) && holdsControl(box);
      found = (pointer(el) && pointer(twins[0])) || (holding(el) && twins.some(holding));
    }
  }
  repeatedEntries.set(el, found);
  return found;
};

const entryOf = (kind, text) => (text ? `${kind}: ${text}` : (kind === 'dialog' ? 'dialog:' : null));
const cutText = (text) => (text.length <= CONTAINER_TEXT_MAX ? text : text.slice(0, CONTAINER_TEXT_MAX - 1).trimEnd() + '…');
const windowOf = (el) => textOf(el, 0).slice(0, CONTAINER_WINDOW);
// Does `own` occur where taking it out changes the first `limit` characters of `text`?
const showsIn = (text, own, limit) => text.slice(0, limit + own.length).includes(own.slice(0, CONTAINER_TEXT_MAX));

// `text` without the first occurrence of `own`: as whole words if it occurs so, else anywhere.
const withoutOwn = (text, own) => {
  let at = ` ${text} `.indexOf(` ${own} `);
  if (at < 0) {
    at = text.indexOf(own.slice(0, CONTAINER_TEXT_MAX));
    if (at < 0) return text;
  }
  return `${text.slice(0, at).trimEnd()} ${text.slice(at + own.length).trimStart()}`.trim();
};

const containerReader = () => {
  const chains = new Map(); // element -> the containers around it (itself included), nearest first
  const read = new Map(); // container -> its entry (string or null), or how to make it from the element's text

  const chainOf = (start) => {
    const path = [];
    let node = start;
    let found = [];
    while (node) {
      const known = chains.get(node);
      if (known) { found = known; break; }
      path.push(node);
      node = node.parentElement;
    }
    for (let i = path.length - 1; i >= 0; i -= 1) {
      const item = path[i];
      const kind = containerKind(item);
      if (kind) found = [item, ...found.slice(0, CHAIN_MAX - 1)];
      chains.set(item, found);
    }
    return found;
  };

  const owned = (container, selector) => {
    for (const candidate of container.querySelectorAll(selector)) {
      if (chainOf(candidate.parentElement)[0] === container) return candidate;
    }
    return null;
  };

  const fromText = (kind, text) => {
    const whole = entryOf(kind, cutText(text));
    return {
      entry: (el, own) => {
        if (own === text) return entryOf(kind, ''); // a list item that is just a link
        if (!showsIn(text, own, CONTAINER_TEXT_MAX)) return whole;
        return entryOf(kind, cutText(withoutOwn(text, own)));
      },
      whole,
    };
  };

  const fromCells = (row, cells) => {
    const offsets = new Map();
    let offset = 0;
    for (const [cell, text] of cells) {
      offsets.set(cell, [offset, text]);
      if (text) offset += text.length + SEPARATOR.length;
    }
    const joined = cells.map(([, text]) => text).filter(Boolean).join(SEPARATOR);
    const whole = entryOf('row', cutText(joined));
    return {
      entry: (el, own) => {
        if (!showsIn(joined, own, CONTAINER_TEXT_MAX)) return whole;
        let cell = el;
        while (cell.parentElement && cell.parentElement !== row) cell = cell.parentElement;
        const [at, text] = offsets.get(cell) || [CONTAINER_TEXT_MAX, ''];
        if (at >= CONTAINER_TEXT_MAX || !text.includes(own)) return whole;
        const before = joined.slice(0, at);
        const after = joined.slice(at + text.length);
        const rest = withoutOwn(text, own);
        if (rest) return entryOf('row', cutText(before + rest + after));
        if (before) return entryOf('row', cutText(before.slice(0, -SEPARATOR.length) + after));
        return entryOf('row', cutText(after.slice(SEPARATOR.length)));
      },
      whole,
    };
  };

  const describe = (container) => {
    const kind = containerKind(container);
    if (kind === 'row') {
      const cells = Array.from(container.children, (cell) => [cell, windowOf(cell)]);
      return cells.length ? fromCells(container, cells) : fromText(kind, windowOf(container));
    }
    const heading = owned(container, HEADINGS);
    let name = heading ? textOf(heading) : '';
    if (kind === 'item' || kind === 'card') return name ? entryOf(kind, name) : fromText(kind, windowOf(container));
    let label = collapse(container.getAttribute('aria-label'), CONTAINER_TEXT_MAX) || byIds(container, 'aria-labelledby');
    if (!label && container.tagName.toLowerCase() === 'fieldset') {
      const legend = container.querySelector(':scope > legend');
      if (legend) label = textOf(legend);
    }
    if (!label && !name && kind === 'form') {
      const legend = owned(container, 'legend');
      if (legend) name = textOf(legend);
    }
    return entryOf(kind, label || name);
  };

  // The entries for `el`; `ownText()` gives its own text (called only when it matters).
  const of = (el, ownText) => {
    const out = [];
    let own;
    for (const container of chainOf(el.parentElement)) {
      if (!read.has(container)) read.set(container, describe(container));
      let entry = read.get(container);
      if (entry && typeof entry !== 'string') {
        if (own === undefined) own = ownText();
        entry = own ? entry.entry(el, own) : entry.whole;
      }
      if (entry && !out.includes(entry)) {
        out.push(entry);
        if (out.length === CONTAINER_MAX) break;
      }
    }
    return out;
  };
  return { of };
};

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

// Fragment of the in-page script (the chain guards' reading of elements); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

// ---- what an element is now, for the guards of an action chain (docs/client.md "Chain guards") ----
// The same readings as the V3 tree: role (roleOf, as its full ARIA name), name (nameOf = `n`),
// value (valueOf = `v`), perceivable (isPerceivable), covered (isOccluded = `occ`).
// V3 role codes and their ARIA names (verification.elements.ROLE_ALIASES); any other code is one already.
const ARIA_ROLES = { btn: 'button', inp: 'textbox', chk: 'checkbox', sel: 'combobox', opt: 'option',
  a: 'link', mi: 'menuitem', sw: 'switch', num: 'spinbutton', img: 'image' };
const ariaRole = (code) => ARIA_ROLES[code] || code;

const offScreen = (rect) => rect.bottom < 0 || rect.right < 0 || rect.top > window.innerHeight || rect.left > window.innerWidth;

const inspectOne = (id, modal, reveal) => {
  const el = find(id);
  if (!el) return { exists: false };
  const code = roleOf(el);
  const perceivable = isPerceivable(el) || (isStepperReadout(el) && isShownEmpty(el));
  // The element the next action acts on is brought into view first (the action would scroll
  // to it too): whether something covers it can only be seen on screen.
  if (reveal && perceivable && offScreen(el.getBoundingClientRect())) el.scrollIntoView({ block: 'center', inline: 'nearest' });
  const rect = emptyReadoutRect(el) || el.getBoundingClientRect();
  const out = {
    exists: true,
    role: ariaRole(code),
    name: nameOf(el),
    perceivable,
    covered: perceivable && isOccluded(el, rect, modal),
  };
  const value = valueOf(el, code);
  if (value !== undefined) out.value = value;
  const ty = fieldType(el);
  if (ty !== undefined) out.ty = ty;
  // A select: every selected option, by value and by text (a select() names either).
  if (el.tagName.toLowerCase() === 'select') {
    out.selected = Array.from(el.selectedOptions || []).map((o) => ({ value: o.value, text: collapse(o.label || o.text) }));
  }
  if (['chk', 'radio', 'switch'].includes(code)) out.checked = statesOf(el).includes('checked');
  // A custom list box shows its choice as its text.
  if (value === undefined && !isFormControl(el)) out.text = textOf(el);
  return out;
};

// `ids`: the element ids of one frame; `reveal`: the one the next action targets (or null).
const inspect = (ids, reveal) => {
  suggestionLists.clear();
  repeatedEntries.clear();
  overflowMenus.clear();
  const modal = openModal();
  const out = {};
  for (const id of ids) out[id] = inspectOne(id, modal, id === reveal);
  return out;
};

// Fragment of the in-page script (what the client calls); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

window.__stepwise = { version: VERSION, arm, witness, quietMs, extract, find, inspect, isVisible, markTyped,
  roleOf, valueOf: (el) => valueOf(el, roleOf(el)) };;
})();
