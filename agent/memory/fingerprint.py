"""A page's interactive skeleton as 16 hex characters: what a remembered step expects to see.

Two pages share a fingerprint when they offer the same kinds of controls in the same kinds
of places: the multiset of (role, input type, frame, kinds of the containers) of the visible
elements, and whether a dialog or overlay covers the page. Names, values, free text, ids,
positions and order are left out, so relabelled buttons (a MiniWoB episode), renumbered
ids, shuffled siblings and wrapper divs keep it; a new field, a different form or a dialog
appearing change it.
"""

from __future__ import annotations

from collections import Counter
from hashlib import blake2b
from typing import Final

from verification import PageState
from verification.elements import normalize_role

_MEMO_KEY: Final = "memory.fingerprint"


def _kinds(container: tuple[str, ...]) -> str:
    """``("row: Bob · 42", "form: New visit")`` → ``"row/form"`` (the text is left out)."""
    return "/".join(entry.partition(":")[0].strip().lower() for entry in container)


def _compute(page: PageState) -> str:
    counts: Counter[tuple[str, str, int, str]] = Counter()
    covered = False
    for element in page.elements:
        if element.hidden:
            continue
        kinds = _kinds(element.container) if element.container else ""
        if element.occluded or "dialog" in kinds:
            covered = True
        counts[(normalize_role(element.role), (element.input_type or "").lower(), element.frame, kinds)] += 1
    lines = sorted(f"{role}|{ty}|{frame}|{kinds}|{n}" for (role, ty, frame, kinds), n in counts.items())
    lines.append(f"covered={int(covered)}")
    return blake2b("\n".join(lines).encode(), digest_size=8).hexdigest()


def page_fingerprint(page: PageState) -> str:
    """16 hex characters naming the page's interactive skeleton (computed once per page)."""
    fingerprint: str = page.memo(_MEMO_KEY, lambda: _compute(page))
    return fingerprint


__all__ = ["page_fingerprint"]
