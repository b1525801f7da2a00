"""What every intent frame returns, and the small helpers frames share."""

from __future__ import annotations

from dataclasses import dataclass

from planning import PlanStep
from verification.contract import Clause, ValueSource


@dataclass(frozen=True)
class Frame:
    steps: list[PlanStep]
    means: tuple[str, ...] = ()  # words that only say how (the verb phrase, slot keywords)
    edits: bool = False  # the clause opens a record's form: what follows is saved by its commit
    read: ValueSource | None = None  # the value of its fill step (or, with no steps, of the next one) is read
    results: tuple[Clause, ...] = ()  # what shows once its steps are done (a deleted record is gone)


def step(kind: str, description: str, *, target: str | None = None, value: str | None = None, criterion: str) -> PlanStep:
    return PlanStep(index=0, kind=kind, description=description, target=target, value=value, success_criterion=criterion)  # type: ignore[arg-type]


def original(raw: str, folded: str, start: int, end: int) -> str:
    """The user's own spelling of ``folded[start:end]`` (folding keeps ASCII lengths)."""
    if len(raw) == len(folded):
        return raw[start:end]
    return folded[start:end]


def unquote(value: str) -> str:
    value = value.strip().rstrip(".!,;")
    for open_, close in (('"', '"'), ("“", "”"), ("'", "'")):
        if len(value) >= 2 and value.startswith(open_) and value.endswith(close):
            return value[1:-1]
    return value
