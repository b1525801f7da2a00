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
