"""The parts of a goal that only say why (agent.policy.coverage.context_spans): people explain
themselves ("I got married! Please change my last name to …"); a clause with the user as its
subject that asks for nothing and gives no value is not something to do or to prove — and
anything that might ask for something stays a requirement."""

from __future__ import annotations

import pytest

from agent.policy.coverage import context_spans, unaccounted
from verification.contract import Clause, ElementRef


def _why(goal: str) -> list[str]:
    return [goal[a:b] for a, b in context_spans(goal)]


@pytest.mark.parametrize(
    ("goal", "why"),
    [
        ("I got married! Please change my last name to Okafor-Lindqvist.", ["I got married"]),
        ("take the Ember down jacket off my wishlist, I bought one elsewhere", ["I bought one elsewhere"]),
        ("Book the 9am slot, I'm free then", ["I'm free then"]),
        ("We moved last month — update the address to 12 Elm St", ["We moved last month"]),
        ("please remove the nursery, we don't need it anymore", ["we don't need it anymore"]),  # negated, about what is removed
        ("Open Diego Alvarez's profile and delete him, he left in August", ["he left in August"]),  # someone else as the subject
        ("my birthday is wrong on my profile, it should be 4/3/1991", ["my birthday is wrong on my profile"]),
    ],
)
def test_a_clause_that_only_says_why_asks_for_nothing(goal: str, why: list[str]) -> None:
    assert _why(goal) == why


@pytest.mark.parametrize(
    "goal",
    [
        "I want you to delete the draft",  # a request, said in the first person
        "Delete the draft, I don't want the attachments either",  # a second request
        "Send the report to Bob, I need it by Friday",  # a requirement
        "Book the 9am slot, I'm free at 9",  # a value
        "Rename it, I'd call it 'Q3'",  # a quoted value
        "Delete the old invoices, we don't need the drafts either",  # negated, about something else: a requirement
        "Archive the thread, they need it archived",  # a request word, not negated
        "my phone number is on the profile page, change it",  # "my …" without "wrong" says where, not why
        "he wants the blue one",  # the whole goal
        "I'm moving",  # the whole goal: then it is the request
        "Click Save",
    ],
)
def test_anything_that_might_ask_for_something_stays_a_requirement(goal: str) -> None:
    assert _why(goal) == []


def test_the_why_needs_no_clause_but_the_request_still_does() -> None:
    goal = "I got married! Please change my last name to Okafor-Lindqvist."
    clause = Clause(id="c1", kind="field_value", description="Last name holds it", target=ElementRef(name="Last name"), value="Okafor-Lindqvist")
    assert unaccounted(goal, [clause]) == ()
    assert unaccounted(goal, []) != ()


def test_the_why_is_not_read_into_the_name_of_what_to_act_on() -> None:
    from agent.policy import understand

    read = understand("Remove the Winter menu, we no longer serve it").contract
    assert read.unaccounted == () and [c.description for c in read.clauses] == ["Remove Winter menu"]
