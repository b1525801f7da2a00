"""What the no-model policy declines: goals that ask for arithmetic, a comparison, a guess
or a judgement of meaning. The page does not state the answer to those, and the policy
never guesses one; with no model the task ends at once with ``NEEDS_MODEL`` and this reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from agent.policy.lexicon import NEEDS_MODEL
from verification.contract import fold


@dataclass(frozen=True)
class ModelNeed:
    what: str  # "arithmetic", "a guess", …
    phrase: str  # the goal's words that ask for it

    def reason(self) -> str:
        return (
            f"This goal needs {self.what} ({self.phrase!r}), and without a model Stepwise does not "
            "compute, compare or guess an answer the page does not state. Configure a model "
            "(GEMINI_API_KEY), or say the exact value or element to use."
        )


def _pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    ordered = sorted(phrases, key=len, reverse=True)
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(re.escape(p) for p in ordered) + r")(?![a-z0-9])")


_NEEDS: Final = tuple((what, _pattern(phrases)) for what, phrases in NEEDS_MODEL.items())
_QUOTED: Final = re.compile(r"\"[^\"]*\"|“[^”]*”|(?<![a-z0-9])'[^']*'(?![a-z0-9])")


def model_need(goal: str, unread: Iterable[str]) -> ModelNeed | None:
    """What of ``goal`` only a model could do, among the words the policy could not read
    (``unread``): a word that named an element ("the Best Sellers link") asks for nothing,
    nor do quoted values, the user's own words ("Type 'best offer'")."""
    left = {w for phrase in unread for w in fold(phrase).split()}
    text = _QUOTED.sub(" ", fold(goal))
    for what, pattern in _NEEDS:
        for found in pattern.finditer(text):
            if found.group(0).split()[0] in left:
                return ModelNeed(what, found.group(0))
    return None
