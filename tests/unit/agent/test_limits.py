"""What the no-model policy declines as needing a model, and what it does not."""

from __future__ import annotations

import pytest

from agent.policy import understand
from agent.policy.limits import model_need


@pytest.mark.parametrize(
    ("goal", "what", "phrase"),
    [
        ("Solve for x and type your answer into the textbox", "arithmetic", "solve"),
        ("Please calculate the total and enter it", "arithmetic", "calculate"),
        ("Label every number odd or even", "arithmetic", "odd or even"),
        ("Book the cheapest flight to Oslo", "a comparison of values on the page", "cheapest"),
        ("Pick the card with the greatest number, then press submit", "a comparison of values on the page", "greatest"),
        ("Buy the ticket with the longest duration", "a comparison of values on the page", "longest"),
        ("Guess the secret number", "a guess", "guess"),
        ("Select words similar to mild and click Submit", "judging what words mean", "similar to"),
        ("Tick every synonym of brave", "judging what words mean", "synonym"),
    ],
)
def test_goals_asking_for_what_the_page_does_not_state_need_a_model(goal: str, what: str, phrase: str) -> None:
    contract = understand(goal).contract
    assert not contract.complete
    need = model_need(goal, contract.unaccounted)
    assert need is not None and (need.what, need.phrase) == (what, phrase)
    assert repr(phrase) in need.reason()


@pytest.mark.parametrize(
    "goal",
    [
        "Type 'best price guaranteed' into the Slogan box",  # the user's own words
        "Click Submit",
        "Blorp the frobnicator",  # not understood, but nothing asks for a model
        "Export the report as CSV",
    ],
)
def test_goals_that_do_not_ask_for_judgement_are_not_flagged(goal: str) -> None:
    contract = understand(goal).contract
    assert model_need(goal, contract.unaccounted) is None


def test_a_judgement_word_the_policy_read_as_a_name_asks_for_nothing() -> None:
    # "best" was read (here: given as unread=()) — only unread words can ask for a model.
    assert model_need("Open the Best sellers page", ()) is None
    assert model_need("Open the Best sellers page", ("best",)) is not None
