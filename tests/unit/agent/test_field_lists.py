"""Several fields filled with one verb: each pair its own step and clause, the commit said
after them their common event — and a list that cannot be split for sure is declined,
never typed whole into one field."""

from __future__ import annotations

import pytest

from agent.policy import understand
from agent.secrets import goal_secrets
from agent.policy.field_lists import swallowed
from verification import PageState, resolve_ref

Steps = list[tuple[str, str | None, str | None]]
FIVE = [
    ("First name", "Ada"), ("Last name", "Lovelace"), ("Email", "ada@example.com"), ("Phone", "555-0100"), ("City", "London"),
]  # fmt: skip


def _read(goal: str) -> tuple[Steps, tuple[str, ...]]:
    reading = understand(goal)
    return [(s.kind, s.target, s.value) for s in reading.plan.steps], reading.contract.unaccounted


def _fills(pairs: list[tuple[str, str]]) -> Steps:
    return [("fill", f, v) for f, v in pairs]


@pytest.mark.parametrize(
    "goal",
    [
        "Type Ada into First name, Lovelace into Last name, ada@example.com into Email, 555-0100 into Phone, London into City and click Submit",
        'Enter "Ada" in First name, "Lovelace" in Last name, "ada@example.com" in Email, "555-0100" in Phone and "London" in City, then submit',
        "Put Ada in First name, Lovelace in Last name, ada@example.com in Email, 555-0100 in Phone and London in City. Submit.",
        "Input 'Ada' into the First name, 'Lovelace' into the Last name, 'ada@example.com' into the Email, '555-0100' into the Phone and 'London' into the City, then click Submit",
        'Fill the form: First name "Ada", Last name "Lovelace", Email "ada@example.com", Phone "555-0100", City "London". Submit.',
        "Fill in the form with First name: Ada, Last name: Lovelace, Email: ada@example.com, Phone: 555-0100, City: London and submit",
        "Fill in the First name with Ada, the Last name with Lovelace, the Email with ada@example.com, the Phone with 555-0100 and the City with London, then press Submit",
        "Set First name to Ada, Last name to Lovelace, Email to ada@example.com, Phone to 555-0100, City to London and press Submit",
        "Enter Ada as the First name, Lovelace as the Last name, ada@example.com as the Email, 555-0100 as the Phone and London as the City, then submit",
    ],
)
def test_five_fields_and_a_submit_in_every_phrasing(goal: str) -> None:
    steps, missing = _read(goal)
    assert missing == ()
    assert [(k, (t or "").lower(), v) for k, t, v in steps[:5]] == [(k, t.lower(), v) for k, t, v in _fills(FIVE)]
    assert len(steps) == 6 and steps[5][0] == "submit"
    clauses = understand(goal).contract.clauses
    submit = clauses[-1]
    assert submit.kind == "activated" and all(c.kind == "field_value" and c.before == submit.id for c in clauses[:5])


@pytest.mark.parametrize(
    ("goal", "pairs"),
    [
        (
            'Type "ana@mail.org" into E-mail address, "0612" into ZIP / Postal code and "555 0101" into Phone number',
            [("E-mail address", "ana@mail.org"), ("ZIP / Postal code", "0612"), ("Phone number", "555 0101")],
        ),
        (
            "Fill in the e-mail address with ana@mail.org and the ZIP / Postal code with 0612",
            [("e-mail address", "ana@mail.org"), ("ZIP / Postal code", "0612")],
        ),
        ("Fill out the details: Phone number = 555 0101, E-mail address = ana@mail.org", [("Phone number", "555 0101"), ("E-mail address", "ana@mail.org")]),
        ('Enter "Stay in touch" in Subject and "Hi, Ana" in Message', [("Subject", "Stay in touch"), ("Message", "Hi, Ana")]),
        ("Type Stay in touch in Subject and Hello in Message", [("Subject", "Stay in touch"), ("Message", "Hello")]),
        ('Fill the form below: Company "Acme, Inc.", City is Oslo', [("Company", "Acme, Inc."), ("City", "Oslo")]),
    ],
)
def test_field_names_of_several_words_and_values_with_separators(goal: str, pairs: list[tuple[str, str]]) -> None:
    steps, missing = _read(goal)
    assert (steps, missing) == (_fills(pairs), ())


def test_options_of_several_lists_are_several_choices() -> None:
    steps, missing = _read("Choose Red in Colour, Large in Size and click Submit")
    assert steps[:2] == [("select", "Colour", "Red"), ("select", "Size", "Large")] and missing == ()
    steps, missing = _read('Select "Oslo" from City and "5" from Age')
    assert steps == [("select", "City", "Oslo"), ("select", "Age", "5")] and missing == ()


