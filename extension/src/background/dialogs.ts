// Native dialogs while an action runs (the extension's side of client/dialogs.py): before the
// action the main-world hook (hook.ts) is installed in every frame of the task's tab; after the
// action and its settle the records are taken back, the originals restored, and what they say —
// page data, validated and clipped here — becomes `clientObservations.nativeDialogs` of the next
// request, each with the grammar text of the action that raised it (the answer's own text).
import type { NativeDialog } from '../api/types';
import { installDialogHook, takeDialogHook } from './hook';

export const MESSAGE_CHARS = 300;
export const MAX_REPORTED = 10;
const KINDS = new Set(['confirm', 'alert', 'prompt', 'beforeunload']);
const ANSWERED = new Set(['dismissed', 'accepted']);

/** The hook of the action running now (kept in the task record: it outlives a worker restart). */
export interface HookRef {
  key: string;
  action: string;
}

/** Whether an answer's actionDetails tell the client to accept this action's confirm. */
export function acceptsDialog(details: unknown): boolean {
  return typeof details === 'object' && details !== null && (details as { dialog?: unknown }).dialog === 'accept';
}

/** The records one frame gave back, as the report's entries: only well-formed ones, clipped, at most MAX_REPORTED.
 *  `raw` is page data (the page can write anything where the hook keeps them). */
export function validate(raw: unknown, action: string, room = MAX_REPORTED): NativeDialog[] {
  const records = typeof raw === 'object' && raw !== null ? (raw as { records?: unknown }).records : null;
  if (!Array.isArray(records)) return [];
  const out: NativeDialog[] = [];
  for (const entry of records.slice(0, Math.max(0, room))) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { kind, message, answered } = entry as Record<string, unknown>;
    if (typeof kind !== 'string' || !KINDS.has(kind) || typeof answered !== 'string' || !ANSWERED.has(answered)) continue;
    const text = typeof message === 'string' ? message.split(/\s+/).filter(Boolean).join(' ').slice(0, MESSAGE_CHARS) : '';
    out.push({ kind: kind as NativeDialog['kind'], message: text, action, answered: answered as NativeDialog['answered'] });
  }
  return out;
}

/** Install the hook in every frame of the tab (main world) for one action; null when it could not be. */
export async function installHook(tabId: number, action: string, accept: boolean): Promise<HookRef | null> {
  const key = `__stepwise_dialogs_${crypto.randomUUID().replace(/-/g, '')}`;
  for (const target of [{ tabId, allFrames: true }, { tabId, frameIds: [0] }]) {
    try {
      await chrome.scripting.executeScript({ target, world: 'MAIN', func: installDialogHook, args: [key, accept, MESSAGE_CHARS, MAX_REPORTED] });
      return { key, action };
    } catch {
      // a frame that cannot be injected (a chrome:// error page…): the main frame alone, else no hook
    }
  }
  return null;
}

/** Take the hook's records back from every frame (restoring the originals); the report's entries. */
export async function takeHook(tabId: number, hook: HookRef, room = MAX_REPORTED): Promise<NativeDialog[]> {
  let results: Array<{ result?: unknown }> = [];
  try {
    results = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, world: 'MAIN', func: takeDialogHook, args: [hook.key] });
  } catch {
    try {
      results = await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: 'MAIN', func: takeDialogHook, args: [hook.key] });
    } catch {
      return []; // the tab is gone or cannot be scripted: nothing to report
    }
  }
  const out: NativeDialog[] = [];
  for (const frame of results) out.push(...validate(frame?.result, hook.action, room - out.length));
  return out;
}
