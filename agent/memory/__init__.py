"""Memory that is verified: skills learned from corrections, and replay of proven flows.

* :mod:`agent.memory.skills` — a correction the page proved, kept as (goal template,
  failed action, successful action) per tenant and site; admitted after a second task
  confirms it, ranked by a lower confidence bound with time decay, used above a 50 % gate:
  it steers the policy's (and the model's) choice away from a known dead end and is given
  to the model as hints.
* :mod:`agent.memory.recipes` — a task whose contract the page proved, replayed on a
  page with the same fingerprint, each target re-identified uniquely, each step verified.
* :mod:`agent.memory.status` — what memory did for an answer (``memory`` in every answer).

The pure parts: page fingerprints, semantic targets and their re-identification, goal
templates, the secret scrub and the ranking live in their own modules.
"""

from agent.memory.load import load_memory
from agent.memory.recipes import choose, serve
from agent.memory.remember import Lesson, goal_values, remember
from agent.memory.skills import Applicable, hints, steer, steer_action
from agent.memory.status import MemoryContext, MemoryStatus, RecallState, ReplayStatus

__all__ = [
    "Applicable",
    "Lesson",
    "MemoryContext",
    "MemoryStatus",
    "RecallState",
    "ReplayStatus",
    "choose",
    "goal_values",
    "hints",
    "load_memory",
    "remember",
    "serve",
    "steer",
    "steer_action",
]