@pytest.mark.parametrize(
    "goal",
    [
        "Fill the form with first name Ada last name Lovelace and submit",  # no delimiter: where does a value end?
        "Fill in the form: First name Ada, Last name Lovelace",
        "Type Tom and Jerry into Title, 5 into Age and submit",  # one part is not a pair
        "Select Red from Colour, Large from Size and Blue and click Submit",
        "Enter Ada into First name into City",
        # a list that began with pairs and lost its link after a comma: not "Ada, Last name
        # Lovelace" typed into First name
        "Set First name to Ada, Last name Lovelace and press Submit",
        "Fill in the first name with Ada, last name Lovelace and press Submit",
        "Type Ada into First name, Lovelace Last name and click Submit",
        "Choose Red in Colour, Large and click Submit",
    ],
)
def test_a_list_that_cannot_be_split_for_sure_is_declined(goal: str) -> None:
    reading = understand(goal)
    assert reading.contract.unaccounted, [(s.kind, s.target, s.value) for s in reading.plan.steps]
    assert not any(s.kind in ("fill", "select") and (s.value or "").count(" ") > 1 for s in reading.plan.steps)


@pytest.mark.parametrize(
    ("text", "quoted", "expected"),
    [
        ("Ada into First name, Lovelace into Last name, London", (), True),
        ('First name, "Lovelace" in Last name and "London" in City', (), True),
        ("Ada, the last name with Lovelace", (), True),
        ("Red in Colour, Large", (), True),
        ("Hi, Ana", (), False),
        ("Tom and Jerry", (), False),
        ("the email for Bob", (), False),
        ("Meet me in Paris, then go to Rome", ("Meet me in Paris, then go to Rome",), False),  # quoted whole: the user's words
        ("Large", (), False),
    ],
)
def test_a_value_that_swallowed_a_list(text: str, quoted: tuple[str, ...], expected: bool) -> None:
    assert swallowed(text, quoted) is expected


def test_single_fills_are_read_as_before() -> None:
    assert _read('Enter "Kasey" into the text field')[0] == [("fill", "text field", "Kasey")]
    assert _read("Type hello there into the Message box and press Send")[0][0] == ("fill", "Message box", "hello there")
    assert _read('Type "Ada into X, B" into Notes')[0] == [("fill", "Notes", "Ada into X, B")]  # quoted: typed as written


LAYOUTS = {
    "label for": '<label for="{i}">{n}</label><input id="{i}">',
    "aria-label": '<input id="{i}" aria-label="{n}">',
    "placeholder": '<input id="{i}" placeholder="{n}">',
    "wrapping label": "<label>{n} <input id=\"{i}\"></label>",
}
NAMES = ["First name", "Last name", "Company name", "E-mail address", "ZIP / Postal code", "Phone number"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_pair_resolves_to_its_own_field_in_every_layout(layout: str) -> None:
    """Each clause names exactly its field — "Last name" is not the last field named "name"
    (a "Company name" follows it), whatever names the fields."""
    rows = "".join(f"<div>{LAYOUTS[layout].format(i=f'f{k}', n=n)}</div>" for k, n in enumerate(NAMES))
    page = PageState.from_html(f"<html><body><form>{rows}<button>Submit</button></form></body></html>", url="https://x.example/")
    goal = (
        'Type "Ada" into First name, "Lovelace" into Last name, "Acme" into Company name, "a@b.org" into E-mail address, '
        '"0612" into ZIP / Postal code and "555" into Phone number, then click Submit'
    )
    clauses = understand(goal).contract.clauses
    found = [resolve_ref(c.target, page) for c in clauses[:6] if c.target is not None]
    names = [f.element.name if f.element is not None else None for f in found]
    assert names == NAMES


@pytest.mark.parametrize(
    "goal",
    [
        "Type alice into Username and hunter2 into Password, then click Log in",
        'Enter "alice" in Username, "hunter2" in Password and submit',
        'Fill the form: Username "alice", Password "hunter2". Submit.',
        "Fill in the username with alice and the password with hunter2, then press Log in",
    ],
)
def test_a_password_in_a_field_list_is_a_secret_of_the_task(goal: str) -> None:
    assert goal_secrets(goal) == ["hunter2"]
    steps, missing = _read(goal)
    assert ("fill", "Password", "hunter2") in [(k, (t or "").capitalize(), v) for k, t, v in steps] and missing == ()
