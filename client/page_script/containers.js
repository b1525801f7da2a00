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
