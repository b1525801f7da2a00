"""The no-model element finder: a labelled field's placeholder is a hint, not its name."""

from __future__ import annotations

from agent.policy.goal import TargetRef
from agent.policy.matching import match_elements
from verification import PageState

PAGE = PageState.from_v3(
    [
        {"i": "new", "r": "btn", "n": "New patient"},
        {"i": "s", "r": "inp", "n": "Search patients", "ty": "search", "ph": "Name or notes"},
        {"i": "c", "r": "inp", "n": "Security code", "ty": "text", "ph": "CVC"},
        {"i": "e", "r": "inp", "n": "", "ty": "text", "ph": "Email address"},
    ],
    url="https://clinic.example/patients",
)


def _found(text: str) -> str | None:
    best = match_elements(PAGE, TargetRef(text=text, role="textbox")).best
    return best.element.id if best else None


def test_a_word_of_a_labelled_fields_placeholder_does_not_name_the_field() -> None:
    assert _found("name") is None  # "Add a patient named Jas" is not a search for Jas


def test_a_placeholder_said_whole_names_its_field() -> None:
    assert _found("CVC") == "c"


def test_an_unlabelled_field_is_named_by_its_placeholder() -> None:
    assert _found("email") == "e"
