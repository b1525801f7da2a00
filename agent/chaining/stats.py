"""A task's chains in figures (task detail, bench): how many were sent and how they went."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from storage import TaskAction


def chain_stats(actions: Iterable[TaskAction]) -> dict[str, int]:
    """``sent``/``actions_sent``: chains answered and their actions; ``complete``/``partial``/
    ``failed``: verified chains that ran through and hold, stopped after their first action,
    or whose first action did not hold; ``actions_executed``: chained actions the client ran;
    ``round_trips_saved``: requests the chains spared (each chain's executed actions but one)."""
    out = {"sent": 0, "actions_sent": 0, "complete": 0, "partial": 0, "failed": 0, "actions_executed": 0, "round_trips_saved": 0}
    for action in actions:
        if not action.actions:
            continue
        out["sent"] += 1
        out["actions_sent"] += len(action.actions)
        checks: list[dict[str, Any]] = (action.verification or {}).get("chain") or []
        if not checks:
            continue
        stopped = next((c for c in checks if c.get("status") in ("failed", "not_run")), None)
        key = "complete" if stopped is None else ("failed" if stopped.get("index") == 0 else "partial")
        out[key] += 1
        ran = sum(1 for c in checks if c.get("ran", True))
        out["actions_executed"] += ran
        out["round_trips_saved"] += max(ran - 1, 0)
    return out
