// The worker's hands on a tab: injection of the page script and the content script into every
// frame, messages to one frame, and the V3 snapshot of the main frame and its same-origin frames
// (element ids prefixed "f<n>-" in a child frame, as client/snapshot.py does).
import type { ContentRequest, ContentResponse, ExtractResult, Hello } from '../shared/messages';
import type { TaskState } from '../shared/state';

export const PAGE_FILES = ['page_script.js', 'content.js'];
const MESSAGE_TIMEOUT_MS = 5000;
const MAX_NODES = 2500;

/** The content script's channel closed before it answered: its document went away (a navigation). */
export class FrameGone extends Error {}

const CLOSED = /message channel closed|message port closed|Receiving end does not exist|Could not establish connection|No frame with id|Frame with ID/i;

/** Ask one frame's content script; FrameGone when the frame's document is gone or navigating. */
export async function ask<T>(tabId: number, frameId: number, message: ContentRequest, timeoutMs = MESSAGE_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FrameGone(`frame ${frameId} did not answer ${message.type} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const answer = await Promise.race([
      chrome.tabs.sendMessage(tabId, message, { frameId }) as Promise<ContentResponse<T> | undefined>,
      timeout,
    ]);
    if (!answer) throw new FrameGone(`frame ${frameId} gave no answer to ${message.type}`);
    if (!answer.ok) throw new Error(answer.error);
    return answer.value;
  } catch (error) {
    if (error instanceof FrameGone) throw error;
    const text = error instanceof Error ? error.message : String(error);
    if (CLOSED.test(text)) throw new FrameGone(text);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Make the scripts present in every frame of the tab (both guard a second install). The main
 *  frame must take them; a frame that refuses (a chrome-error page, a sandbox) is left out. */
export async function inject(tabId: number): Promise<void> {
  await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: PAGE_FILES });
  try {
    await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: PAGE_FILES });
  } catch {
    // some child frame refused: the main frame has the scripts, the snapshot skips that frame
  }
}

/** Wait until the tab has finished loading (bounded), then inject. */
export async function ready(tabId: number, boundMs = 15_000): Promise<void> {
  const until = Date.now() + boundMs;
  for (;;) {
    const tab = await chrome.tabs.get(tabId);
    if (tab.status === 'complete' || Date.now() > until) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (let attempt = 0; ; attempt += 1) {
    try {
      await inject(tabId);
      return;
    } catch (error) {
      if (attempt >= 20 || Date.now() > until + 5000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150)); // a document being replaced
    }
  }
}

export interface FrameInfo {
  frameId: number;
  hello: Hello;
}

/** The frames the snapshot takes: the main frame, then the same-origin ones placed in the top viewport. */
export async function snapshotFrames(tabId: number): Promise<FrameInfo[]> {
  const results = await chrome.scripting.executeScript({
    target: { tabId, allFrames: true },
    func: () => window.top === window || !!(window as Window & { __stepwiseContent?: boolean }).__stepwiseContent,
  });
  const frames: FrameInfo[] = [];
  for (const result of results.sort((a, b) => a.frameId - b.frameId)) {
    if (!result.result) continue;
    try {
      const hello = await ask<Hello>(tabId, result.frameId, { type: 'hello' }, 2000);
      if (result.frameId === 0 || (hello.sameOriginAsTop && hello.offset)) frames.push({ frameId: result.frameId, hello });
    } catch (error) {
      if (result.frameId === 0) throw error;
    }
  }
  if (!frames.length || frames[0].frameId !== 0) throw new FrameGone('the main frame has no content script');
  return frames;
}

/** The number in a frame's id prefix, given once per task and never reused. */
export function prefixOf(state: TaskState, frameId: number): string {
  if (frameId === 0) return '';
  const key = String(frameId);
  if (state.frames[key] === undefined) {
    const used = Object.values(state.frames);
    state.frames[key] = (used.length ? Math.max(...used) : 0) + 1;
  }
  return `f${state.frames[key]}-`;
}

/** The frame an element id lives in (main frame for a plain number). */
export function frameOf(state: TaskState, elementId: string): number | null {
  const match = /^f(\d+)-/.exec(elementId);
  if (!match) return 0;
  const entry = Object.entries(state.frames).find(([, n]) => n === Number(match[1]));
  return entry ? Number(entry[0]) : null;
}

export interface Snapshot {
  url: string;
  title: string;
  viewport: { width: number; height: number };
  tree: ExtractResult['tree'];
  scrollPosition: string;
  messages: ExtractResult['messages'];
  text: string;
  docId: string;
  truncated: boolean;
  dom: string | null;
  screenshot: string | null;
}

function remember(state: TaskState, prefix: string, tree: ExtractResult['tree']): void {
  const numbers = tree.map((node) => node.i.slice(prefix.length)).filter((rest) => /^\d+$/.test(rest)).map(Number);
  if (numbers.length) state.floors[prefix] = Math.max(state.floors[prefix] ?? 0, ...numbers);
}

/** The V3 snapshot of the tab (+ the stamped HTML when the server asked for the full DOM, + a
 *  JPEG of the viewport when it asked for a screenshot and the tab is the visible one). */
export async function capture(state: TaskState, options: { fullDom: boolean; screenshot: boolean }): Promise<Snapshot> {
  const tabId = state.tabId;
  await ready(tabId);
  const frames = await snapshotFrames(tabId);
  let main: ExtractResult | null = null;
  const tree: ExtractResult['tree'] = [];
  const messages: ExtractResult['messages'] = [];
  for (const frame of frames) {
    const prefix = prefixOf(state, frame.frameId);
    const args = {
      prefix,
      floor: state.floors[prefix] ?? 0,
      frame: frame.frameId === 0 ? 0 : state.frames[String(frame.frameId)],
      offset: frame.hello.offset ?? [0, 0],
      pruneToViewport: false,
      maxNodes: Math.max(MAX_NODES - tree.length, 1),
      withText: frame.frameId === 0,
    } as const;
    let result: ExtractResult;
    try {
      result = await ask<ExtractResult>(tabId, frame.frameId, { type: 'extract', args: { ...args, offset: [...args.offset] as [number, number] } });
    } catch (error) {
      if (frame.frameId === 0) throw error;
      continue;
    }
    if (frame.frameId === 0) main = result;
    remember(state, prefix, result.tree);
    if (tree.length < MAX_NODES) tree.push(...result.tree.slice(0, MAX_NODES - tree.length));
    messages.push(...result.messages);
  }
  if (!main) throw new FrameGone('the main frame gave no snapshot');
  const tab = await chrome.tabs.get(tabId);
  const dom = options.fullDom ? await ask<string>(tabId, 0, { type: 'fullDom' }) : null;
  let screenshot: string | null = null;
  if (options.screenshot && tab.active) {
    try {
      const url = await chrome.tabs.captureVisibleTab(tab.windowId, { format: 'jpeg', quality: 70 });
      screenshot = url.slice(url.indexOf(',') + 1);
    } catch {
      screenshot = null; // not capturable (the window is not visible): the server goes on without it
    }
  }
  return {
    url: tab.url ?? frames[0].hello.url,
    title: main.title,
    viewport: main.viewport,
    tree,
    scrollPosition: main.scrollPosition,
    messages,
    text: main.text ?? '',
    docId: main.docId,
    truncated: tree.length >= MAX_NODES,
    dom,
    screenshot,
  };
}
