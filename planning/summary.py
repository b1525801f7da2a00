"""Rolling summarisation of a task's history: the last actions verbatim, the rest as one line.

Long tasks would otherwise grow every prompt by one line per action. The prompt gets
``"N earlier steps completed (k verified, m failed)."`` followed by the last
:data:`KEEP_LAST` actions as they were issued (:meth:`HistoryWindow.as_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

KEEP_LAST: Final = 10
VERIFIED_WORDS: Final[frozenset[str]] = frozenset({"verified", "success", "succeeded", "passed", "ok"})
FAILED_WORDS: Final[frozenset[str]] = frozenset({"failed", "failure", "fail", "error"})


@dataclass(frozen=True)
class HistoryWindow:
    """``summary_line`` is empty when nothing was summarised."""

    summary_line: str
    recent: list[str] = field(default_factory=list)

    def as_text(self) -> str:
        """The text for the ``previous_actions`` block."""
        return "\n".join([self.summary_line, *self.recent] if self.summary_line else self.recent)


def _word(verdict: str | None) -> str:
    return (verdict or "").strip().lower()


def action_line(step_index: int, action: str, verdict: str | None) -> str:
    """``step 3: click("14") — verified``; an action not verified yet says so."""
    return f"step {step_index}: {action} — {_word(verdict) or 'not verified yet'}"


def summarise_history(
    actions: Sequence[tuple[int, str, str | None]], keep_last: int = KEEP_LAST
) -> HistoryWindow:
    """``actions`` are ``(step_index, action, verdict word)`` oldest first. Verdict words
    ``verified``/``success``/``passed`` count as verified and ``failed``/``error`` as failed;
    anything else (``None``, ``corrected``…) counts in neither."""
    if keep_last < 0:
        raise ValueError(f"keep_last must be >= 0, got {keep_last!r}")
    split = max(len(actions) - keep_last, 0)
    older, recent = actions[:split], actions[split:]
    summary = ""
    if older:
        verified = sum(1 for _, _, verdict in older if _word(verdict) in VERIFIED_WORDS)
        failed = sum(1 for _, _, verdict in older if _word(verdict) in FAILED_WORDS)
        noun = "step" if len(older) == 1 else "steps"
        summary = f"{len(older)} earlier {noun} completed ({verified} verified, {failed} failed)."
    return HistoryWindow(summary, [action_line(*item) for item in recent])
