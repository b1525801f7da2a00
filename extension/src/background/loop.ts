// The task loop as a state machine persisted per tab (chrome.storage.local `task_<tabId>`):
//   capture -> request -> execute -> (executing) -> settle -> capture …  until a final status.
// Every phase is written before it starts and after it ends, so a worker stopped at any moment
// resumes where it was: a request in flight is re-sent with the SAME Idempotency-Key (the
// server answers the stored answer), an action whose execution may have started is NOT run
// again (the page is captured and sent as it is, `lastActionStatus: "pending"`: the server
// verifies from the page).
import { ApiError, StepwiseApi } from '../api/client';
import type { InteractRequest, InteractResponse } from '../api/types';
import { TERMINAL, type Action, parseAction } from '../shared/actions';
import {
  type Question, type StepView, type TaskState, TASK_EXPIRY_MS, loadSettings, loadTask, saveTask,
} from '../shared/state';
import { hookFor, runChain, runSingle, takeBack } from './execute';
import { capture, type Snapshot } from './frames';
import { network } from './network';
import { arm, waitForStability, witness } from './settle';

const driving = new Set<number>();
const CAPTURE_ATTEMPTS = 3;
const KEEP_ALIVE_MS = 20_000;

/** Pause/stop asked by the panel, kept apart from the task record (which only the loop writes). */
export const controlKey = (tabId: number): string => `control_${tabId}`;
export interface Control { pause?: boolean; stop?: boolean }

async function control(tabId: number): Promise<Control> {
  const key = controlKey(tabId);
  return ((await chrome.storage.local.get(key))[key] as Control | undefined) ?? {};
}

/** Drive the tab's task until it ends or pauses (one driver per tab in this worker);
 *  `resumed`: picked up by a (re)started worker, counted in the record. */
export async function drive(tabId: number, resumed = false): Promise<void> {
  if (driving.has(tabId)) return;
  driving.add(tabId);
  network.watch(tabId);
  // An extension API call resets the worker's idle timer: a long wait() or a slow answer does not get it stopped.
  const keepAlive = setInterval(() => { void chrome.runtime.getPlatformInfo(); }, KEEP_ALIVE_MS);
  try {
    for (let first = true; ; first = false) {
      const state = await loadTask(tabId);
      if (!state || state.status !== 'running') return;
      if (first && resumed) state.resumes += 1;
      const asked = await control(tabId);
      if (asked.stop) {
        await takeBack(state); // a dialog hook left in the page by the last action: originals restored
        state.dialogs = [];
        Object.assign(state, { status: 'stopped', phase: 'done', error: 'stopped from the panel' });
        await saveTask(state);
        return;
      }
      if (asked.pause && state.phase !== 'request' && state.phase !== 'executing') {
        state.status = 'paused';
        await saveTask(state);
        return;
      }
      await advance(state);
    }
  } finally {
    clearInterval(keepAlive);
    driving.delete(tabId);
    network.unwatch(tabId);
  }
}

export const isDriving = (tabId: number): boolean => driving.has(tabId);

async function advance(state: TaskState): Promise<void> {
  try {
    switch (state.phase) {
      case 'capture': return await capturePhase(state);
      case 'request': return await requestPhase(state);
      case 'execute': return await executePhase(state);
      case 'executing': return await interruptedPhase(state);
      case 'settle': return await settlePhase(state);
      case 'done': state.status = state.status === 'running' ? 'error' : state.status; return await saveTask(state);
    }
  } catch (error) {
    const apiError = error instanceof ApiError ? error : null;
    Object.assign(state, {
      status: 'error', phase: 'done',
      error: apiError ? apiError.message : `browser: ${error instanceof Error ? error.message : String(error)}`,
      errorCode: apiError ? apiError.code : 'BROWSER_ERROR',
    });
    await saveTask(state);
  }
}

async function snapshotWithRetries(state: TaskState): Promise<Snapshot> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await capture(state, { fullDom: state.needsFullDom, screenshot: state.needsScreenshot });
    } catch (error) {
      if (attempt >= CAPTURE_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500)); // a document being replaced
    }
  }
}

/** The tab's stored taskId; else, when it expired or is gone and a sessionId is known, the
 *  session's active task from the server (asked with the tab URL, then the URL the last request
 *  carried); else null (a new task: the goal is sent again). */
async function taskIdFor(state: TaskState, api: StepwiseApi, url: string): Promise<{ taskId: string | null; recovered: boolean }> {
  if (state.taskId && Date.now() - state.timestamp < TASK_EXPIRY_MS) return { taskId: state.taskId, recovered: false };
  if (!state.sessionId || state.count === 0) return { taskId: null, recovered: false };
  let active = await api.activeTask(state.sessionId, url);
  if (!active && state.lastUrl && state.lastUrl !== url) active = await api.activeTask(state.sessionId, state.lastUrl);
  if (!active || typeof active.taskId !== 'string') return { taskId: null, recovered: false };
  state.recoveries += 1;
  return { taskId: active.taskId, recovered: true };
}

