// Fragment of the in-page script (what the client calls); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

window.__stepwise = { version: VERSION, arm, witness, quietMs, extract, find, inspect, isVisible, markTyped,
  roleOf, valueOf: (el) => valueOf(el, roleOf(el)) };;
