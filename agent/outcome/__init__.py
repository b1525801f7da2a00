"""Outcome prediction (Step 1.9): what the page should show once an action worked.

The action type decides how (see ``docs/engines.md``):

* navigation — ``navigate``/``goBack``, or a click on a link (role link, ``<a>``, href):
  fixed template, ``url_should_change`` true (unknown for an in-page ``#`` or
  ``javascript:`` link). No model.
* dropdown — a click on an element that can expand (``aria-expanded`` known in the
  skeleton, ``expanded`` state, or a combobox): fixed template, URL stays, menu-like
  elements appear. No model.
* generic — everything else: the model (:class:`OutcomePrediction`, including an optional
  ``next_goal`` look-ahead) when a gateway is given, else deterministic templates
  (setValue → the field holds the value; click on submit/save → a success message, …).

The prediction feeds correction, logging and look-ahead verification; it never decides
success by itself (verification is observation-based).
"""

from agent.outcome.predict import (
    OUTCOME_INSTRUCTIONS,
    NextGoalPrediction,
    OutcomePrediction,
    OutcomeResult,
    outcome_blocks,
    predict_outcome,
    run_outcome_prediction,
)
from agent.outcome.templates import (
    MENU_SELECTOR,
    ActionType,
    classify_action,
    dropdown_template,
    generic_template,
    navigation_template,
)

__all__ = [
    "MENU_SELECTOR",
    "OUTCOME_INSTRUCTIONS",
    "ActionType",
    "NextGoalPrediction",
    "OutcomePrediction",
    "OutcomeResult",
    "classify_action",
    "dropdown_template",
    "generic_template",
    "navigation_template",
    "outcome_blocks",
    "predict_outcome",
    "run_outcome_prediction",
]