function body(state: TaskState, snap: Snapshot, taskId: string | null, recovered: boolean): InteractRequest {
  const notes = snap.messages.filter((m) => m.kind === 'info').map((m) => m.text);
  const errors = snap.messages.filter((m) => m.kind === 'error').map((m) => m.text);
  const successes = snap.messages.filter((m) => m.kind === 'success').map((m) => m.text);
  const out: InteractRequest = {
    url: snap.url,
    domMode: 'semantic_v3',
    // A status line is the page's answer to an action too: it travels as a V3 status node.
    interactiveTree: [...snap.tree, ...notes.slice(0, 10).map((text, n) => ({ i: `msg${n + 1}`, r: 'status', n: text }))],
    pageTitle: snap.title,
    viewport: snap.viewport,
    scrollPosition: snap.scrollPosition,
    hasErrors: errors.length > 0,
    hasSuccess: successes.length > 0,
  };
  if (snap.text) out.pageText = snap.text;
  if (errors.length) out.errors_detected = errors.slice(0, 10);
  if (successes.length) out.success_messages = successes.slice(0, 10);
  if (snap.truncated) out.treeTruncated = true;
  if (snap.screenshot) { out.screenshot = snap.screenshot; out.domMode = 'hybrid'; }
  if (snap.dom !== null) { out.dom = snap.dom; out.domMode = 'full'; }
  if (taskId) out.taskId = taskId;
  else out.query = state.goal;
  if (state.sessionId) out.sessionId = state.sessionId;
  if (taskId && state.report) Object.assign(out, state.report);
  if (taskId && !recovered && state.stepIndex !== null) out.stepIndex = state.stepIndex;
  if (taskId && typeof state.confirm === 'boolean') out.confirm = state.confirm; // the user's answer, once
  return out;
}

async function capturePhase(state: TaskState): Promise<void> {
  if (state.count >= state.maxSteps) {
    Object.assign(state, { status: 'max_steps', phase: 'done' });
    return saveTask(state);
  }
  const snap = await snapshotWithRetries(state);
  const api = new StepwiseApi(await loadSettings());
  const { taskId, recovered } = await taskIdFor(state, api, snap.url);
  state.recovered = recovered;
  if (recovered && taskId) Object.assign(state, { taskId, timestamp: Date.now() });
  state.pending = { key: crypto.randomUUID(), body: body(state, snap, taskId, recovered) };
  state.confirm = null; // it travels in the pending body (re-sent with it after a restart)
  state.phase = 'request';
  await saveTask(state);
}

function actionName(text: string): string | null {
  try {
    return parseAction(text).name;
  } catch {
    return null;
  }
}

function view(state: TaskState, answer: InteractResponse): StepView {
  return {
    index: state.steps.length,
    serverStepIndex: answer.stepIndex,
    thought: answer.thought,
    action: answer.action,
    actions: (answer.actions ?? []).map((item) => item.action),
    status: answer.status,
    decidedBy: answer.decidedBy,
    verdict: null,
    contract: answer.contract ?? null,
    memory: answer.memory ? memoryText(answer.memory) : null,
  };
}

/** What the answer's memory did, in words: replayed a recipe step, used skills, or why not. */
function memoryText(memory: NonNullable<InteractResponse['memory']>): string {
  const parts = [`replay ${memory.replay}`];
  if (memory.recipeId) parts.push(`recipe ${memory.recipeId}${memory.recipeStep != null ? ` step ${memory.recipeStep}` : ''}`);
  if (memory.missReason) parts.push(memory.missReason);
  if (memory.skillsUsed?.length) parts.push(`skills: ${memory.skillsUsed.join(', ')}`);
  return parts.join(' · ');
}

/** The server's question, for the panel (a confirm question gets Yes / No). `needsUserInput` is
 *  an open object in the schema: each field is read only when it has the expected type. */
function question(answer: InteractResponse): Question {
  const asked = (answer.needsUserInput ?? {}) as Record<string, unknown>;
  const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const confirm = typeof asked.confirm === 'object' && asked.confirm !== null ? asked.confirm as Record<string, unknown> : null;
  const dialog = confirm && typeof confirm.dialog === 'object' && confirm.dialog !== null ? confirm.dialog as Record<string, unknown> : null;
  return {
    message: str(asked.message) || answer.thought,
    confirm: confirm && str(confirm.action) !== null ? {
      action: str(confirm.action) ?? '', element: str(confirm.element), what: str(confirm.what),
      dialog: dialog ? { kind: str(dialog.kind) ?? '', message: str(dialog.message) ?? '' } : null,
    } : null,
  };
}

/** The run ends on the task's status, never on an action's name alone: only the server's
 *  `completed` (its goal contract holds) is a completed run. */
