"""The guards of an action chain (wire contract: docs/client.md "Chain guards").

Before each action after the first, the client checks that the page is still the one the
server planned on: same URL (fragment ignored), the target still there, perceivable, not
covered, with the role and name the server saw (``expect``); before an action with
``requireValues`` that the fields still hold those values; after a ``setValue``/``select``
that the field took the value. A failed guard is a :class:`GuardFailure` of one
:data:`FailureKind`; the chain stops there and never executes that action.

The page is read with the in-page script's ``inspect`` (client/page_script/guard.js): one
evaluation per frame for all the ids an action needs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final, Literal
from urllib.parse import urldefrag

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

from client.errors import ActionError
from client.input_values import SET_AS_VALUE, shaped
from client.snapshot import EVAL_TIMEOUT_S, PageProbe
from verification.contract.values import parse_number
from verification.elements import normalize_role

FailureKind = Literal[
    "target_changed", "target_missing", "covered", "url_changed", "value_mismatch", "required_value_mismatch", "error"
]
FIELD_VALUE_MAX: Final[int] = 2000  # the page script's cut of a field value (constants.js), "…" last
_INSPECT: Final[str] = (
    "([ids, reveal]) => window.__stepwise && window.__stepwise.inspect ? window.__stepwise.inspect(ids, reveal) : null"
)
_UNCHECKED: Final[frozenset[str]] = frozenset({"", "false", "0", "off", "no", "unchecked"})


@dataclass(frozen=True)
class Expect:
    """The target as the server saw it: an ARIA role and an accessible name (either may be empty)."""

    role: str = ""
    name: str = ""

    @classmethod
    def from_wire(cls, raw: object) -> Expect | None:
        if not isinstance(raw, Mapping):
            return None
        return cls(role=str(raw.get("role") or ""), name=str(raw.get("name") or ""))

    def describe(self) -> str:
        return f"{normalize_role(self.role) if self.role else 'element'} {self.name!r}"


@dataclass(frozen=True)
class Reading:
    """One element as ``inspect`` read it."""

    exists: bool
    role: str = ""
    name: str = ""
    perceivable: bool = False
    covered: bool = False
    value: str | None = None
    ty: str | None = None
    selected: tuple[tuple[str, str], ...] = ()  # a select's selected options as (value, text)
    checked: bool | None = None
    text: str | None = None

    @classmethod
    def from_page(cls, raw: Mapping[str, Any]) -> Reading:
        return cls(
            exists=bool(raw.get("exists")),
            role=str(raw.get("role") or ""),
            name=str(raw.get("name") or ""),
            perceivable=bool(raw.get("perceivable")),
            covered=bool(raw.get("covered")),
            value=raw["value"] if isinstance(raw.get("value"), str) else None,
            ty=raw["ty"] if isinstance(raw.get("ty"), str) else None,
            selected=tuple((str(o.get("value", "")), str(o.get("text", ""))) for o in raw.get("selected") or ()),
            checked=raw["checked"] if isinstance(raw.get("checked"), bool) else None,
            text=raw["text"] if isinstance(raw.get("text"), str) else None,
        )

    def describe(self) -> str:
        return f"{normalize_role(self.role)} {self.name!r}"

    def shown(self) -> str:
        """The value as a message quotes it."""
        if self.selected:
            return " / ".join(text or value for value, text in self.selected)
        if self.checked is not None and self.value is None:
            return "checked" if self.checked else "unchecked"
        held = self.value if self.value is not None else self.text
        return repr(held) if held is not None else "no readable value"


MISSING: Final[Reading] = Reading(exists=False)


@dataclass(frozen=True)
class GuardFailure:
    kind: FailureKind
    message: str


def folded(text: str) -> str:
    """Names compare after collapsing whitespace and case-folding."""
    return " ".join(text.split()).casefold()


def same_page(start_url: str, url: str) -> bool:
    return urldefrag(start_url).url == urldefrag(url).url


async def read(probe: PageProbe, ids: Sequence[str], reveal: str | None = None) -> dict[str, Reading]:
    """``inspect`` every id, one evaluation per frame. An id whose frame is gone, or whose
    page does not answer (navigating), reads as missing."""
    by_frame: dict[Frame, list[str]] = {}
    out: dict[str, Reading] = {}
    for element_id in dict.fromkeys(ids):
        try:
            by_frame.setdefault(probe.frame_of(element_id), []).append(element_id)
        except ActionError:
            out[element_id] = MISSING
    for frame, frame_ids in by_frame.items():
        try:
            raw = await asyncio.wait_for(frame.evaluate(_INSPECT, [frame_ids, reveal]), EVAL_TIMEOUT_S)
        except (PlaywrightError, TimeoutError):
            raw = None
        for element_id in frame_ids:
            found = raw.get(element_id) if isinstance(raw, Mapping) else None
            out[element_id] = Reading.from_page(found) if isinstance(found, Mapping) else MISSING
    return out


def check_target(element_id: str, reading: Reading, expect: Expect | None) -> GuardFailure | None:
    """Guard 1 on the action's target (the URL is checked by the caller)."""
    if not reading.exists:
        return GuardFailure("target_missing", f"target missing: no element {element_id!r} on the page")
    if not reading.perceivable:
        return GuardFailure("target_missing", f"target missing: element {element_id!r} ({reading.describe()}) is not shown")
    if reading.covered:
        return GuardFailure("covered", f"target covered: {reading.describe()} is under another element")
    if expect is None:
        return None
    role_changed = bool(expect.role) and normalize_role(expect.role) != normalize_role(reading.role)
    name_changed = bool(folded(expect.name)) and folded(expect.name) != folded(reading.name)
    if role_changed or name_changed:
        return GuardFailure("target_changed", f"target changed: expected {expect.describe()}, found {reading.describe()}")
    return None


