// One action of the grammar on this frame's page, by data-llm-id (what client/actions.py does
// with Playwright, done with DOM calls and synthetic events). navigate/goBack/wait are the
// worker's (tab calls); finish/fail do nothing on the page.
import type { Action } from '../shared/actions';
import { clickEvents, fire, focusOn, hoverEvents, keyEvent, keyName, moveFocus, nativeSet } from './events';
import { ActionError, pageApi } from './page';
import { SET_AS_VALUE, sameValue, shaped } from './values';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const ACTIONABLE_WAIT_MS = 1500;
const UNCHECKED = new Set(['', 'false', '0', 'off', 'no', 'unchecked']);

function locate(id: string | null | undefined): Element {
  if (!id) throw new ActionError('the action names no element', 'BAD_ACTION');
  const el = pageApi().find(id);
  if (!el) throw new ActionError(`no element with id ${JSON.stringify(id)} on the page`, 'ELEMENT_NOT_FOUND');
  return el;
}

const describe = (el: Element): string => {
  let out = el.tagName.toLowerCase();
  if (el.id) out += '#' + el.id;
  const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/)[0] : '';
  if (cls) out += '.' + cls;
  return out;
};

const isDisabled = (el: Element): boolean =>
  (el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true' || !!el.closest('fieldset:disabled');

/** Why the element cannot be acted on now (null: it can): hidden, disabled, covered. */
function refusal(el: Element, needsEnabled: boolean): string | null {
  if (!el.isConnected) return 'the element left the page';
  if (!pageApi().isVisible(el)) return 'the element is not visible';
  if (needsEnabled && isDisabled(el)) return 'the element is disabled';
  const rect = el.getBoundingClientRect();
  if (rect.bottom < 0 || rect.top > window.innerHeight || rect.right < 0 || rect.left > window.innerWidth) {
    el.scrollIntoView({ block: 'center', inline: 'nearest' });
  }
  const box = el.getBoundingClientRect();
  const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
  const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
  const root = el.getRootNode();
  const hit = (root instanceof ShadowRoot ? root : document).elementFromPoint(x, y);
  if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return null;
  const labels = (el as HTMLInputElement).labels;
  if (labels && Array.from(labels).some((label) => label === hit || label.contains(hit))) return null;
  if (hit.closest('label') && (hit.closest('label') as HTMLLabelElement).control === el) return null;
  return `the element is covered by another element (${describe(hit)})`;
}

/** Wait briefly for the element to become actionable, as Playwright does, then refuse with why. */
async function actionable(el: Element, what: string, needsEnabled = true): Promise<void> {
  const until = performance.now() + ACTIONABLE_WAIT_MS;
  let why = refusal(el, needsEnabled);
  while (why && performance.now() < until) {
    await sleep(100);
    why = refusal(el, needsEnabled);
  }
  if (why) throw new ActionError(`${what} failed: ${why}`, why.includes('covered') ? 'COVERED' : 'NOT_ACTIONABLE');
}

async function click(el: Element): Promise<void> {
  await actionable(el, 'click');
  clickEvents(el);
}

async function hover(el: Element): Promise<void> {
  await actionable(el, 'hover', false);
  hoverEvents(el);
}

function chooseOption(select: HTMLSelectElement, wanted: string, add: boolean): void {
  const options = Array.from(select.options);
  const label = (o: HTMLOptionElement): string => (o.label || o.text).trim();
  const want = wanted.trim();
  let index = options.findIndex((o) => label(o) === want);
  if (index < 0) index = options.findIndex((o) => o.value === want);
  if (index < 0) index = options.findIndex((o) => label(o).toLowerCase() === want.toLowerCase());
  if (index < 0) {
    const listed = options.slice(0, 10).map((o) => JSON.stringify(label(o))).join(', ');
    throw new ActionError(`no option ${JSON.stringify(wanted)} in this list (options: ${listed})`, 'NOT_ACTIONABLE');
  }
  focusOn(select);
  if (select.multiple && add) options[index].selected = true;
  else if (select.multiple) options.forEach((o, i) => { o.selected = i === index; });
  else nativeSet(select, options[index].value);
  if (!select.multiple) select.selectedIndex = index;
  fire(select, 'input');
  fire(select, 'change');
}

async function setValue(el: Element, text: string): Promise<void> {
  if (el instanceof HTMLSelectElement) {
    await actionable(el, 'setValue');
    chooseOption(el, text, false);
    return;
  }
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
    const want = !UNCHECKED.has(text.trim().toLowerCase());
    if (el.checked !== want) await click(el);
    if (el.checked !== want) throw new ActionError(`setValue: the ${el.type} did not become ${want ? 'checked' : 'unchecked'}`);
    return;
  }
  if (!(el instanceof HTMLInputElement) && pageApi().roleOf(el) === 'slider') {
    await driveSlider(el, text);
    return;
  }
  await actionable(el, 'setValue');
  if ((el as HTMLInputElement).readOnly) throw new ActionError('setValue failed: the element is not editable', 'NOT_ACTIONABLE');
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    const type = el instanceof HTMLInputElement ? el.type.toLowerCase() : 'textarea';
    const value = el instanceof HTMLInputElement ? shaped(type, text) : text;
    focusOn(el);
    nativeSet(el, value);
    fire(el, 'input');
    if (SET_AS_VALUE.has(type) && !sameValue(type, value, el.value)) {
      throw new ActionError(`setValue: the ${type} field did not take ${JSON.stringify(value)} (it holds ${JSON.stringify(el.value)})`);
    }
    fire(el, 'change');
  } else if ((el as HTMLElement).isContentEditable) {
    focusOn(el);
    const selection = window.getSelection();
    const range = document.createRange();
    range.selectNodeContents(el);
    selection?.removeAllRanges();
    selection?.addRange(range);
    if (!document.execCommand('insertText', false, text)) {
      el.textContent = text;
      fire(el, 'input');
    }
  } else {
    throw new ActionError('setValue failed: the element does not take text', 'NOT_ACTIONABLE');
  }
  pageApi().markTyped(el);
}

