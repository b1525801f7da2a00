// Rendering the task record into the panel's DOM (the DOM contract the e2e tests read).
import type { Clause, Contract } from '../api/types';
import type { StepView, TaskState } from '../shared/state';

const STATUS_TEXT: Record<string, string> = {
  idle: 'Idle — type a goal and press Run', running: 'Running…', paused: 'Paused', completed: 'Completed',
  failed: 'Failed', needs_user_input: 'Needs your input', needs_confirmation: 'Needs your confirmation',
  error: 'Error', max_steps: 'Stopped at the step limit', stopped: 'Stopped',
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function clauses(contract: Contract | null | undefined): HTMLElement {
  const list = el('ul', { class: 'contract', 'aria-label': 'Goal contract' });
  for (const clause of contract?.clauses ?? []) {
    const item = el('li', { class: 'clause', 'data-state': clause.status, 'data-kind': clause.kind }, clauseText(clause));
    list.append(item);
  }
  return list;
}

const clauseText = (clause: Clause): string => `${clause.description} — ${clause.status}${clause.detail ? ` (${clause.detail})` : ''}`;

function stepItem(step: StepView): HTMLLIElement {
  const item = el('li', { class: 'step', 'data-step-index': String(step.index), 'data-server-step': String(step.serverStepIndex) });
  const head = el('div', { class: 'head' });
  head.append(el('span', {}, `Step ${step.index + 1}`), el('span', {}, `${step.decidedBy} · ${step.status}`));
  item.append(head, el('p', { class: 'thought' }, step.thought));
  const action = el('div', { class: 'action', 'data-status': step.actionStatus ?? '' });
  if (step.actions.length) {
    const list = el('ol');
    for (const text of step.actions) {
      const entry = el('li');
      entry.append(el('code', {}, text));
      list.append(entry);
    }
    action.append('Chain: ', list);
  } else {
    action.append(el('code', {}, step.action));
  }
  item.append(action);
  if (step.actionError) item.append(el('p', { class: 'error' }, step.actionError));
  const verdict = step.verdict;
  item.append(el('div', {
    class: 'verdict',
    'data-success': verdict ? String(verdict.success) : '',
    'data-tier': verdict ? String(verdict.tier) : '',
  }, verdict ? `${verdict.success ? 'Verified' : 'Not verified'} (tier ${verdict.tier}): ${verdict.reason}`
    : step.actionStatus === 'terminal' ? 'Nothing to verify: the task ended here (see the status)' : 'Verification comes with the next answer'));
  item.append(clauses(step.contract));
  if (step.memory) item.append(el('div', { class: 'memory' }, `Memory: ${step.memory}`));
  return item;
}

function evidence(state: TaskState): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (state.evidence) {
    out.push(el('p', { class: 'final-thought' }, state.evidence.thought));
    const proven = (state.evidence.contract?.clauses ?? []).filter((c) => c.status === 'holds');
    if (proven.length) {
      const list = el('ul', { 'aria-label': 'Proven on the page' });
      for (const clause of proven) list.append(el('li', { class: 'clause', 'data-state': clause.status }, clauseText(clause)));
      out.push(el('p', {}, 'Proven on the page:'), list);
    }
    if (state.evidence.failureCode) out.push(el('p', { class: 'error', 'data-failure-code': state.evidence.failureCode }, `Failure code: ${state.evidence.failureCode}`));
  }
  if (state.error && state.status !== 'completed') out.push(el('p', { class: 'error' }, state.errorCode ? `${state.errorCode}: ${state.error}` : state.error));
  return out;
}

export function render(state: TaskState | null): void {
  const status = document.getElementById('status') as HTMLElement;
  const shown = state?.status ?? 'idle';
  status.dataset.status = shown;
  status.textContent = STATUS_TEXT[shown] ?? shown;
  const evidenceBox = document.getElementById('evidence') as HTMLElement;
  evidenceBox.replaceChildren(...(state ? evidence(state) : []));
  const steps = document.getElementById('steps') as HTMLOListElement;
  steps.replaceChildren(...(state?.steps ?? []).map(stepItem));
  const running = shown === 'running' || shown === 'paused';
  (document.getElementById('run') as HTMLButtonElement).disabled = running;
  const pause = document.getElementById('pause') as HTMLButtonElement;
  pause.disabled = !running;
  pause.textContent = shown === 'paused' ? 'Resume' : 'Pause';
  pause.setAttribute('aria-pressed', String(shown === 'paused'));
  (document.getElementById('stop') as HTMLButtonElement).disabled = !running;
  if (state && !(document.getElementById('goal') as HTMLTextAreaElement).value) {
    (document.getElementById('goal') as HTMLTextAreaElement).value = state.goal;
  }
}
