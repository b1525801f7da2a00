// The content script: injected by the service worker (after page_script.js) into every frame of
// the tab of a running task, it answers the worker's messages for its frame. It never listens to
// window.postMessage and never sees the API key: it only reads and acts on its own page.
import type { ContentRequest, ContentResponse, Hello, QuietResult } from '../shared/messages';
import { executeAction } from './actions';
import { ActionError, pageApi } from './page';

/** The frame's position in the top viewport, through same-origin parents (null: a parent is cross-origin). */
function offsetInTop(): [number, number] | null {
  let x = 0;
  let y = 0;
  let win: Window = window;
  try {
    while (win !== win.top) {
      const frame = win.frameElement;
      if (!frame) return null;
      // the iframe element's border box, as the Python client measures it (frame_element().bounding_box())
      const rect = frame.getBoundingClientRect();
      x += rect.left;
      y += rect.top;
      win = win.parent;
    }
  } catch {
    return null;
  }
  return [x, y];
}

function sameOriginAsTop(): boolean {
  try {
    return window.top !== null && window.top.location.origin === window.location.origin;
  } catch {
    return false;
  }
}

function hello(): Hello {
  return {
    url: location.href,
    origin: location.origin,
    top: window === window.top,
    sameOriginAsTop: window === window.top || sameOriginAsTop() || location.href.startsWith('about:'),
    offset: window === window.top ? [0, 0] : offsetInTop(),
    readyState: document.readyState,
  };
}

const DOCTYPE = (): string => {
  const d = document.doctype;
  return d ? `<!DOCTYPE ${d.name}${d.publicId ? ` PUBLIC "${d.publicId}"` : ''}${d.systemId ? ` "${d.systemId}"` : ''}>` : '';
};
// What may be acted on but is not always in the V3 tree: stamped before the full DOM is sent
// (the same selector and numbering as client/snapshot.py's _STAMP_ALL).
const STAMPABLE = "a[href], button, input, select, textarea, summary, label, [onclick], [role], [tabindex], [contenteditable='true']";

function fullDom(): string {
  const prefix = window.__stepwiseIdPrefix || '';
  for (const el of Array.from(document.querySelectorAll(STAMPABLE))) {
    if (el.hasAttribute('data-llm-id')) continue;
    window.__stepwiseNextId = (window.__stepwiseNextId || 0) + 1;
    el.setAttribute('data-llm-id', prefix + window.__stepwiseNextId);
  }
  return DOCTYPE() + document.documentElement.outerHTML;
}

async function handle(message: ContentRequest): Promise<unknown> {
  switch (message.type) {
    case 'hello': return hello();
    case 'extract': return pageApi().extract(message.args);
    case 'fullDom': return fullDom();
    case 'arm': return pageApi().arm();
    case 'witness': return pageApi().witness();
    case 'quiet': return { quietMs: pageApi().quietMs(), readyState: document.readyState } satisfies QuietResult;
    case 'inspect': return pageApi().inspect(message.ids, message.reveal);
    case 'execute':
      try {
        await executeAction(message.action);
        return { ok: true };
      } catch (error) {
        const code = error instanceof ActionError ? error.code : 'ACTION_FAILED';
        return { ok: false, error: error instanceof Error ? error.message : String(error), code };
      }
  }
}

if (!window.__stepwiseContent) {
  window.__stepwiseContent = true;
  chrome.runtime.onMessage.addListener((message: ContentRequest, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id || sender.tab) return false; // only the extension's own worker
    handle(message).then(
      (value) => sendResponse({ ok: true, value } satisfies ContentResponse<unknown>),
      (error: unknown) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return true; // answered asynchronously
  });
}
