// Synthetic input events. They are isTrusted=false (an extension without chrome.debugger cannot
// make trusted ones): a page that checks isTrusted, or CSS :hover, does not see them as a person's.

const point = (el: Element): { clientX: number; clientY: number } => {
  const rect = el.getBoundingClientRect();
  return { clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
};

const mouse = (el: Element, type: string, extra: MouseEventInit = {}): boolean =>
  el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, composed: true, view: window, ...point(el), ...extra }));

const pointer = (el: Element, type: string): boolean =>
  el.dispatchEvent(new PointerEvent(type, { bubbles: true, cancelable: true, composed: true, view: window, pointerId: 1,
    pointerType: 'mouse', isPrimary: true, ...point(el) }));

/** What a mouse pass over the element fires (no CSS :hover: the pointer does not really move). */
export function hoverEvents(el: Element): void {
  pointer(el, 'pointerover');
  pointer(el, 'pointerenter');
  mouse(el, 'mouseover');
  mouse(el, 'mouseenter', { bubbles: false });
  pointer(el, 'pointermove');
  mouse(el, 'mousemove');
}

/** A click as a person's: hover, press, focus, release, click (the click runs default actions:
 *  a link navigates, a checkbox toggles, a submit button submits). */
export function clickEvents(el: Element): void {
  hoverEvents(el);
  pointer(el, 'pointerdown');
  const focusable = mouse(el, 'mousedown', { button: 0, buttons: 1, detail: 1 });
  if (focusable) focusOn(el);
  pointer(el, 'pointerup');
  mouse(el, 'mouseup', { button: 0, detail: 1 });
  if (el instanceof HTMLElement) el.click();
  else mouse(el, 'click', { button: 0, detail: 1 });
}

export function focusOn(el: Element): void {
  const target = (el instanceof HTMLElement ? el : null)?.closest('a[href], button, input, select, textarea, [tabindex], [contenteditable]') as HTMLElement | null;
  (target ?? (el as HTMLElement)).focus?.({ preventScroll: true });
}

const KEYS: Record<string, string> = {
  enter: 'Enter', return: 'Enter', tab: 'Tab', escape: 'Escape', esc: 'Escape', space: ' ', backspace: 'Backspace',
  delete: 'Delete', up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', home: 'Home', end: 'End', pageup: 'PageUp',
  pagedown: 'PageDown',
};
const CODES: Record<string, number> = { Enter: 13, Tab: 9, Escape: 27, ' ': 32, Backspace: 8, Delete: 46, ArrowUp: 38,
  ArrowDown: 40, ArrowLeft: 37, ArrowRight: 39, Home: 36, End: 35, PageUp: 33, PageDown: 34 };

export const keyName = (text: string): string => KEYS[text.toLowerCase()] ?? text;

export function keyEvent(el: Element, type: string, key: string): boolean {
  const code = key.length === 1 ? (key === ' ' ? 'Space' : `Key${key.toUpperCase()}`) : key;
  const keyCode = CODES[key] ?? (key.length === 1 ? key.toUpperCase().charCodeAt(0) : 0);
  const event = new KeyboardEvent(type, { key, code, bubbles: true, cancelable: true, composed: true, view: window });
  // keyCode/which are read-only in the constructor: old-style handlers read them.
  Object.defineProperty(event, 'keyCode', { get: () => keyCode });
  Object.defineProperty(event, 'which', { get: () => keyCode });
  return el.dispatchEvent(event);
}

export function fire(el: Element, type: 'input' | 'change'): void {
  const event = type === 'input'
    ? new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText' })
    : new Event('change', { bubbles: true });
  el.dispatchEvent(event);
}

/** Set a field's value with the prototype's native setter, so a framework that tracks the
 *  value (React) sees the change when the input event comes. */
export function nativeSet(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
    : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), '
  + 'textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** Tab / Shift+Tab: move the focus as the browser would (a synthetic Tab does not). */
export function moveFocus(from: Element | null, backwards: boolean): void {
  const all = Array.from(document.querySelectorAll<HTMLElement>(TABBABLE)).filter((el) => el.getClientRects().length > 0);
  if (!all.length) return;
  const index = from ? all.indexOf(from as HTMLElement) : -1;
  const next = backwards ? all[(index - 1 + all.length) % all.length] : all[(index + 1) % all.length];
  next.focus();
}
