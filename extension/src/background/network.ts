// Requests in flight in the task's tab, as the browser's network stack sees them
// (chrome.webRequest: every frame, fetch, XHR, images, scripts — nothing the page can hide or
// forge, no main-world hook). The stability wait needs it: a click that saves through a slow
// fetch leaves the DOM quiet until the answer comes, and a capture taken in that silence shows
// a page where nothing happened yet. The Python reference client counts the same way, from
// Playwright's request events (client/stability.py), with the same two rules:
//  - a request counts from onBeforeRequest until onCompleted / onErrorOccurred;
//  - a request that has had its response for RESPONDED_GRACE_MS no longer counts (a stream,
//    server-sent events, a body the network stack keeps open), so the wait is not held to
//    its bound by a connection that never ends. WebSockets are not loads and never count.
// Only watched tabs (a task's, from its first action) are counted; nothing is kept about a
// request but its id, tab and when its response came. The counts live in the worker's memory:
// a restarted worker starts from zero, which only makes one wait shorter (the DOM rule holds).

export const RESPONDED_GRACE_MS = 1000;

interface InFlight {
  tabId: number;
  respondedAt: number | null;
}

export class NetworkTracker {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly lastActivity = new Map<number, number>();
  private readonly started = new Map<number, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Count this tab's requests from now on (idempotent). */
  watch(tabId: number): void {
    if (this.lastActivity.has(tabId)) return;
    this.lastActivity.set(tabId, this.now());
    this.started.set(tabId, 0);
  }

  /** Stop counting (the task ended, the tab closed). */
  unwatch(tabId: number): void {
    this.lastActivity.delete(tabId);
    this.started.delete(tabId);
    for (const [id, request] of this.inFlight) if (request.tabId === tabId) this.inFlight.delete(id);
  }

  watching(tabId: number): boolean {
    return this.lastActivity.has(tabId);
  }

  onStart(requestId: string, tabId: number, url: string, type: string): void {
    if (!this.watching(tabId) || type === 'websocket' || url.startsWith('data:')) return;
    this.inFlight.set(requestId, { tabId, respondedAt: null });
    this.started.set(tabId, (this.started.get(tabId) ?? 0) + 1);
    this.lastActivity.set(tabId, this.now());
  }

  onResponse(requestId: string): void {
    const request = this.inFlight.get(requestId);
    if (!request) return;
    request.respondedAt = this.now();
    this.lastActivity.set(request.tabId, this.now());
  }

  onDone(requestId: string): void {
    const request = this.inFlight.get(requestId);
    if (!request) return;
    this.inFlight.delete(requestId);
    if (this.watching(request.tabId)) this.lastActivity.set(request.tabId, this.now());
  }

  /** Requests of the tab still loading (a response older than the grace no longer counts). */
  inFlightCount(tabId: number): number {
    const now = this.now();
    let count = 0;
    for (const request of this.inFlight.values()) {
      if (request.tabId !== tabId) continue;
      if (request.respondedAt === null || now - request.respondedAt < RESPONDED_GRACE_MS) count += 1;
    }
    return count;
  }

  /** How long the tab's network has been idle; 0 while a request loads, null when not watched. */
  idleMs(tabId: number): number | null {
    const last = this.lastActivity.get(tabId);
    if (last === undefined) return null;
    if (this.inFlightCount(tabId) > 0) return 0;
    return this.now() - last;
  }

  /** Requests started in the tab since it was watched (compare two readings). */
  seen(tabId: number): number | null {
    return this.started.get(tabId) ?? null;
  }
}

/** The worker's one tracker, fed by listeners registered at the top level (`listen`). */
export const network = new NetworkTracker();

/** Register the webRequest listeners; called once, at the worker's top level. */
export function listen(tracker: NetworkTracker = network): void {
  const filter: chrome.webRequest.RequestFilter = { urls: ['<all_urls>'] };
  chrome.webRequest.onBeforeRequest.addListener((details) => {
    tracker.onStart(details.requestId, details.tabId, details.url, details.type);
    return undefined;
  }, filter);
  chrome.webRequest.onResponseStarted.addListener((details) => tracker.onResponse(details.requestId), filter);
  chrome.webRequest.onCompleted.addListener((details) => tracker.onDone(details.requestId), filter);
  chrome.webRequest.onErrorOccurred.addListener((details) => tracker.onDone(details.requestId), filter);
}
