"""Live progress of a run on a terminal: step, thought, action, verdict and tier, timings.

Every line goes through ``mask`` first: ``stepwise run`` passes one that shows the goal's
secrets as ``[secret:N]`` (the answer's action carries the real value: the browser types it)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from client.records import RunResult, StepEvent, StepRecord


class ProgressPrinter:
    """An ``on_step`` callback that prints each step as it happens."""

    def __init__(self, stream: TextIO | None = None, *, quiet: bool = False, mask: Callable[[str], str] = str) -> None:
        self.stream = stream or sys.stdout
        self.quiet = quiet
        self.mask = mask

    def _print(self, text: str) -> None:
        if not self.quiet:
            self._line(text)

    def _line(self, text: str) -> None:
        print(self.mask(text), file=self.stream, flush=True)

    def __call__(self, event: StepEvent, step: StepRecord) -> None:
        if event == "decided":
            self._print(f"step {step.index + 1:>2}  {step.thought or '(no thought)'}")
            server = f"{step.server_ms:.0f} ms" if step.server_ms is not None else "?"
            self._print(f"         decided by {step.decided_by or '?'} · server {server} · round trip {step.round_trip_ms:.0f} ms")
        elif event == "executed":
            actions = step.actions or [step.action]
            what = " → ".join(actions)
            if step.action_status == "terminal":
                self._print(f"         {what}")
                return
            status = "ok" if step.action_status == "success" else f"FAILED: {step.action_error}"
            settle = "" if step.stable is not False else " (page still busy after the wait)"
            self._print(f"         {what}  {status}  · client {step.client_ms:.0f} ms{settle}")
        elif event == "verified" and step.verification is not None:
            v = step.verification
            mark = "✓" if v.get("success") else "✗"
            confidence = v.get("confidence")
            conf = f", confidence {confidence:.2f}" if isinstance(confidence, (int, float)) else ""
            self._print(f"         {mark} verified: {'success' if v.get('success') else 'failure'} (tier {v.get('tier')}{conf}) — {v.get('reason', '')}")

    def summary(self, result: RunResult, elapsed_s: float) -> None:
        steps = len(result.steps)
        word = {"completed": "Completed", "failed": "Failed", "needs_confirmation": "Done, but the page cannot prove it: please check",
                "max_steps": "Stopped at the step limit",
                "error": "Error", "stopped": "Stopped", "needs_user_input": "Needs your input"}[result.status]
        line = f"{word} after {steps} step{'s' if steps != 1 else ''} in {elapsed_s:.1f} s"
        line += f" · model calls {result.model_calls} · tokens {result.input_tokens}+{result.output_tokens}"
        self._line(line)
        if result.error:
            code = f" [{result.error_code}]" if result.error_code else ""
            self._line(f"  {result.error}{code}")
        for clause in (result.contract or {}).get("clauses", []):
            mark = {"holds": "✓", "failed": "✗"}.get(clause.get("status"), "·")
            evidence = clause.get("evidence") or {}
            why = evidence.get("observation") or clause.get("detail") or ""
            self._line(f"  {mark} {clause.get('description')}" + (f" — {why}" if why else ""))
