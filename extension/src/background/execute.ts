// Executing an answer: one action, or a chain with its guards (client/chain.py). Page actions
// go to the content script of the target's frame; navigate/goBack/wait are tab calls here.
// A click whose message channel closes before the answer killed its own content script: the
// page navigated, and that is the click's success (didUrlChange comes from the tab URL).
import type { ChainAction, ChainPartialState, FailureKind } from '../api/types';
import { TERMINAL, actionOf, parseAction, type Action } from '../shared/actions';
import type { ExecuteResult } from '../shared/messages';
import type { Report, TaskState } from '../shared/state';
import { FrameGone, ask, frameOf, ready } from './frames';
import { type Expect, type Reading, MISSING, checkReadback, checkRequired, checkTarget, samePage } from './guards';
import { CHAIN_GAP, waitForStability } from './settle';

const EXECUTE_TIMEOUT_MS = 20_000;
const MAX_WAIT_S = 30;
const NAVIGATES = new Set(['click', 'press', 'select', 'setValue']);

export class ExecError extends Error {
  constructor(message: string, readonly code = 'ACTION_FAILED') {
    super(message);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function navigate(tabId: number, url: string): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ExecError(`navigate: refusing to open ${JSON.stringify(url)} (not a URL)`, 'BAD_ACTION');
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || !parsed.host) {
    throw new ExecError(`navigate: refusing to open ${JSON.stringify(url)} (only http(s) URLs with a host)`, 'BAD_ACTION');
  }
  await chrome.tabs.update(tabId, { url: parsed.href });
  await sleep(200);
  await ready(tabId);
}