/** An ARIA slider: its arrow keys, reading the value it shows after each (client/actions.py). */
async function driveSlider(el: Element, text: string): Promise<void> {
  const target = Number(text.trim());
  if (!Number.isFinite(target)) throw new ActionError(`setValue: ${JSON.stringify(text)} is not a number a slider can take`);
  const current = (): number => {
    const shown = pageApi().valueOf(el);
    const number = shown === undefined ? NaN : Number(String(shown).replace(/[^0-9.+-]/g, ''));
    if (!Number.isFinite(number)) throw new ActionError('setValue: the slider shows no number to steer by');
    return number;
  };
  focusOn(el);
  for (let presses = 0; presses < 1000; presses += 1) {
    const value = current();
    if (value === target) return;
    const key = value < target ? 'ArrowRight' : 'ArrowLeft';
    keyEvent(el, 'keydown', key);
    keyEvent(el, 'keyup', key);
    const moved = current();
    if (moved === value) throw new ActionError(`setValue: the slider stops at ${value}; it cannot reach ${JSON.stringify(text)}`);
    if ((value < target) !== (moved < target) && moved !== target) {
      throw new ActionError(`setValue: the slider steps over ${JSON.stringify(text)} (from ${value} to ${moved})`);
    }
  }
  throw new ActionError(`setValue: the slider did not reach ${JSON.stringify(text)}`);
}

async function select(el: Element, option: string): Promise<void> {
  if (el instanceof HTMLSelectElement) {
    await actionable(el, 'select');
    chooseOption(el, option, true);
    return;
  }
  // A custom list box: open it, then click the option with that text.
  await click(el);
  await sleep(150);
  const scope = el.getRootNode() as Document | ShadowRoot;
  const want = option.trim().toLowerCase();
  const options = Array.from(scope.querySelectorAll('[role="option"]')).filter((o) => pageApi().isVisible(o));
  const found = options.find((o) => (o.textContent || '').trim().toLowerCase() === want)
    ?? options.find((o) => (o.textContent || '').trim().toLowerCase().includes(want));
  if (!found) throw new ActionError(`no option ${JSON.stringify(option)} in this list`, 'NOT_ACTIONABLE');
  await click(found);
}

/** keydown, keypress, keyup — and what the browser would do that synthetic keys do not:
 *  Enter in a form field submits the form, Enter/Space on a button clicks it, Tab moves the focus,
 *  a printable key types itself. */
