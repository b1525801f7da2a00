// The main-world dialog hook (injected with chrome.scripting.executeScript, `world: "MAIN"`,
// as a function — never a string). A content script lives in an isolated world and cannot see
// the page's window.confirm/alert/prompt; these two functions run in the page's own world, for
// the duration of one action: `installDialogHook` replaces the three with answers given the
// safe way (confirm -> false unless this action was told to accept, then true once; prompt ->
// null; alert -> undefined, i.e. OK) and records `{kind, message (clipped), answered}`;
// `takeDialogHook` gives the records back and restores the originals.
//
// Each function is serialized on its own by chrome.scripting: it must reference NOTHING outside
// its own body (no imports, no module constants). The records live on the page's window under
// a per-action random key: the page can read or forge them, so what comes back is page data —
// the worker validates and clips it (dialogs.ts), and its only effect is the `nativeDialogs`
// report, which the server treats as untrusted data anyway (a page that forges a record could
// as well have called confirm() itself).

/** What the hook keeps on the page's window under its key. */
export interface HookStore {
  records: Array<{ kind: string; message: string; answered: string }>;
  originals: { confirm: unknown; alert: unknown; prompt: unknown };
  wrappers: { confirm: unknown; alert: unknown; prompt: unknown };
  accept: boolean;
  dropped: number;
}

/** Install the hook in this frame's main world; false when one with this key is already there. */
export function installDialogHook(key: string, accept: boolean, chars: number, max: number): boolean {
  const w = globalThis as unknown as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(w, key)) return false;
  const store = {
    records: [] as Array<{ kind: string; message: string; answered: string }>,
    originals: { confirm: w.confirm, alert: w.alert, prompt: w.prompt },
    wrappers: { confirm: undefined as unknown, alert: undefined as unknown, prompt: undefined as unknown },
    accept,
    dropped: 0,
  };
  const text = (message: unknown): string => {
    let raw = '';
    try {
      raw = message === undefined ? '' : String(message);
    } catch {
      raw = ''; // a toString that throws: no words to report
    }
    return raw.split(/\s+/).filter(Boolean).join(' ').slice(0, chars);
  };
  const record = (kind: string, message: unknown, answered: string): void => {
    if (store.records.length < max) store.records[store.records.length] = { kind, message: text(message), answered };
    else store.dropped += 1;
  };
  const confirm = function confirm(message?: unknown): boolean {
    const yes = store.accept;
    store.accept = false; // accepted once, for the action that was told to accept
    record('confirm', message, yes ? 'accepted' : 'dismissed');
    return yes;
  };
  const alert = function alert(message?: unknown): void {
    record('alert', message, 'accepted');
  };
  const prompt = function prompt(message?: unknown): null {
    record('prompt', message, 'dismissed');
    return null;
  };
  store.wrappers = { confirm, alert, prompt };
  Object.defineProperty(w, key, { value: store, configurable: true, enumerable: false, writable: false });
  w.confirm = confirm;
  w.alert = alert;
  w.prompt = prompt;
  return true;
}

/** The records of the hook under `key` in this frame (null: none there), and the originals restored. */
export function takeDialogHook(key: string): unknown {
  const w = globalThis as unknown as Record<string, unknown>;
  if (!Object.prototype.hasOwnProperty.call(w, key)) return null;
  const store = w[key] as HookStore | undefined;
  try {
    delete w[key];
  } catch {
    // not configurable any more: the page changed it; the records are read anyway
  }
  if (!store || typeof store !== 'object') return null;
  for (const name of ['confirm', 'alert', 'prompt'] as const) {
    // restore only what is still ours: a page that replaced it meanwhile keeps its own
    if (store.wrappers && w[name] === store.wrappers[name]) w[name] = store.originals[name];
  }
  return { records: store.records, dropped: store.dropped };
}
