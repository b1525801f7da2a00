"""The critic (pre-execution reflection): a second look at risky or low-confidence actions.

It runs only when :func:`needs_critic` says so — the action's confidence is below 0.6,
its target's name (or the option selected) reads as destructive (delete, remove, pay,
purchase, submit order, transfer, cancel subscription …), or it navigates off the
task's site — so ordinary steps pay no latency. Approval is read from the ``approved``
flag of :class:`CriticVerdict` only, never from its prose.

Deterministic review (no gateway, or the model failed): approve when the target exists
and is actionable and the action is not destructive unless the goal itself asks for it
(a word of the same family, e.g. "remove" for a "Delete" button); an off-site navigation
is approved only when the goal names that site. Otherwise reject with a concern.
"""

from agent.critic.review import (
    CRITIC_INSTRUCTIONS,
    CriticDecision,
    CriticVerdict,
    critic_blocks,
    review_action,
    run_critic,
)
from agent.critic.risk import CONFIDENCE_THRESHOLD, critic_triggers, destructive_words, needs_critic

__all__ = [
    "CONFIDENCE_THRESHOLD",
    "CRITIC_INSTRUCTIONS",
    "CriticDecision",
    "CriticVerdict",
    "critic_blocks",
    "critic_triggers",
    "destructive_words",
    "needs_critic",
    "review_action",
    "run_critic",
]