async function press(el: Element | null, text: string): Promise<void> {
  const key = keyName(text);
  const target = el ?? document.activeElement ?? document.body;
  if (el) {
    await actionable(el, 'press', false);
    focusOn(el);
  }
  const proceed = keyEvent(target, 'keydown', key);
  const printable = key.length === 1 || key === 'Enter';
  const pressed = proceed && printable ? keyEvent(target, 'keypress', key) : proceed;
  if (pressed) defaultAction(target, key);
  keyEvent(target, 'keyup', key);
}

function defaultAction(target: Element, key: string): void {
  const tag = target.tagName.toLowerCase();
  if (key === 'Enter') {
    if (target instanceof HTMLInputElement && target.form && !['button', 'submit', 'reset', 'checkbox', 'radio'].includes(target.type)) {
      const submitter = target.form.querySelector<HTMLElement>('button:not([type]), button[type="submit"], input[type="submit"]');
      target.form.requestSubmit(submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : undefined);
    } else if (tag === 'button' || tag === 'a' || target.getAttribute('role') === 'button' || target.getAttribute('role') === 'link') {
      (target as HTMLElement).click();
    }
  } else if (key === ' ' && (tag === 'button' || (target instanceof HTMLInputElement && ['checkbox', 'radio'].includes(target.type))
    || target.getAttribute('role') === 'button')) {
    (target as HTMLElement).click();
  } else if (key === 'Tab') {
    moveFocus(target === document.body ? null : target, false);
  } else if (key.length === 1 && (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) {
    const start = target.selectionStart ?? target.value.length;
    const end = target.selectionEnd ?? target.value.length;
    nativeSet(target, target.value.slice(0, start) + key + target.value.slice(end));
    fire(target, 'input');
  }
}

function scrollBy(box: Element | null, direction: string): boolean {
  const dx = ({ left: -0.8, right: 0.8 } as Record<string, number>)[direction] ?? 0;
  const dy = ({ up: -0.8, down: 0.8 } as Record<string, number>)[direction] ?? 0;
  if (!box) {
    const before = [window.scrollX, window.scrollY];
    if (direction === 'top') window.scrollTo(0, 0);
    else if (direction === 'bottom') window.scrollTo(0, document.documentElement.scrollHeight);
    else window.scrollBy(dx * window.innerWidth, dy * window.innerHeight);
    if (before[0] !== window.scrollX || before[1] !== window.scrollY) return true;
    let best: Element | null = null;
    let area = 0;
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const style = getComputedStyle(el);
      if (!/(auto|scroll)/.test(style.overflowY + style.overflowX)) continue;
      if (el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth) continue;
      if (el.clientWidth * el.clientHeight > area) { area = el.clientWidth * el.clientHeight; best = el; }
    }
    return best ? scrollBy(best, direction) : false;
  }
  const before = [box.scrollLeft, box.scrollTop];
  if (direction === 'top') box.scrollTop = 0;
  else if (direction === 'bottom') box.scrollTop = box.scrollHeight;
  else box.scrollBy(dx * box.clientWidth, dy * box.clientHeight);
  return before[0] !== box.scrollLeft || before[1] !== box.scrollTop;
}

/** Run one page action in this frame. Throws ActionError. */
export async function executeAction(action: Action): Promise<void> {
  switch (action.name) {
    case 'click': return click(locate(action.target));
    case 'hover': return hover(locate(action.target));
    case 'setValue': return setValue(locate(action.target), action.value ?? '');
    case 'select': return select(locate(action.target), action.value ?? '');
    case 'press': return press(action.target ? locate(action.target) : null, action.value ?? '');
    case 'scroll': {
      if (action.target && action.value) {
        if (!scrollBy(locate(action.target), action.value)) {
          throw new ActionError(`element ${action.target} has nothing to scroll ${action.value}`, 'NOT_ACTIONABLE');
        }
      } else if (action.target) {
        locate(action.target).scrollIntoView({ block: 'center', inline: 'nearest' });
      } else if (!scrollBy(null, action.value ?? 'down')) {
        throw new ActionError(`nothing to scroll ${action.value ?? 'down'} on this page`, 'NOT_ACTIONABLE');
      }
      return;
    }
    case 'finish': case 'fail': return;
    default:
      throw new ActionError(`the content script cannot execute ${action.name}()`, 'UNSUPPORTED');
  }
}
