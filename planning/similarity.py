"""Page similarity for re-planning: has the page changed enough that the plan may no
longer fit?

Jaccard similarity on element signatures, weighted interactive 40% / structural 60%:

- interactive signatures: ``role:name`` of every visible element (what the user can do),
  with digit runs folded to ``#`` so counters ("Inbox (3)", "Cart (1)") do not count as
  a different page;
- structural signatures: role trigrams in document order plus the page title and the URL
  key (how the page is laid out), which stay put when only values or texts change.

A plan keeps the signatures of the page it was made (or last re-validated) on
(:func:`page_signatures`, stored in ``Plan.page_signatures``), so the comparison needs no
old page: :func:`similarity_to_signatures`. A URL change (host, path, or an SPA hash route
such as ``#/patients/new``; never the query or a plain anchor) or a similarity under
:data:`REPLAN_THRESHOLD` (0.70) triggers re-planning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from verification import PageState

INTERACTIVE_WEIGHT: Final = 0.4
STRUCTURAL_WEIGHT: Final = 0.6
REPLAN_THRESHOLD: Final = 0.70
SIGNATURE_LIMIT: Final = 500  # per kind; the same cut is applied to both sides of a comparison
_DIGITS: Final = re.compile(r"\d+")


def _fold(text: str) -> str:
    return _DIGITS.sub("#", " ".join(text.lower().split()))[:60]


def url_key(url: str) -> str:
    """``host/path`` of a URL, lower-case host, no trailing slash; an SPA hash route
    (``#/…`` or ``#!/…``) is part of the key, a plain anchor (``#top``) and the query are not."""
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/") or "/"
    fragment = parts.fragment
    if fragment.startswith(("/", "!/")):
        route = fragment.lstrip("!").split("?", 1)[0].rstrip("/")
        if route:
            path = f"{path.rstrip('/')}#{route}"
    return f"{parts.netloc.lower()}{path}"


def _capped(signatures: set[str]) -> frozenset[str]:
    if len(signatures) <= SIGNATURE_LIMIT:
        return frozenset(signatures)
    return frozenset(sorted(signatures)[:SIGNATURE_LIMIT])


def interactive_signatures(page: PageState) -> frozenset[str]:
    return _capped({f"{e.role}:{_fold(e.name)}" for e in page.elements if not e.hidden})


def structural_signatures(page: PageState) -> frozenset[str]:
    roles = [e.role for e in page.elements if not e.hidden]
    grams = {"|".join(roles[i : i + 3]) for i in range(max(len(roles) - 2, 0))}
    if 0 < len(roles) < 3:
        grams.add("|".join(roles))
    grams = set(_capped(grams))
    grams.add(f"title:{_fold(page.title or '')}")
    grams.add(f"url:{url_key(page.url)}")
    return frozenset(grams)


def page_signatures(page: PageState) -> dict[str, list[str]]:
    """What a plan stores about its page (JSON-ready, sorted, at most ~1,000 short strings)."""
    return {
        "interactive": sorted(interactive_signatures(page)),
        "structural": sorted(structural_signatures(page)),
        "url": [url_key(page.url)],
    }


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


@dataclass(frozen=True)
class Similarity:
    interactive: float
    structural: float
    score: float
    url_path_changed: bool

    @property
    def replan(self) -> bool:
        return self.url_path_changed or self.score < REPLAN_THRESHOLD


def _similarity(
    interactive_a: frozenset[str],
    structural_a: frozenset[str],
    url_a: str,
    page: PageState,
) -> Similarity:
    interactive = jaccard(interactive_a, interactive_signatures(page))
    structural = jaccard(structural_a, structural_signatures(page))
    score = round(INTERACTIVE_WEIGHT * interactive + STRUCTURAL_WEIGHT * structural, 6)
    return Similarity(interactive, structural, score, url_a != url_key(page.url))


def page_similarity(before: PageState, after: PageState) -> Similarity:
    return _similarity(interactive_signatures(before), structural_signatures(before), url_key(before.url), after)


def similarity_to_signatures(stored: Mapping[str, Sequence[str]], page: PageState) -> Similarity:
    """Compare a page with signatures stored by :func:`page_signatures`."""
    interactive = frozenset(stored.get("interactive", ()))
    structural = frozenset(stored.get("structural", ()))
    urls = list(stored.get("url", ()))
    if urls:
        url = urls[0]
    else:  # older records: the URL key is only inside the structural signatures
        url = next((s[len("url:") :] for s in structural if s.startswith("url:")), "")
    return _similarity(interactive, structural, url, page)
