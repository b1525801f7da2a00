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
