"""Dynamic interrupt: the action step reported ``MISSING_INFO: [...]`` mid-flight.

Each missing item is *private* (only the user can know it: their name, e-mail, password,
phone, address, account or order number …) or *external* (public knowledge). Private
items are looked up in earlier user messages; what is still missing is asked for.
External items are searched when a search client is configured, else asked for — the
agent never invents a form value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from agent.policy.text import fold
from agent.reasoning.blocks import ChatMessage
from agent.reasoning.rules import Missing, memory_answers, slot_for
from agent.reasoning.schema import ContextAnalysis, Source
from agent.search.query import refine_query

_PRIVATE: Final = re.compile(
    r"\b(?:my|your|our|name|e-?mail|password|passcode|pin|username|user name|login|phone|mobile|"
    r"address|date of birth|birthday|dob|card|account|order number|booking reference|"
    r"reference number|ssn|social security|passport|licen[cs]e number|signature)\b"
)


def is_private(item: str) -> bool:
    return bool(_PRIVATE.search(fold(item)))


def resolve_missing_info(
    missing: Sequence[str],
    *,
    history: Sequence[ChatMessage] = (),
    search_available: bool = False,
) -> ContextAnalysis:
    """Where each missing item should come from (see the module doc)."""
    items = [m.strip() for m in missing if m.strip()]
    private = [Missing(m, slot_for(m)) for m in items if is_private(m)]
    external = [m for m in items if not is_private(m)]
    remembered = memory_answers(private, history)
    ask = [m.label for m in private if m not in remembered]
    if not search_available:
        ask += external
    if ask or not items:
        return ContextAnalysis(
            source="ASK_USER",
            missing_information=ask,
            reason="The next step needs values the agent does not have.",
        )
    if external:
        sources: list[Source] = (
            ["WEB_SEARCH", "MEMORY", "PAGE"] if remembered else ["WEB_SEARCH", "PAGE"]
        )
        return ContextAnalysis(
            source="WEB_SEARCH",
            required_sources=sources,
            search_query=refine_query(" ".join(external)),
            reason="The next step needs public information; searching for it.",
        )
    return ContextAnalysis(
        source="MEMORY",
        required_sources=["MEMORY", "PAGE"],
        reason="Earlier messages give the missing values.",
    )
