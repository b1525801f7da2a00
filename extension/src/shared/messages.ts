// The message protocol. Panel -> worker (chrome.runtime.sendMessage; accepted only from the
// extension's own pages) and worker -> content script (chrome.tabs.sendMessage to one frame).
import type { Action } from './actions';

export type PanelCommand =
  | { type: 'run'; goal: string; tabId: number; maxSteps?: number }
  | { type: 'pause'; tabId: number }
  | { type: 'resume'; tabId: number }
  | { type: 'stop'; tabId: number }
  | { type: 'ping' }
  | { type: 'testSettings' };

export interface ExtractArgs {
  prefix: string;
  floor: number;
  frame: number;
  offset: [number, number];
  pruneToViewport: boolean;
  maxNodes: number;
  withText: boolean;
}

export type ContentRequest =
  | { type: 'hello' }
  | { type: 'extract'; args: ExtractArgs }
  | { type: 'fullDom' }
  | { type: 'arm' }
  | { type: 'witness' }
  | { type: 'quiet' }
  | { type: 'inspect'; ids: string[]; reveal: string | null }
  | { type: 'execute'; action: Action };

/** A frame's answer to `hello`: whether it is one the snapshot takes (same origin as the top). */
export interface Hello {
  url: string;
  origin: string;
  top: boolean;
  sameOriginAsTop: boolean;
  offset: [number, number] | null; // the frame's position in the top viewport (null: cross-origin)
  readyState: DocumentReadyState;
}

export interface ExtractResult {
  tree: Array<{ i: string } & Record<string, unknown>>;
  title: string;
  viewport: { width: number; height: number };
  scrollPosition: string;
  messages: Array<{ kind: string; text: string }>;
  text?: string;
  docId: string;
}

export interface WitnessResult {
  docId: string;
  didDomMutate: boolean;
  didNetworkOccur: boolean;
  events: string[];
  quietMs: number;
}

export interface QuietResult {
  quietMs: number;
  readyState: DocumentReadyState;
}

export interface ExecuteResult {
  ok: boolean;
  error?: string;
  code?: string;
}

export type ContentResponse<T> = { ok: true; value: T } | { ok: false; error: string };
