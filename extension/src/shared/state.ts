// What the extension keeps in chrome.storage.local. The service worker may be stopped at any
// moment (MV3), so a running task lives here, per tab, under `task_<tabId>` — written before and
// after each phase — and the panel renders from it. `settings` holds the server URL and API key;
// storage.local is restricted to trusted contexts (the worker and extension pages) at worker start.
import type { Contract, InteractRequest, InteractResponse, NativeDialog } from '../api/types';

export const SETTINGS_KEY = 'settings';
export const DEFAULT_SERVER = 'http://127.0.0.1:8000';
export const TASK_EXPIRY_MS = 30 * 60 * 1000; // a stored taskId older than this is recovered from the server

export interface Settings {
  serverUrl: string;
  apiKey: string;
}

export type Status =
  | 'idle' | 'running' | 'paused' | 'completed' | 'failed' | 'needs_user_input' | 'needs_confirmation' | 'error'
  | 'max_steps' | 'stopped';
export const FINAL: ReadonlySet<Status> = new Set<Status>(['completed', 'failed', 'needs_user_input', 'needs_confirmation',
  'error', 'max_steps', 'stopped']);

/** Where the loop is: what the worker does next when it (re)starts. */
export type Phase = 'capture' | 'request' | 'execute' | 'executing' | 'settle' | 'done';

/** One answer of the server, as the panel shows it. */
export interface StepView {
  index: number;
  serverStepIndex: number;
  thought: string;
  action: string;
  actions: string[];
  status: string;
  decidedBy: string;
  verdict?: { success: boolean; tier: number; reason: string; decidedBy: string } | null;
  contract?: Contract | null;
  memory?: string | null;
  actionStatus?: 'success' | 'failure' | 'pending' | 'terminal';
  actionError?: string | null;
  dialogs?: NativeDialog[]; // native dialogs this step's action raised, and how they were answered
}

/** A question the server asked (`needs_user_input`): its words, and the held action when it is a yes/no confirmation. */
export interface Question {
  message: string;
  confirm: { action: string; element?: string | null; what?: string | null; dialog?: { kind: string; message: string } | null } | null;
}

/** What the next request says about the last action (and where the page was before it). */
export type Report = Pick<InteractRequest, 'lastActionStatus' | 'lastActionError' | 'lastExecutedActionIndex' |
  'chainPartialState' | 'clientObservations' | 'previousUrl' | 'recentEvents'>;

export interface Armed {
  docId: string;
  url: string;
  at: number;
  requests?: number; // requests the tab had started (network.ts) when armed; absent in older records
}

export interface TaskState {
  tabId: number;
  goal: string;
  status: Status;
  phase: Phase;
  taskId: string | null;
  sessionId: string | null;
  url: string;
  timestamp: number; // when taskId was last written (epoch ms)
  stepIndex: number | null; // the server's stepIndex of the answer being executed / just executed
  recovered: boolean; // the taskId came from the active-task route: no stepIndex on the next request
  count: number; // answers received in this run
  maxSteps: number;
  pending: { key: string; body: InteractRequest } | null; // the request in flight (re-sent with the same key)
  answer: InteractResponse | null; // the answer being executed
  report: Report | null;
  armed: Armed | null;
  lastUrl: string | null; // the URL the last request carried
  needsFullDom: boolean;
  needsScreenshot: boolean;
  frames: Record<string, number>; // frameId -> the number in its element id prefix ("f<n>-")
  floors: Record<string, number>; // prefix -> highest id number issued
  actedAt: number | null;
  steps: StepView[];
  paused: boolean;
  error: string | null;
  errorCode: string | null;
  evidence: { thought: string; contract: Contract | null; failureCode: string | null } | null;
  recoveries: number;
  resumes: number; // how many times a (re)started worker picked the task up
  hook?: { key: string; action: string } | null; // the main-world dialog hook of the action running now (background/dialogs.ts)
  dialogs?: NativeDialog[]; // native dialogs taken back from hooks, reported with the next request
  question?: Question | null; // the server's question while the status is needs_user_input
  confirm?: boolean | null; // the user's answer to a confirm question, sent once with the next request
  updatedAt: number;
}

export const taskKey = (tabId: number): string => `task_${tabId}`;

export async function loadTask(tabId: number): Promise<TaskState | null> {
  const key = taskKey(tabId);
  const got = await chrome.storage.local.get(key);
  return (got[key] as TaskState | undefined) ?? null;
}

export async function saveTask(state: TaskState): Promise<void> {
  state.updatedAt = Date.now();
  await chrome.storage.local.set({ [taskKey(state.tabId)]: state });
}

export async function allTasks(): Promise<TaskState[]> {
  const everything = await chrome.storage.local.get(null);
  return Object.entries(everything)
    .filter(([key]) => key.startsWith('task_'))
    .map(([, value]) => value as TaskState);
}

export async function loadSettings(): Promise<Settings> {
  const got = await chrome.storage.local.get(SETTINGS_KEY);
  const raw = (got[SETTINGS_KEY] ?? {}) as Partial<Settings>;
  return { serverUrl: (raw.serverUrl || DEFAULT_SERVER).replace(/\/+$/, ''), apiKey: raw.apiKey || '' };
}

export function newTask(tabId: number, goal: string, maxSteps: number): TaskState {
  return {
    tabId, goal, status: 'running', phase: 'capture', taskId: null, sessionId: null, url: '', timestamp: 0,
    stepIndex: null, recovered: false, count: 0, maxSteps, pending: null, answer: null, report: null, armed: null,
    lastUrl: null, needsFullDom: false, needsScreenshot: false, frames: {}, floors: {}, actedAt: null, steps: [],
    paused: false, error: null, errorCode: null, evidence: null, recoveries: 0, resumes: 0, updatedAt: Date.now(),
    hook: null, dialogs: [], question: null, confirm: null,
  };
}
