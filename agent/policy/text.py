"""Text normalisation shared by goal parsing and element matching."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from planning import fold

_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
# A value the user quoted: "…", “…”, ‘…’ or '…' (an apostrophe inside a word is not a quote).
QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<![A-Za-z0-9])'([^']+)'(?![A-Za-z0-9])")


def quoted_text(match: re.Match[str]) -> str:
    """The text inside a :data:`QUOTED` match, whichever quotes it used."""
    return next(g for g in match.groups() if g is not None)
FUZZY_WEIGHT = 0.85
FUZZY_FLOOR = 0.5  # below this a score never matters (match threshold is 0.6)


@lru_cache(maxsize=8192)
def _tokens(folded: str) -> frozenset[str]:
    return frozenset(_WORD.findall(folded))


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def similarity(a: str, b: str) -> float:
    """0..1 closeness of two short labels: exact, containment, token overlap, then fuzzy
    (typos). The fuzzy ratio is computed only when it could change the answer."""
    fa, fb = fold(a), fold(b)
    if not fa or not fb:
        return 0.0
    if fa == fb:
        return 1.0
    ta, tb = _tokens(fa), _tokens(fb)
    if ta and ta == tb:
        return 0.97
    overlap = len(ta & tb) / len(ta | tb) if ta and tb else 0.0
    contained = 0.0
    if ta and ta <= tb:
        contained = 0.75 + 0.2 * (len(ta) / len(tb))
    elif tb and tb <= ta:
        contained = 0.6 + 0.2 * (len(tb) / len(ta))
    best = max(overlap * 0.9, contained)
    # Upper bound of the fuzzy score from lengths alone: skip difflib when it cannot win.
    if FUZZY_WEIGHT * 2 * min(len(fa), len(fb)) / (len(fa) + len(fb)) <= max(best, FUZZY_FLOOR):
        return best
    matcher = SequenceMatcher(None, fa, fb, autojunk=False)
    if matcher.quick_ratio() * FUZZY_WEIGHT <= max(best, FUZZY_FLOOR):
        return best
    return max(best, matcher.ratio() * FUZZY_WEIGHT)
