"""Deterministic search-query refinement: from a user's goal to what a search engine needs.

``refine_query`` strips the request wording ("please find the current price of …") and
keeps the subject; ``query_ladder`` gives the up-to-three queries tried in turn when a
search comes back empty: the refined query, its content words only, and the content
words plus the site's name.
"""

from __future__ import annotations

import re
from typing import Final

from agent.policy.text import fold

MAX_QUERY_CHARS: Final = 400  # Tavily rejects longer queries

STOP_WORDS: Final[frozenset[str]] = frozenset(
    """a an the of for to in on at by with from about into over as is are was were be been being
    and or but if then than so that this these those it its it's i me my we our you your he she they
    them their what what's which who whom whose when where why how do does did can could would
    should will shall may might must please kindly tell show give get let find look up search out
    online web
    internet google check see know need want some any there here just also more most very""".split()
)
_COMMAND = re.compile(
    r"^(?:(?:please|kindly)\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
    r"(?:find\s+out|find|look\s+up|lookup|search\s+(?:the\s+(?:web|internet)\s+|online\s+)?for|search|google|"
    r"check|tell\s+me|show\s+me|get|what(?:'s|\s+is|\s+are)|who\s+is|where\s+is|when\s+is|how\s+much\s+(?:is|does)|"
    r"how\s+many)\b\s*",
    re.IGNORECASE,
)
_WORD: Final = re.compile(r"[\w$€£%.+-]+", re.UNICODE)


def _trim(text: str) -> str:
    text = " ".join(text.split()).strip(" ?!.,;:")
    return text[:MAX_QUERY_CHARS].rstrip()


def refine_query(goal: str) -> str:
    """The subject of a goal, without the request wording; never empty for a non-empty goal."""
    text = _trim(goal)
    stripped = _COMMAND.sub("", text, count=1)
    stripped = _COMMAND.sub("", stripped, count=1)  # "please can you look up what is …"
    return _trim(stripped) or text


def keywords(text: str) -> list[str]:
    """Content words of ``text`` in order, lower-cased, stop words and duplicates removed."""
    out: list[str] = []
    for word in _WORD.findall(fold(text)):
        word = word.strip(".+-")
        if word and word not in STOP_WORDS and word not in out:
            out.append(word)
    return out


def query_ladder(first: str, site: str | None) -> list[str]:
    """Distinct queries to try in order (at most three)."""
    words = keywords(first)
    candidates = [_trim(first), _trim(" ".join(words))]
    if site and site.casefold() not in words:
        candidates.append(_trim(" ".join([*words, site])))
    out: list[str] = []
    for query in candidates:
        if query and query.casefold() not in (q.casefold() for q in out):
            out.append(query)
    return out[:3]
