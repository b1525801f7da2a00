"""Contingencies at run time: what is in the way on the page (:mod:`.detect`) and which of
the plan's (or the built-in) contingencies answers it, within its run budget
(:mod:`.handle`). The graph node is ``agent/nodes/contingency.py``; the plan side (the
contingency model, the safe trigger/handler pairs, the built-in list) is
``planning.contingency``. See ``docs/contingencies.md``."""

from agent.contingency.detect import Blocker, detect_blocker, goal_names_overlay, overlay_controls
from agent.contingency.handle import ContingencyLog, Handling, choose, missing_element

__all__ = [
    "Blocker",
    "ContingencyLog",
    "Handling",
    "choose",
    "detect_blocker",
    "goal_names_overlay",
    "missing_element",
    "overlay_controls",
]
