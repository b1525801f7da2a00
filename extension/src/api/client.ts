// The Stepwise API as the worker calls it (the same calls as client/api.py): interact with an
// Idempotency-Key, the active-task recovery route, readyz. A 429 is retried once after its
// Retry-After; a lost answer (network error) is re-sent once with the same key; a 409
// IDEMPOTENCY_KEY_IN_FLIGHT is waited out a few times. Only the worker and the options page
// import this module: the API key never reaches a content script or a page.
import type { paths } from './schema';
import type { ActiveTask, ErrorResponse, InteractRequest, InteractResponse } from './types';
import type { Settings } from '../shared/state';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_RETRY_AFTER_S = 60;
const WAITS_WHILE_IN_FLIGHT = 5;
const REQUEST_TIMEOUT_MS = 90_000;

type ReadyzOk = paths['/readyz']['get']['responses'][200]['content']['application/json'];

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfter(response: Response): number {
  const seconds = Number(response.headers.get('Retry-After') ?? '1');
  return Math.min(Math.max(Number.isFinite(seconds) ? seconds : 1, 0), MAX_RETRY_AFTER_S) * 1000;
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as ErrorResponse;
    if (body && body.error) return new ApiError(response.status, body.error.code || 'HTTP_ERROR', body.error.message || response.statusText);
  } catch {
    // not JSON: the text says what happened
  }
  return new ApiError(response.status, 'HTTP_ERROR', text.slice(0, 300) || response.statusText);
}

export class StepwiseApi {
  constructor(private readonly settings: Settings) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json', ...extra };
    if (this.settings.apiKey) headers.Authorization = `Bearer ${this.settings.apiKey}`;
    return headers;
  }

  private async send(method: string, path: string, init: { body?: string; headers?: Record<string, string>; resend?: boolean } = {}): Promise<unknown> {
    let rateLimited = 0;
    let lost = 0;
    let inFlight = 0;
    for (;;) {
      let response: Response;
      try {
        response = await fetch(this.settings.serverUrl + path, {
          method,
          headers: this.headers(init.headers),
          body: init.body,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          credentials: 'omit',
        });
      } catch (error) {
        if (init.resend && lost < 1) { // the answer may have been decided and lost: the key gets it back
          lost += 1;
          continue;
        }
        throw new ApiError(0, 'UNREACHABLE', `${method} ${this.settings.serverUrl}${path} failed (is the server running at that address? see Settings): ${error instanceof Error ? error.message : String(error)}`);
      }
      if (response.status === 429 && rateLimited === 0) {
        rateLimited += 1;
        await sleep(retryAfter(response));
        continue;
      }
      if (response.ok) return response.json();
      const error = await errorOf(response);
      if (init.resend && error.code === 'IDEMPOTENCY_KEY_IN_FLIGHT' && inFlight < WAITS_WHILE_IN_FLIGHT) {
        inFlight += 1;
        await sleep(retryAfter(response));
        continue;
      }
      throw error;
    }
  }

  /** POST /api/agent/interact with the given key (the same key on a re-send after a worker restart). */
  async interact(body: InteractRequest, key: string): Promise<InteractResponse> {
    return await this.send('POST', '/api/agent/interact', {
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', [IDEMPOTENCY_HEADER]: key },
      resend: true,
    }) as InteractResponse;
  }

  /** GET /api/session/{id}/task/active?url=; null when the session has no active task (404). */
  async activeTask(sessionId: string, url: string): Promise<ActiveTask | null> {
    try {
      const query = new URLSearchParams({ url }).toString();
      return await this.send('GET', `/api/session/${encodeURIComponent(sessionId)}/task/active?${query}`) as ActiveTask;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }

  /** Whether the server answers /readyz, and whether the key is accepted (GET /api/tasks). */
  async check(): Promise<{ ready: boolean; authorized: boolean; message: string }> {
    let ready = false;
    try {
      const response = await fetch(this.settings.serverUrl + '/readyz', { signal: AbortSignal.timeout(5000), credentials: 'omit' });
      ready = response.ok;
      if (ready) (await response.json()) as ReadyzOk;
    } catch (error) {
      return { ready: false, authorized: false, message: `server not reachable: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!ready) return { ready, authorized: false, message: 'the server answers but is not ready (/readyz)' };
    try {
      await this.send('GET', '/api/tasks');
      return { ready, authorized: true, message: 'server ready, API key accepted' };
    } catch (error) {
      const text = error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : String(error);
      return { ready, authorized: false, message: `server ready, but the API key was refused (${text})` };
    }
  }
}