function finish(state: TaskState, answer: InteractResponse, step: StepView): boolean {
  const name = actionName(answer.action);
  const terminal = name !== null && TERMINAL.has(name as Action['name']) && !(answer.actions ?? []).length;
  if (['completed', 'failed', 'needs_confirmation'].includes(answer.status) || terminal) {
    step.actionStatus = 'terminal';
    state.status = answer.status === 'completed' || answer.status === 'needs_confirmation' ? answer.status : 'failed';
  } else if (answer.status === 'needs_user_input') {
    state.status = 'needs_user_input';
    state.question = question(answer);
  } else {
    return false;
  }
  state.phase = 'done';
  if (state.status !== 'completed') {
    state.error = answer.thought || answer.action;
    state.errorCode = answer.failureCode ?? null;
  }
  state.evidence = { thought: answer.thought, contract: answer.contract ?? null, failureCode: answer.failureCode ?? null };
  return true;
}

async function requestPhase(state: TaskState): Promise<void> {
  const pending = state.pending;
  if (!pending) { state.phase = 'capture'; return saveTask(state); }
  const api = new StepwiseApi(await loadSettings());
  const answer = await api.interact(pending.body, pending.key);
  const previous = state.steps[state.steps.length - 1];
  if (previous && answer.verification) {
    const v = answer.verification;
    previous.verdict = { success: v.success, tier: v.tier, reason: v.reason, decidedBy: v.decidedBy };
  }
  const step = view(state, answer);
  state.steps.push(step);
  state.count += 1;
  state.lastUrl = pending.body.url;
  state.sessionId = answer.sessionId || state.sessionId;
  const taskId = answer.taskId || pending.body.taskId || null;
  if (answer.taskId) Object.assign(state, { taskId: answer.taskId, timestamp: Date.now(), url: pending.body.url });
  else state.taskId = taskId;
  state.stepIndex = answer.stepIndex;
  state.pending = null;
  state.report = null;
  state.answer = answer;
  state.needsFullDom = answer.needsFullDom;
  state.needsScreenshot = answer.needsScreenshot;
  if (!finish(state, answer, step)) state.phase = 'execute';
  await saveTask(state);
}

async function executePhase(state: TaskState): Promise<void> {
  const answer = state.answer;
  if (!answer) { state.phase = 'capture'; return saveTask(state); }
  state.armed = await arm(state.tabId);
  state.phase = 'executing'; // from here on the action may have run: never run it again
  await saveTask(state);
  const step = state.steps[state.steps.length - 1];
  if ((answer.actions ?? []).length) {
    const outcome = await runChain(state, answer.actions ?? []);
    state.report = outcome.report;
    if (outcome.terminal) {
      await takeBack(state); // the originals restored; nothing is reported after a final answer
      state.dialogs = [];
      step.actionStatus = 'terminal';
      state.status = outcome.terminal === 'finish' && answer.status === 'completed' ? 'completed' : 'failed';
      state.phase = 'done';
      state.evidence = { thought: answer.thought, contract: answer.contract ?? null, failureCode: answer.failureCode ?? null };
      return saveTask(state);
    }
  } else {
    await hookFor(state, answer.action, answer.actionDetails);
    state.report = await runSingle(state, answer.action, answer.actionDetails as Action | null | undefined);
  }
  state.actedAt = Date.now();
  step.actionStatus = state.report.lastActionStatus === 'success' ? 'success' : 'failure';
  step.actionError = typeof state.report.lastActionError === 'string' ? state.report.lastActionError : null;
  state.phase = 'settle';
  await saveTask(state);
}

/** The worker stopped while an action was executing: it is not run again; the page says what happened. */
async function interruptedPhase(state: TaskState): Promise<void> {
  state.report = { lastActionStatus: 'pending' };
  const step = state.steps[state.steps.length - 1];
  if (step) step.actionStatus = 'pending';
  state.phase = 'settle';
  await saveTask(state);
}

async function settlePhase(state: TaskState): Promise<void> {
  await waitForStability(state);
  const report = state.report ?? { lastActionStatus: 'pending' };
  if (state.armed) {
    const seen = await witness(state.tabId, state.armed);
    report.clientObservations = { didNetworkOccur: seen.didNetworkOccur, didDomMutate: seen.didDomMutate, didUrlChange: seen.didUrlChange };
    report.previousUrl = state.armed.url;
    if (seen.events.length) report.recentEvents = seen.events;
  }
  await takeBack(state);
  if (state.dialogs?.length) {
    report.clientObservations = { ...(report.clientObservations ?? {}), nativeDialogs: state.dialogs };
    const step = state.steps[state.steps.length - 1];
    if (step) step.dialogs = state.dialogs;
  }
  state.dialogs = [];
  Object.assign(state, { report, armed: null, answer: null, phase: 'capture' });
  await saveTask(state);
}