def check_required(required: Sequence[tuple[str, str]], readings: Mapping[str, Reading]) -> GuardFailure | None:
    """Guard 2: every listed field still holds its value."""
    for element_id, wanted in required:
        reading = readings.get(element_id, MISSING)
        if not reading.exists:
            return GuardFailure("required_value_mismatch", f"required value lost: no element {element_id!r} on the page")
        if not holds(reading, wanted):
            return GuardFailure(
                "required_value_mismatch",
                f"required value lost: {reading.describe()} should hold {wanted!r}, it holds {reading.shown()}",
            )
    return None


def check_readback(element_id: str, reading: Reading, wanted: str) -> GuardFailure | None:
    """Guard 4: the field took what was typed or selected."""
    if not reading.exists:
        return GuardFailure("value_mismatch", f"value not kept: element {element_id!r} left the page after the input")
    if not holds(reading, wanted):
        return GuardFailure("value_mismatch", f"value not kept: {reading.describe()} holds {reading.shown()}, not {wanted!r}")
    return None


def holds(reading: Reading, wanted: str) -> bool:
    """Does the element hold ``wanted`` (trimmed)? A select: one of its selected options, by
    value or text (text also case-folded, as ``select`` chooses); a checkbox: its checked state
    for a true/false value; a date/time/number field: the same value in the field's own shape;
    a custom list box: its text."""
    want = wanted.strip()
    if reading.selected:
        return any(value.strip() == want or folded(text) == folded(want) for value, text in reading.selected)
    if reading.checked is not None and reading.value is None:
        return reading.checked == (want.lower() not in _UNCHECKED)
    held = reading.value if reading.value is not None else reading.text
    if held is None:
        return False
    held = held.strip()
    if held == want:
        return True
    if len(held) == FIELD_VALUE_MAX and held.endswith("…") and want.startswith(held[:-1]):
        return True  # longer than the page script reports: the part it shows agrees
    return _same_in_shape(reading, want, held)


def _same_in_shape(reading: Reading, want: str, held: str) -> bool:
    numeric = reading.ty in ("number", "range") or normalize_role(reading.role) in ("slider", "spinbutton")
    if numeric:
        a, b = parse_number(want), parse_number(held)
        return a is not None and b is not None and Decimal(a) == Decimal(b)
    if reading.ty in SET_AS_VALUE:
        try:
            return shaped(reading.ty, want, low="-1e308", high="1e308", step="any") == held
        except ActionError:
            return False
    return False
