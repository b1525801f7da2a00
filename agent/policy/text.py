"""Text normalisation shared by goal parsing and element matching."""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")


def fold(text: str) -> str:
    """Lower-case, accent-free, whitespace-collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.lower().split())


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def similarity(a: str, b: str) -> float:
    """0..1 closeness of two short labels: exact, containment, token overlap, then fuzzy."""
    fa, fb = fold(a), fold(b)
    if not fa or not fb:
        return 0.0
    if fa == fb:
        return 1.0
    ta, tb = set(words(fa)), set(words(fb))
    if ta and ta == tb:
        return 0.97
    overlap = len(ta & tb) / len(ta | tb) if ta and tb else 0.0
    contained = 0.0
    if ta and ta <= tb:
        contained = 0.75 + 0.2 * (len(ta) / len(tb))
    elif tb and tb <= ta:
        contained = 0.6 + 0.2 * (len(tb) / len(ta))
    fuzzy = SequenceMatcher(None, fa, fb).ratio() * 0.85
    return max(overlap * 0.9, contained, fuzzy)
