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
