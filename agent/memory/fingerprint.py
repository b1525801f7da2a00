"""A page's interactive skeleton as 16 hex characters: what a remembered step expects to see.

Two pages share a fingerprint when they offer the same kinds of controls in the same kinds
of places: the set of (role, input type, frame, kinds of the containers) of the visible
elements, each with "one" or "several", and whether a dialog or overlay covers the page.
Names, values, free text, ids, positions, order and exact counts are left out, so relabelled
buttons, a list of three links or of five (a feed, a MiniWoB episode), renumbered ids,
shuffled siblings and wrapper divs keep it; a new kind of control, a second field where there
was one, a different form or a dialog appearing change it. A looser match costs nothing in
safety: each replayed step must still find its target, uniquely, and is verified.
"""

from __future__ import annotations

from collections import Counter
from hashlib import blake2b
from typing import Final

from verification import PageState
from verification.elements import normalize_role

_MEMO_KEY: Final = "memory.fingerprint"


def _compute(page: PageState) -> str:
    # Counted on the raw fields first (one cheap pass), normalised per distinct key after.
    raw: dict[tuple[str, str | None, int, str], int] = {}
    covered = False
    for element in page.elements:
        if element.hidden:
            continue
        container = element.container
        kinds = "/".join([entry.partition(":")[0] for entry in container]) if container else ""
        key = (element.role, element.input_type, element.frame, kinds)
        raw[key] = raw.get(key, 0) + 1
        if element.occluded:
            covered = True
    counts: Counter[str] = Counter()
    for (role, input_type, frame, kinds), n in raw.items():
        kinds = kinds.lower().replace(" ", "")  # "row/form" (the text is left out)
        covered = covered or "dialog" in kinds.split("/")
        counts[f"{normalize_role(role)}|{(input_type or '').strip().lower()}|{frame}|{kinds}"] += n
    lines = sorted(f"{key}|{'1' if n == 1 else 'n'}" for key, n in counts.items())
    lines.append(f"covered={int(covered)}")
    return blake2b("\n".join(lines).encode(), digest_size=8).hexdigest()


def page_fingerprint(page: PageState) -> str:
    """16 hex characters naming the page's interactive skeleton (computed once per page)."""
    fingerprint: str = page.memo(_MEMO_KEY, lambda: _compute(page))
    return fingerprint


__all__ = ["page_fingerprint"]
