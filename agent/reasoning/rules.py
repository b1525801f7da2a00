"""Deterministic context rules: is a required value missing, do earlier messages give it,
does the goal ask for outside information, does the page show what the goal names.

Missing values are detected conservatively — only when the goal clearly refers to a
value it does not give:

* log in / sign in with no credential in the goal (no quoted text, no e-mail address, no
  "password", "username", " as " or "with"), unless the page's password field is already
  filled (browser autofill);
* "add / create / register a (new) <record>" and nothing after the noun, for people-like
  records (patient, user, customer …) and accounts;
* "enter / type / fill in / use / update my <personal value>" (e-mail, phone, address,
  password, date of birth, card number …) with no value in the goal (no quotes, digits,
  "@", ":" or "to …").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from agent.policy.text import fold, words
from agent.reasoning.blocks import ChatMessage
from verification import PageState


@dataclass(frozen=True)
class Missing:
    label: str  # shown to the user, e.g. "the patient's name"
    slot: str  # what to look for in earlier messages


_QUOTED: Final = re.compile(r"[\"“'][^\"”']+[\"”']")
_EMAIL: Final = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_LOGIN: Final = re.compile(r"\b(?:log\s?in(?:to)?|sign\s?in(?:to)?|signin)\b")
_SSO: Final = re.compile(
    r"\b(?:with|using|via)\s+(?:google|apple|microsoft|github|facebook|sso|passkey)\b"
)
_CREDENTIAL_HINT: Final = re.compile(r"\b(?:password|passcode|username|user name|as|with|using)\b")
_RECORD: Final = re.compile(
    r"^(?:please\s+)?(?:add|create|register|make|enter)\s+(?:a|an|one|another)?\s*(?:new\s+)?"
    r"(?P<noun>patient|user|customer|client|contact|employee|member|student|person|doctor|account|"
    r"staff member|team member|lead|supplier|vendor)$"
)
_PERSONAL: Final = re.compile(
    r"\b(?:enter|type|fill(?:\s+in|\s+out)?|input|put|use|provide|update|change|set|add)\s+(?:in\s+)?"
    r"(?:my|our|his|her|their)\s+(?P<slot>e-?mail(?: address)?|phone(?: number)?|"
    r"mobile(?: number)?|(?:home |postal |billing |shipping )?address|password|username|"
    r"user name|date of birth|birthday|dob|(?:credit )?card number|zip(?: code)?|postcode|"
    r"postal code|passport number|social security number|ssn|"
    r"full name|first name|last name|name)\b"
)
_VALUE_GIVEN: Final = re.compile(r"[\"“'@:=\d]|\b(?:to|as|with|is)\s+\S")
_REFERS_BACK: Final = re.compile(
    r"\b(?:again|same as before|as before|like before|like last time|last time|as i said|"
    r"i mentioned|"
    r"mentioned earlier|from earlier|previous(?:ly)?)\b"
)
_OUTSIDE: Final = re.compile(
    r"^(?:(?:please|kindly)\s+)?(?:(?:can|could|would)\s+you\s+)?(?:"
    r"look\s?up|find\s+out|google|search\s+(?:the\s+)?(?:web|internet|online)|"
    r"(?:what(?:'s|\s+is|\s+are)|find|get|check|tell\s+me)\s+(?:me\s+)?(?:the\s+)?"
    r"(?:current|latest|today'?s|live|up[- ]to[- ]date|recent)\b)"
)
_SUBJECT_NOISE: Final[frozenset[str]] = frozenset(
    """look lookup find out google search web internet online what what's is are get check tell
    me the current latest today today's live up to date recent price prices rate rates of for a
    an in on about
    please can could would you kindly""".split()
)
_SLOT_PATTERNS: Final[dict[str, re.Pattern[str]]] = {
    "name": re.compile(r"\b(?:name\s*(?:is|:|=)|named|called)\s*\S"),
    "email": _EMAIL,
    "password": re.compile(r"\b(?:password|passcode|pwd)\s*(?:is|:|=)\s*\S"),
    "username": re.compile(
        r"\b(?:username|user name|login|user id)\s*(?:is|:|=)\s*\S|[\w.+-]+@[\w-]+\.\w"
    ),
    "phone": re.compile(r"\+?\d[\d\s().-]{6,}\d"),
    "date of birth": re.compile(r"\b(?:born|birthday|date of birth|dob)\b.{0,20}\d"),
}
_POSSESSIVES: Final[frozenset[str]] = frozenset(
    {"my", "your", "our", "his", "her", "their", "the", "a", "an", "new", "patient's", "user's"}
)
_PEOPLE: Final[frozenset[str]] = frozenset(
    {
        "patient",
        "user",
        "customer",
        "client",
        "contact",
        "employee",
        "member",
        "student",
        "person",
        "doctor",
        "staff member",
        "team member",
        "lead",
        "supplier",
        "vendor",
    }
)


def slot_for(text: str) -> str:
    """The memory slot a missing item names ("the patient's e-mail" → ``email``)."""
    folded = fold(text)
    for key, pattern in (
        ("email", r"e-?mail"),
        ("password", r"password|passcode"),
        ("username", r"username|user name|login"),
        ("phone", r"phone|mobile"),
        ("date of birth", r"date of birth|birthday|dob"),
        ("name", r"name"),
    ):
        if re.search(rf"\b(?:{pattern})\b", folded):
            return key
    kept = [w for w in words(folded) if w not in _POSSESSIVES]
    return " ".join(kept) or folded


def _password_filled(page: PageState) -> bool:
    return any(
        e.input_type == "password" or "password" in fold(e.name)
        for e in page.elements
        if e.value and not e.hidden and e.role in ("textbox", "searchbox")
    )


def missing_values(goal: str, page: PageState, *, single_action: bool = False) -> list[Missing]:
    """Values the goal refers to but does not give (see the module doc). A single page
    action ("click Log in") is never a log-in or new-record task."""
    folded = fold(goal).rstrip(" .!?")
    if not single_action and _LOGIN.search(folded) and not _SSO.search(folded):
        gives = _QUOTED.search(goal) or _EMAIL.search(goal) or _CREDENTIAL_HINT.search(folded)
        if not gives and not _password_filled(page):
            return [Missing("username or email", "username"), Missing("password", "password")]
        return []
    if not single_action and (match := _RECORD.match(folded)):
        noun = match.group("noun")
        if noun == "account":
            return [
                Missing("e-mail or username for the account", "username"),
                Missing("password", "password"),
            ]
        if noun in _PEOPLE:
            return [Missing(f"the new {noun}'s name (and any other details to enter)", "name")]
    out: list[Missing] = []
    for match in _PERSONAL.finditer(folded):
        rest = folded[match.end() :]
        if not _VALUE_GIVEN.search(rest.split(",")[0]) and not _QUOTED.search(goal):
            slot = match.group("slot")
            out.append(Missing(f"your {slot}", slot_for(slot)))
    return out


def memory_answers(missing: Sequence[Missing], history: Sequence[ChatMessage]) -> list[Missing]:
    """The missing values an earlier user message gives."""
    texts = [fold(m.content) for m in history if m.role == "user"]
    found: list[Missing] = []
    for item in missing:
        pattern = _SLOT_PATTERNS.get(item.slot) or re.compile(
            rf"\b{re.escape(item.slot)}\s*(?:is|:|=)\s*\S"
        )
        if any(pattern.search(text) for text in texts):
            found.append(item)
    return found


def refers_to_history(goal: str) -> bool:
    return bool(_REFERS_BACK.search(fold(goal)))


def asks_outside_information(goal: str) -> bool:
    return bool(_OUTSIDE.search(fold(goal)))


def outside_subject(goal: str) -> list[str]:
    return [w for w in words(goal) if w not in _SUBJECT_NOISE and len(w) > 1]


def page_text(page: PageState) -> str:
    parts = [page.title or "", page.text_summary]
    parts += [e.name for e in page.elements if not e.hidden] + [m.text for m in page.messages]
    return fold(" ".join(p for p in parts if p))


def page_mentions(page: PageState, terms: Sequence[str]) -> list[str]:
    """The terms (folded words) that appear on the page."""
    found = set(words(page_text(page)))
    return [t for t in terms if t in found]


def text_mentions(texts: Sequence[str], terms: Sequence[str]) -> list[str]:
    """The terms (folded words) that appear in ``texts`` (retrieved knowledge)."""
    found = {w for text in texts for w in words(text)}
    return [t for t in terms if t in found]
