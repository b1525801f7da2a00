"""The mode router: visual and spatial goals go hybrid, text goals stay text."""

from __future__ import annotations

import pytest

from agent.vision import ModeFacts, choose_mode, visual_terms

VISUAL = [
    "Click the gear icon",
    "Click the button in the top right corner",
    "Click the red button",
    "Open the link next to Save",
    "Click the picture of a cat",
    "Press the button that looks like a trash can",
    "Click the logo",
    "Select the option below the search box",
    "Click on the left panel's first link",
    "Choose the green one",
]
TEXT = [
    "Click Save",
    "Select the right answer",
    "There are 2 items left, delete them",
    "Type 'blue' in the color field",
    'Search for "red shoes"',
    "Enter the price below 20",
    "Add a new patient named Jas",
    "Click the 'Top' link",
]


@pytest.mark.parametrize("goal", VISUAL)
def test_visual_goals_go_hybrid(goal: str) -> None:
    decision = choose_mode(ModeFacts(goal=goal))
    assert decision.mode == "hybrid" and decision.reasons == ("visual_terms",) and decision.terms


@pytest.mark.parametrize("goal", TEXT)
def test_text_goals_stay_text(goal: str) -> None:
    assert choose_mode(ModeFacts(goal=goal)).mode == "text", visual_terms(goal)


def test_an_unresolved_target_among_nameless_controls_goes_hybrid() -> None:
    assert choose_mode(ModeFacts(goal="Open settings", target_unresolved=True, nameless_controls=2)).reasons == ("unresolved_target",)
    assert choose_mode(ModeFacts(goal="Open settings", target_unresolved=True, nameless_controls=0)).mode == "text"
    assert choose_mode(ModeFacts(goal="Open settings", target_unresolved=False, nameless_controls=3)).mode == "text"


def test_the_client_may_ask_for_hybrid_and_the_step_text_counts() -> None:
    assert choose_mode(ModeFacts(goal="Open settings", client_mode="hybrid")).reasons == ("client_hybrid",)
    assert choose_mode(ModeFacts(goal="Open settings", step_text="Click the cog icon")).hybrid


def test_quoted_values_are_not_descriptions() -> None:
    assert visual_terms('Type "top left corner" into Notes') == ()
    assert visual_terms("Click the 'Save' button next to Cancel") == ("next to",)
