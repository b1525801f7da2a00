// After an action: the witness (what the action did) and the stability wait (the page settled
// before it is captured): at least MIN_WAIT_MS, then the DOM quiet for DOM_QUIET_MS in every
// captured frame, the document loaded and the tab's network idle for NETWORK_IDLE_MS (no
// request in flight: network.ts), bounded by MAX_WAIT_MS (capture anyway then).
import type { Armed, TaskState } from '../shared/state';
import type { QuietResult, WitnessResult } from '../shared/messages';
import { FrameGone, ask, inject, ready, snapshotFrames } from './frames';
import { type NetworkTracker, network } from './network';

export const STABILITY = { minWaitMs: 300, domQuietMs: 500, networkIdleMs: 500, maxWaitMs: 5000 } as const;
export const CHAIN_GAP = { minWaitMs: 100, domQuietMs: 100, networkIdleMs: 200, maxWaitMs: 2000 } as const;
const FIRST_POLL_MS = 100;
type Config = { minWaitMs: number; domQuietMs: number; networkIdleMs: number; maxWaitMs: number };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Set the witness baseline just before an action. */
export async function arm(tabId: number): Promise<Armed> {
  const tab = await chrome.tabs.get(tabId);
  let docId = '';
  try {
    await ready(tabId);
    docId = await ask<string>(tabId, 0, { type: 'arm' });
  } catch {
    docId = '';
  }
  network.watch(tabId);
  return { docId, url: tab.url ?? '', at: Date.now(), requests: network.seen(tabId) ?? 0 };
}

export interface Witnessed {
  didDomMutate: boolean;
  didNetworkOccur: boolean;
  didUrlChange: boolean;
  navigated: boolean;
  events: string[];
}

/** What the action did since `arm`: a new document (or none answering) means everything changed. */
export async function witness(tabId: number, armed: Armed): Promise<Witnessed> {
  const tab = await chrome.tabs.get(tabId);
  const didUrlChange = (tab.url ?? '') !== armed.url;
  let seen: WitnessResult | null = null;
  try {
    await ready(tabId);
    seen = await ask<WitnessResult>(tabId, 0, { type: 'witness' });
  } catch {
    seen = null;
  }
  if (!seen || seen.docId !== armed.docId) {
    return { didDomMutate: true, didNetworkOccur: true, didUrlChange, navigated: true, events: [] };
  }
  // the page's resource timings, or the network stack's count (a worker restarted since `arm` has none)
  const requests = network.seen(tabId);
  const started = requests !== null && armed.requests !== undefined && requests > armed.requests;
  return { didDomMutate: seen.didDomMutate, didNetworkOccur: seen.didNetworkOccur || started, didUrlChange, navigated: false, events: seen.events };
}

async function quiet(tabId: number): Promise<number | null> {
  const tab = await chrome.tabs.get(tabId);
  if (tab.status !== 'complete') return null;
  let least: number | null = null;
  try {
    for (const frame of await snapshotFrames(tabId)) {
      const answer = await ask<QuietResult>(tabId, frame.frameId, { type: 'quiet' }, 1000);
      if (frame.frameId === 0 && answer.readyState !== 'complete') return null;
      least = least === null ? answer.quietMs : Math.min(least, answer.quietMs);
    }
  } catch (error) {
    // a new document without the scripts (a reload, a navigation): inject them for the next poll
    if (error instanceof FrameGone) await inject(tabId).catch(() => undefined);
    return null;
  }
  return least;
}

/** The network part of the wait: idle long enough, or not watched (a worker restarted mid-wait). */
export function networkSettled(tracker: NetworkTracker, tabId: number, idleMs: number): boolean {
  const idle = tracker.idleMs(tabId);
  return idle === null || idle >= idleMs;
}

/** Wait as the contract says; `stable` false when the bound was hit. */
export async function waitForStability(state: TaskState, config: Config = STABILITY): Promise<{ stable: boolean; waitedMs: number }> {
  const started = Date.now();
  // Polled from the start, not after the minimum: after a navigation the first read that finds
  // the new document complete injects the page script, and its DOM-quiet clock starts there.
  await sleep(Math.min(config.minWaitMs, FIRST_POLL_MS));
  while (Date.now() - started < config.maxWaitMs) {
    let quietMs: number | null = null;
    try {
      const tab = await chrome.tabs.get(state.tabId);
      // read even while requests load: after a navigation this is what injects the page script
      // into the new document, and its DOM-quiet clock starts then
      if (tab.status === 'complete') quietMs = await quiet(state.tabId);
    } catch {
      quietMs = null;
    }
    const settled = quietMs !== null && quietMs >= config.domQuietMs && networkSettled(network, state.tabId, config.networkIdleMs);
    if (settled && Date.now() - started >= config.minWaitMs) return { stable: true, waitedMs: Date.now() - started };
    await sleep(100);
  }
  return { stable: false, waitedMs: Date.now() - started };
}
