// The page script's API (client/page_script/install.js), installed on window.__stepwise in the
// extension's isolated world by page_script.js before this content script runs.

export interface PageApi {
  version: number;
  arm(): string;
  witness(): { docId: string; didDomMutate: boolean; didNetworkOccur: boolean; events: string[]; quietMs: number };
  quietMs(): number;
  extract(options: unknown): Record<string, unknown>;
  find(id: string): Element | null;
  inspect(ids: string[], reveal: string | null): Record<string, unknown>;
  isVisible(el: Element): boolean;
  markTyped(el: Element): void;
  roleOf(el: Element): string;
  valueOf(el: Element): string | undefined;
}

declare global {
  interface Window {
    __stepwise?: PageApi;
    __stepwiseContent?: boolean;
    __stepwiseNextId?: number;
    __stepwiseIdPrefix?: string;
  }
}

export function pageApi(): PageApi {
  const api = window.__stepwise;
  if (!api) throw new Error('the page script is not installed in this frame');
  return api;
}

/** An action that cannot run, with the error code the Python client uses for the same case. */
export class ActionError extends Error {
  constructor(message: string, readonly code = 'ACTION_FAILED') {
    super(message);
  }
}
