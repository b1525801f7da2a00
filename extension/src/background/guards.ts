// The guards of an action chain (docs/client.md "Chain guards"; client/chain_guards.py): the
// page is read with the page script's `inspect` in the target's frame; the checks are the same,
// with the same failure kinds.
import type { FailureKind } from '../api/types';

export interface Expect { role?: string | null; name?: string | null }

export interface Reading {
  exists: boolean;
  role?: string;
  name?: string;
  perceivable?: boolean;
  covered?: boolean;
  value?: string;
  ty?: string;
  selected?: Array<{ value: string; text: string }>;
  checked?: boolean;
  text?: string;
}

export interface GuardFailure { kind: FailureKind; message: string }

export const MISSING: Reading = { exists: false };
const FIELD_VALUE_MAX = 2000;
const UNCHECKED = new Set(['', 'false', '0', 'off', 'no', 'unchecked']);
// verification.elements.ROLE_ALIASES: V3 codes and synonyms -> ARIA roles
const ROLE_ALIASES: Record<string, string> = {
  btn: 'button', inp: 'textbox', input: 'textbox', txt: 'textbox', text: 'textbox', textarea: 'textbox', ta: 'textbox',
  chk: 'checkbox', cb: 'checkbox', sel: 'combobox', select: 'combobox', a: 'link', lnk: 'link', opt: 'option',
  mi: 'menuitem', menu_item: 'menuitem', sw: 'switch', toggle: 'switch', search: 'searchbox', num: 'spinbutton',
  number: 'spinbutton', img: 'image',
};

export const normalizeRole = (role: string): string => {
  const key = role.trim().toLowerCase();
  return (ROLE_ALIASES[key] ?? key) || 'generic';
};
export const folded = (text: string): string => text.split(/\s+/).filter(Boolean).join(' ').toLowerCase();
const describe = (r: Reading): string => `${normalizeRole(r.role ?? '')} ${JSON.stringify(r.name ?? '')}`;
const describeExpect = (e: Expect): string => `${e.role ? normalizeRole(e.role) : 'element'} ${JSON.stringify(e.name ?? '')}`;

/** URLs compare without their fragment. */
export function samePage(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

function shown(r: Reading): string {
  if (r.selected && r.selected.length) return r.selected.map((o) => o.text || o.value).join(' / ');
  if (r.checked !== undefined && r.value === undefined) return r.checked ? 'checked' : 'unchecked';
  const held = r.value ?? r.text;
  return held !== undefined ? JSON.stringify(held) : 'no readable value';
}

/** Does the element hold `wanted` (client/chain_guards.py `holds`)? */
export function holds(r: Reading, wanted: string): boolean {
  const want = wanted.trim();
  if (r.selected && r.selected.length) {
    return r.selected.some((o) => o.value.trim() === want || folded(o.text) === folded(want));
  }
  if (r.checked !== undefined && r.value === undefined) return r.checked === !UNCHECKED.has(want.toLowerCase());
  const raw = r.value ?? r.text;
  if (raw === undefined) return false;
  const held = raw.trim();
  if (held === want) return true;
  if (held.length === FIELD_VALUE_MAX && held.endsWith('…') && want.startsWith(held.slice(0, -1))) return true;
  const numeric = r.ty === 'number' || r.ty === 'range' || ['slider', 'spinbutton'].includes(normalizeRole(r.role ?? ''));
  if (numeric) {
    const a = Number(want.replace(/,/g, ''));
    const b = Number(held.replace(/,/g, ''));
    return Number.isFinite(a) && Number.isFinite(b) && a === b;
  }
  return false;
}

/** Guard 1 on the target (the URL is checked by the caller). */
export function checkTarget(id: string, r: Reading, expect: Expect | null | undefined): GuardFailure | null {
  if (!r.exists) return { kind: 'target_missing', message: `target missing: no element ${JSON.stringify(id)} on the page` };
  if (!r.perceivable) return { kind: 'target_missing', message: `target missing: element ${JSON.stringify(id)} (${describe(r)}) is not shown` };
  if (r.covered) return { kind: 'covered', message: `target covered: ${describe(r)} is under another element` };
  if (!expect) return null;
  const roleChanged = !!expect.role && normalizeRole(expect.role) !== normalizeRole(r.role ?? '');
  const nameChanged = !!folded(expect.name ?? '') && folded(expect.name ?? '') !== folded(r.name ?? '');
  if (roleChanged || nameChanged) {
    return { kind: 'target_changed', message: `target changed: expected ${describeExpect(expect)}, found ${describe(r)}` };
  }
  return null;
}

/** Guard 2: every listed field still holds its value. */
export function checkRequired(required: Array<[string, string]>, readings: Record<string, Reading>): GuardFailure | null {
  for (const [id, wanted] of required) {
    const r = readings[id] ?? MISSING;
    if (!r.exists) return { kind: 'required_value_mismatch', message: `required value lost: no element ${JSON.stringify(id)} on the page` };
    if (!holds(r, wanted)) {
      return { kind: 'required_value_mismatch', message: `required value lost: ${describe(r)} should hold ${JSON.stringify(wanted)}, it holds ${shown(r)}` };
    }
  }
  return null;
}

/** Guard 4: the field took what was typed or selected. */
export function checkReadback(id: string, r: Reading, wanted: string): GuardFailure | null {
  if (!r.exists) return { kind: 'value_mismatch', message: `value not kept: element ${JSON.stringify(id)} left the page after the input` };
  if (!holds(r, wanted)) return { kind: 'value_mismatch', message: `value not kept: ${describe(r)} holds ${shown(r)}, not ${JSON.stringify(wanted)}` };
  return null;
}
