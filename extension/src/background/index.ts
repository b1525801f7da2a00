// The service worker: takes commands from the extension's own pages (the side panel, the
// options page), runs tasks (loop.ts) and resumes them when it (re)starts — an MV3 worker is
// stopped when idle and restarted with fresh globals when something wakes it.
import { StepwiseApi } from '../api/client';
import type { PanelCommand } from '../shared/messages';
import { FINAL, allTasks, loadSettings, loadTask, newTask, saveTask } from '../shared/state';
import { type Control, controlKey, drive, isDriving } from './loop';
import { listen } from './network';

const DEFAULT_MAX_STEPS = 30;

// Content scripts must not read storage.local (it holds the API key): trusted contexts only.
chrome.storage.local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' }).catch(() => undefined);
chrome.sidePanel?.setPanelBehavior?.({ openPanelOnActionClick: true }).catch(() => undefined);

/** A command is taken only from a page of this extension (never a content script or a web page). */
function trusted(sender: chrome.runtime.MessageSender): boolean {
  const own = chrome.runtime.getURL('');
  return sender.id === chrome.runtime.id && typeof sender.url === 'string' && sender.url.startsWith(own);
}

async function setControl(tabId: number, value: Control): Promise<void> {
  await chrome.storage.local.set({ [controlKey(tabId)]: value });
}

/** Pick up every task left running (or asked to resume) by a worker that was stopped. */
async function resumeAll(): Promise<void> {
  for (const state of await allTasks()) {
    if (state.status === 'running' && !isDriving(state.tabId)) void drive(state.tabId, true);
  }
}

async function handle(command: PanelCommand): Promise<unknown> {
  switch (command.type) {
    case 'ping':
      await resumeAll();
      return { alive: true };
    case 'run': {
      const current = await loadTask(command.tabId);
      if (current && (current.status === 'running' || current.status === 'paused') && !FINAL.has(current.status)) {
        return { started: false, reason: 'a task is already running in this tab' };
      }
      await setControl(command.tabId, {});
      const state = newTask(command.tabId, command.goal.trim(), command.maxSteps ?? DEFAULT_MAX_STEPS);
      state.url = (await chrome.tabs.get(command.tabId)).url ?? '';
      await saveTask(state);
      void drive(command.tabId);
      return { started: true };
    }
    case 'pause':
      await setControl(command.tabId, { pause: true });
      return { ok: true };
    case 'resume': {
      await setControl(command.tabId, {});
      const state = await loadTask(command.tabId);
      if (state && state.status === 'paused') {
        state.status = 'running';
        await saveTask(state);
        void drive(command.tabId);
      }
      return { ok: true };
    }
    case 'stop': {
      await setControl(command.tabId, { stop: true });
      const state = await loadTask(command.tabId);
      if (state && state.status === 'paused') {
        Object.assign(state, { status: 'stopped', phase: 'done', error: 'stopped from the panel' });
        await saveTask(state);
      }
      return { ok: true };
    }
    case 'confirm': {
      // The user's Yes / No to the server's confirm question: the task goes on (same taskId),
      // its next request carrying `confirm` (the server's held-confirmation protocol).
      const state = await loadTask(command.tabId);
      if (!state || state.status !== 'needs_user_input' || !state.taskId || !state.question?.confirm || typeof command.confirm !== 'boolean') {
        return { resumed: false, reason: 'no confirm question is waiting in this tab' };
      }
      await setControl(command.tabId, {});
      Object.assign(state, {
        status: 'running', phase: 'capture', confirm: command.confirm, question: null, error: null, errorCode: null, evidence: null,
      });
      await saveTask(state);
      void drive(command.tabId);
      return { resumed: true };
    }
    case 'testSettings':
      return new StepwiseApi(await loadSettings()).check();
  }
}

chrome.runtime.onMessage.addListener((message: PanelCommand, sender, sendResponse) => {
  if (!trusted(sender) || !message || typeof message.type !== 'string') return false;
  handle(message).then(
    (value) => sendResponse({ ok: true, value }),
    (error: unknown) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  return true;
});

chrome.tabs.onRemoved.addListener((tabId) => {
  void (async () => {
    const state = await loadTask(tabId);
    if (state && !FINAL.has(state.status)) {
      Object.assign(state, { status: 'stopped', phase: 'done', error: 'the tab was closed' });
      await saveTask(state);
    }
  })();
});

// Top level, before anything awaits: the network listeners (a listener registered later would
// miss the events that woke the worker).
listen();

// Top level: a worker that starts (first install, browser start, or a restart after being
// stopped) resumes the tasks it left running.
void resumeAll();
