"""A task's records with its secrets as placeholders (what is stored and answered), and back
(what a request works with).

``conceal_batch`` is applied to everything ``finalize`` writes; ``reveal_task`` and
``reveal_action`` to what a request loads, so the policy re-reads the real goal and the
verifier compares a field with the real typed value. Ids, versions and times are never
touched: only the text fields listed here.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from agent.sealing import Sealer
from agent.secrets import TaskSecrets
from observability import Masker
from storage import FinalizeBatch, Task, TaskAction

SEALED_KEY = "sealed"  # task.state key of the sealed values (ciphertext only)

M = TypeVar("M", bound=BaseModel)

_TASK_FIELDS = ("query", "plan", "state", "failure_reason", "metrics")
_ACTION_FIELDS = ("thought", "action", "actions", "expected_outcome", "before_state", "verification", "metrics", "answer")
_MESSAGE_FIELDS = ("content", "action", "action_error")
_CORRECTION_FIELDS = ("reason", "original_action", "corrected_action")


class _Concealer:
    def __init__(self, secrets: TaskSecrets) -> None:
        self._masker = Masker.of(secrets.numbered())

    def text(self, text: str) -> str:
        return self._masker.mask(text)

    def deep(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: (v if k == SEALED_KEY else self.deep(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [self.deep(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.deep(v) for v in value)
        return value

    def model(self, record: M, fields: tuple[str, ...]) -> M:
        return record.model_copy(update={f: self.deep(getattr(record, f)) for f in fields})


def conceal_text(text: str, secrets: TaskSecrets) -> str:
    return _Concealer(secrets).text(text) if secrets else text


def conceal_batch(batch: FinalizeBatch, secrets: TaskSecrets, sealer: Sealer) -> FinalizeBatch:
    """The batch as it is written: placeholders for the values, the values sealed."""
    if not secrets:
        return batch
    c = _Concealer(secrets)
    state = {**batch.task.state, SEALED_KEY: sealer.seal(secrets.values)}
    task = c.model(batch.task.model_copy(update={"state": state}), _TASK_FIELDS)
    outcome = batch.message_outcome
    return batch.model_copy(
        update={
            "task": task,
            "actions": [c.model(a, _ACTION_FIELDS) for a in batch.actions],
            "action_updates": [(i, c.deep(fields)) for i, fields in batch.action_updates],
            "messages": [c.model(m, _MESSAGE_FIELDS) for m in batch.messages],
            "message_outcome": (outcome[0], outcome[1], c.text(outcome[2]) if outcome[2] else outcome[2]) if outcome else None,
            "verifications": [v.model_copy(update={"record": c.deep(v.record)}) for v in batch.verifications],
            "corrections": [c.model(r, _CORRECTION_FIELDS) for r in batch.corrections],
        }
    )


def open_secrets(task: Task, sealer: Sealer) -> TaskSecrets:
    """The task's sealed values (raises agent.sealing.SecretsUnreadable)."""
    token = task.state.get(SEALED_KEY)
    if not isinstance(token, str):
        return TaskSecrets()
    return TaskSecrets(sealer.open(token))


def _reveal(value: Any, secrets: TaskSecrets) -> Any:
    if isinstance(value, str):
        return secrets.reveal_text(value)
    if isinstance(value, dict):
        return {k: (v if k == SEALED_KEY else _reveal(v, secrets)) for k, v in value.items()}
    if isinstance(value, list):
        return [_reveal(v, secrets) for v in value]
    return value


def reveal_task(task: Task, secrets: TaskSecrets) -> Task:
    if not secrets:
        return task
    return task.model_copy(update={f: _reveal(getattr(task, f), secrets) for f in _TASK_FIELDS})


def reveal_action(action: TaskAction, secrets: TaskSecrets) -> TaskAction:
    if not secrets:
        return action
    return action.model_copy(update={f: _reveal(getattr(action, f), secrets) for f in _ACTION_FIELDS})
