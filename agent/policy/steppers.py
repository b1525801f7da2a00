"""A quantity set with a stepper's "−" and "+" (a shop's "−  2  +", an order form): the
readout is a ``spinbutton`` that is no field (the page script's reading, client/page_script
describe.js ``isStepperReadout``; its value is the number shown), and its buttons are the
"+" / "−" in the same entry.

Each move clicks once toward the wanted number and the next request re-reads the readout:
never more clicks than the difference, and a click that does not move the number is not
repeated without end (the step's attempts bound it). The step is done when the readout shows
the number — what the field_value clause checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from verification import PageElement, PageState

STEP_UP: Final[frozenset[str]] = frozenset({"+", "＋", "add", "plus", "increase", "increment", "add one", "more"})
STEP_DOWN: Final[frozenset[str]] = frozenset({"-", "−", "–", "－", "remove", "minus", "decrease", "decrement", "remove one", "less"})
MAX_STEPS: Final = 20  # clicks on one stepper for one step


@dataclass(frozen=True)
class StepperMove:
    element: PageElement | None
    done: bool = False
    reason: str = ""
    thought: str = ""


def is_stepper(element: PageElement) -> bool:
    """A readout a stepper sets: a spinbutton that is not a form field."""
    return element.role == "spinbutton" and element.input_type is None and element.tag in (None, "span", "div", "output")


def _number(text: str | None) -> int | None:
    text = (text or "").strip() or "0"
    return int(text) if text.isdigit() else None


def _buttons(readout: PageElement, page: PageState) -> tuple[PageElement | None, PageElement | None]:
    """The "+" and "−" around the readout: its neighbours in page order (the page script
    lists an element's siblings in document order), never another entry's."""
    elements = page.elements
    at = next((i for i, e in enumerate(elements) if e.id == readout.id), -1)
    up = down = None
    for element in (elements[at - 1] if at > 0 else None, elements[at + 1] if 0 <= at < len(elements) - 1 else None):
        if element is None or not element.actionable or element.role != "button":
            continue
        name = element.name.strip().lower()
        if name in STEP_UP:
            up = element
        elif name in STEP_DOWN:
            down = element
    return up, down


def stepper_move(readout: PageElement, wanted: str, page: PageState, attempts: int) -> StepperMove:
    """The next click toward ``wanted`` on a stepper (see the module doc)."""
    goal, now = _number(wanted), _number(readout.value)
    if goal is None:
        return StepperMove(None, reason=f"{wanted!r} is not a quantity a stepper can show")
    if now is None:
        return StepperMove(None, reason=f"the quantity shown ({readout.value!r}) is not a number")
    if now == goal:
        return StepperMove(None, done=True, thought=f"The quantity shows {goal}.")
    if attempts >= MAX_STEPS:
        return StepperMove(None, reason=f"the quantity stays at {now}, not {goal}")
    up, down = _buttons(readout, page)
    button = up if now < goal else down
    if button is None:
        return StepperMove(None, reason=f"no {'+' if now < goal else '−'} button beside the quantity")
    return StepperMove(button, thought=f"Quantity {now} → {goal}: click {button.name!r}.")
