// The side panel: a goal, Run / Pause / Stop, and the task of one tab rendered from
// chrome.storage (storage.onChanged), so it shows the same after a worker restart or a reopen.
// The tab is `?tabId=<n>` when given, else the active tab of the panel's window (followed).
import type { PanelCommand } from '../shared/messages';
import { type TaskState, loadTask, taskKey } from '../shared/state';
import { render } from './render';

const PING_MS = 1000;
const fixed = Number(new URLSearchParams(location.search).get('tabId'));
let tabId: number | null = Number.isInteger(fixed) && fixed > 0 ? fixed : null;

async function send(command: PanelCommand): Promise<unknown> {
  try {
    return await chrome.runtime.sendMessage(command);
  } catch {
    return null; // the worker is starting: the next ping wakes it
  }
}

async function show(): Promise<void> {
  const label = document.getElementById('tab-label') as HTMLElement;
  if (tabId === null) {
    label.textContent = 'no tab';
    render(null);
    return;
  }
  try {
    const tab = await chrome.tabs.get(tabId);
    label.textContent = `${tab.title || tab.url || ''} (#${tabId})`;
  } catch {
    label.textContent = `#${tabId} (closed)`;
  }
  render(await loadTask(tabId));
}

async function followActiveTab(): Promise<void> {
  if (fixed > 0) return;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  tabId = tab?.id ?? null;
  await show();
}

document.getElementById('goal-form')?.addEventListener('submit', (event) => {
  event.preventDefault();
  const goal = (document.getElementById('goal') as HTMLTextAreaElement).value.trim();
  if (!goal || tabId === null) return;
  void send({ type: 'run', goal, tabId });
});
document.getElementById('pause')?.addEventListener('click', () => {
  if (tabId === null) return;
  const paused = (document.getElementById('status') as HTMLElement).dataset.status === 'paused';
  void send({ type: paused ? 'resume' : 'pause', tabId });
});
document.getElementById('stop')?.addEventListener('click', () => {
  if (tabId !== null) void send({ type: 'stop', tabId });
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && tabId !== null && changes[taskKey(tabId)]) render((changes[taskKey(tabId)].newValue as TaskState | undefined) ?? null);
});
chrome.tabs.onActivated.addListener(() => { void followActiveTab(); });
chrome.tabs.onUpdated.addListener((id, info) => { if (id === tabId && info.title) void show(); });

// The ping wakes a stopped worker, which resumes the tasks it left running.
setInterval(() => { void send({ type: 'ping' }); }, PING_MS);
void (tabId === null ? followActiveTab() : show());
void send({ type: 'ping' });