/** Run one action on the tab; throws ExecError with the reason. */
export async function executeOne(state: TaskState, action: Action): Promise<void> {
  const tabId = state.tabId;
  switch (action.name) {
    case 'finish': case 'fail': return;
    case 'wait': {
      // counted from when the previous action finished (the settle and round trip took part of it)
      const seconds = Math.min(action.seconds ?? 1, MAX_WAIT_S);
      const elapsed = state.actedAt ? (Date.now() - state.actedAt) / 1000 : 0;
      await sleep(Math.max(0, seconds - elapsed) * 1000);
      return;
    }
    case 'navigate': {
      const tab = await chrome.tabs.get(tabId);
      return navigate(tabId, new URL(action.value ?? '', tab.url).href);
    }
    case 'googleSearch':
      return navigate(tabId, 'https://www.google.com/search?q=' + encodeURIComponent(action.value ?? ''));
    case 'goBack': {
      const before = (await chrome.tabs.get(tabId)).url;
      try {
        await chrome.tabs.goBack(tabId);
      } catch (error) {
        throw new ExecError(`goBack failed: ${error instanceof Error ? error.message : String(error)}`, 'NAVIGATION_FAILED');
      }
      await sleep(300);
      await ready(tabId);
      if ((await chrome.tabs.get(tabId)).url === before) throw new ExecError('goBack: there is no previous page in this tab', 'NAVIGATION_FAILED');
      return;
    }
    default: break;
  }
  const frameId = action.target ? frameOf(state, action.target) : 0;
  if (frameId === null) throw new ExecError(`element ${JSON.stringify(action.target)} is in a frame that is no longer on the page`, 'ELEMENT_NOT_FOUND');
  await ready(tabId);
  let result: ExecuteResult;
  try {
    result = await ask<ExecuteResult>(tabId, frameId, { type: 'execute', action }, EXECUTE_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof FrameGone && NAVIGATES.has(action.name)) return; // the page navigated under the action
    throw new ExecError(`${action.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!result.ok) throw new ExecError(result.error ?? `${action.name} failed`, result.code);
}

async function read(state: TaskState, ids: string[], reveal: string | null): Promise<Record<string, Reading>> {
  const byFrame = new Map<number, string[]>();
  const out: Record<string, Reading> = {};
  for (const id of new Set(ids)) {
    const frameId = frameOf(state, id);
    if (frameId === null) out[id] = MISSING;
    else byFrame.set(frameId, [...(byFrame.get(frameId) ?? []), id]);
  }
  for (const [frameId, frameIds] of byFrame) {
    let raw: Record<string, Reading> | null = null;
    try {
      raw = await ask<Record<string, Reading>>(state.tabId, frameId, { type: 'inspect', ids: frameIds, reveal });
    } catch {
      raw = null;
    }
    for (const id of frameIds) out[id] = raw?.[id] ?? MISSING;
  }
  return out;
}

export interface ChainOutcome {
  report: Report;
  terminal: string | null;
  executed: string[];
}

/** Run a chain in index order, guarded; stop at the first failed guard or error that may not fail. */
export async function runChain(state: TaskState, items: ChainAction[]): Promise<ChainOutcome> {
  const ordered = [...items].sort((a, b) => a.index - b.index);
  const executed: string[] = [];
  const skipped: number[] = [];
  let lastIndex: number | null = null;
  let startUrl: string | null = null;
  let failed: { index: number; kind: FailureKind; message: string } | null = null;
  let terminal: string | null = null;
  for (const [position, item] of ordered.entries()) {
    let action: Action;
    try {
      action = actionOf(item.action, item.actionDetails as Action | null | undefined);
    } catch (error) {
      const message = `${item.action}: ${error instanceof Error ? error.message : String(error)}`;
      if (item.canFail) { skipped.push(item.index); continue; }
      failed = { index: item.index, kind: 'error', message };
      break;
    }
    if (TERMINAL.has(action.name)) { terminal = action.name; break; }
    const url = (await chrome.tabs.get(state.tabId)).url ?? '';
    if (startUrl === null) startUrl = url;
    // Guard 1 from the second action on (the server has just seen the page the first acts on);
    // guard 2 (requireValues) before every action that lists values.
    if (position > 0 && !samePage(startUrl, url)) {
      failed = { index: item.index, kind: 'url_changed', message: `${item.action}: page changed: the chain started on ${startUrl}, the page is now ${url}` };
      break;
    }
    const target = position > 0 ? action.target ?? null : null;
    const required: Array<[string, string]> = (item.requireValues ?? []).map((entry) => {
      const value = entry.value ?? (typeof entry.checked === 'boolean' ? String(entry.checked) : '');
      return [String(entry.target), value];
    });
    const ids = [...(target ? [target] : []), ...required.map(([id]) => id)];
    if (ids.length) {
      const readings = await read(state, ids, target);
      const failure = (target ? checkTarget(target, readings[target], item.expect as Expect | null) : null)
        ?? checkRequired(required, readings);
      if (failure) { failed = { index: item.index, kind: failure.kind, message: `${item.action}: ${failure.message}` }; break; }
    }
    try {
      await executeOne(state, action);
      if ((action.name === 'setValue' || action.name === 'select') && action.target) {
        const readings = await read(state, [action.target], null);
        const failure = checkReadback(action.target, readings[action.target], action.value ?? '');
        if (failure) { failed = { index: item.index, kind: failure.kind, message: `${item.action}: ${failure.message}` }; break; }
      }
      executed.push(item.action);
      lastIndex = item.index;
    } catch (error) {
      const message = `${item.action}: ${error instanceof Error ? error.message : String(error)}`;
      if (!item.canFail) { failed = { index: item.index, kind: 'error', message }; break; }
      skipped.push(item.index);
    }
    if (position < ordered.length - 1) await waitForStability(state, CHAIN_GAP);
  }
  const partial: ChainPartialState = { executedActions: executed, totalActionsInChain: ordered.length, skippedIndexes: skipped };
  if (failed) { partial.failedIndex = failed.index; partial.failureKind = failed.kind; }
  const report: Report = { lastActionStatus: failed ? 'failure' : 'success', chainPartialState: partial };
  if (failed) report.lastActionError = failed.message;
  if (lastIndex !== null) report.lastExecutedActionIndex = lastIndex;
  return { report, terminal, executed };
}

/** Run a single answer's action; the report says how it went. */
export async function runSingle(state: TaskState, text: string, details: Action | null | undefined): Promise<Report> {
  try {
    await executeOne(state, details && details.name ? details : parseAction(text));
    return { lastActionStatus: 'success' };
  } catch (error) {
    return { lastActionStatus: 'failure', lastActionError: `${text}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
