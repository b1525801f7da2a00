"""Self-correction (Step 3.4): what to send after an action failed verification.

Limits first (``CorrectionLimits``): ``attempts_on_step`` counts corrections already
issued for this plan step, ``consecutive_failures`` counts failed verifications in a row
*including this one*. ``attempts_on_step >= max_retries_per_step`` → FAIL
``MAX_RETRIES_EXCEEDED``; ``consecutive_failures >= max_consecutive_failures`` → FAIL
``MAX_CONSECUTIVE_FAILURES``. Under the limits, the model (``CorrectionSuggestion``) or the
deterministic ladder picks a strategy:

* target gone or hidden → ALTERNATIVE_SELECTOR (best *other* element with the same label,
  via ``agent.policy.match_elements``); none → RETRY_WITH_DELAY on attempt 1, else FAIL;
* target covered or outside the viewport → SCROLL_INTO_VIEW ``scroll(id)``;
* target disabled → RETRY_WITH_DELAY on attempt 1, else an alternative or FAIL;
* an error message appeared → ALTERNATIVE_SELECTOR, else FAIL;
* a value did not land → ALTERNATIVE_SELECTOR, else RETRY_WITH_DELAY on attempt 1, else FAIL;
* anything else (no change, …) → RETRY_WITH_DELAY on attempt 1; later an alternative,
  else REFRESH_PAGE (``navigate(<current url>)``) — FAIL for navigate/goBack, and FAIL when
  the page holds values the task typed or chose (``keep_page``, decided by
  :func:`typed_on_page` from the task's verified actions since the page last loaded).

Before all of it, a submit (a button click, Enter) the page refused with validation errors —
fields marked invalid, required fields left empty, error messages naming fields
(:func:`check_form`) — is answered FILL_FIELD: the goal's value (its contract's clause for
that field) typed into the first such field, then the submit again; when the goal gives
none, the task ends ``FORM_NEEDS_INPUT`` with a reason naming the fields ("The form needs:
Date of birth, Postcode"). A limit reached on such a page names them too.

A retry is two requests: ``action`` is ``wait(<delay>)`` and ``retry_action`` holds the
failed action, to be re-validated and sent *after* the wait verified. SCROLL_INTO_VIEW
likewise carries the original action in ``retry_action``. A model suggestion whose action
does not validate on the page (an unknown id, the same id for an "alternative", a bad
URL) is dropped and the ladder decides; so is a REFRESH_PAGE, a navigate, a goBack or a
click on a link to another document when ``keep_page``.
"""

from agent.correction.engine import correction_blocks, plan_correction
from agent.correction.form import FieldProblem, FormCheck, check_form, form_problems, is_submit
from agent.correction.ladder import find_alternative, ladder_correction, offscreen
from agent.correction.schema import (
    CORRECTION_INSTRUCTIONS,
    CorrectionDecision,
    CorrectionLimits,
    CorrectionSuggestion,
    FailureCode,
    ModelStrategy,
    Strategy,
    to_record,
)
from agent.correction.typed import typed_on_page

__all__ = [
    "CORRECTION_INSTRUCTIONS",
    "CorrectionDecision",
    "CorrectionLimits",
    "CorrectionSuggestion",
    "FailureCode",
    "FieldProblem",
    "FormCheck",
    "ModelStrategy",
    "Strategy",
    "check_form",
    "correction_blocks",
    "find_alternative",
    "form_problems",
    "is_submit",
    "ladder_correction",
    "offscreen",
    "plan_correction",
    "to_record",
    "typed_on_page",
]
