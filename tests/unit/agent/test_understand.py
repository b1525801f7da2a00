"""The policy reads a goal into a plan and a contract — and says what it could not read.
Every quoted value, number, date, name and content word must be bound to a clause."""

from __future__ import annotations

import pytest

from agent.contracts import link_steps, plan_from_contract, settle
from agent.model_clauses import merge_model_clauses
from agent.policy import understand, unaccounted
from planning import Plan, PlanStep
from verification import Clause, ClauseResult, Contract, ElementRef


def kinds(goal: str) -> list[tuple[str, str | None]]:
    contract = understand(goal).contract
    return [(c.kind, c.action or c.state) for c in contract.clauses]


@pytest.mark.parametrize(
    "goal",
    [
        "blorp the frobnicator",
        "asdf qwer zxcv",
        "Log out",
        "Book a flight to Paris",
        "Transfer $500 to savings",
        "go to file:///etc/passwd",
        "Buy the ticket with the cheapest cost.",
        "Order 3 items that are vegan",  # choosing by a property shown as icons: not read yet
        "Find the 2nd word in the paragraph.",  # read, but nothing is done with it
        "Solve the math problem and type your answer into the textbox.",
        "Find and pick the card with the greatest number, then press submit.",
        "Select words similar to mild, delicious and click Submit.",
        "Click the Save button, then book the flight",
    ],
)
def test_what_the_policy_cannot_read_is_unaccounted(goal: str) -> None:
    contract = understand(goal).contract
    assert not contract.complete, contract
    assert contract.unaccounted


def test_unaccounted_names_the_words_it_could_not_place() -> None:
    contract = understand("Click the Save button, then book the flight").contract
    assert contract.unaccounted == ("book", "flight")
    assert [c.kind for c in contract.clauses] == ["activated"]  # what it did read stays


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("Click on the \"Ok\" button.", [("activated", "click")]),
        ("Click button ONE, then click button TWO.", [("activated", "click"), ("activated", "click")]),
        ('Enter "Kasey" into the text field and press Submit.', [("field_value", None), ("activated", "click")]),
        ('Enter the password "yA" into both text fields and press submit.', [("field_value", None), ("activated", "click")]),
        ("Select HF2, K9 and click Submit.", [("control", "checked"), ("control", "checked"), ("activated", "click")]),
        ("Select Helli from the list and click Submit.", [("choice", None), ("activated", "click")]),
        ("Uncheck Weekly digest", [("control", "unchecked")]),
        ("Focus into the 2nd input textbox.", [("activated", "click")]),
        ('Close the dialog box by clicking the "x".', [("activated", "click")]),
        ('Navigate through the file tree. Find and click on the folder or file named "Truman".', [("activated", "click")]),
        ("Expand the section below and click submit.", [("activated", "click")]),
        ("Expand the Advanced section", [("control", "expanded")]),
        ("go to https://app.example/billing", [("url", None)]),
        ("Go back", [("activated", "back")]),
        ("Scroll down", [("activated", "scroll")]),
        ('Add a new patient named "Jas"', [("field_value", None), ("activated", "click"), ("shown", None)]),
        ("Select nothing and click Submit", [("activated", "click")]),
    ],
)
def test_goals_the_policy_reads_are_fully_accounted(goal: str, expected: list[tuple[str, str | None]]) -> None:
    contract = understand(goal).contract
    assert contract.complete, contract.unaccounted
    assert kinds(goal) == expected


def test_the_row_a_goal_names_is_part_of_the_reference() -> None:
    for goal in ("Click the Deactivate button in the row for Chen Wei", "click the deactivate button for chen wei"):
        (clause,) = understand(goal).contract.clauses
        assert clause.target is not None
        assert clause.target.name.lower() == "deactivate" and clause.target.role == "button"
        assert (clause.target.container or "").lower() == "chen wei"
    (section,) = understand("Click Delete in the Billing section").contract.clauses
    assert section.target is not None and section.target.container_kind == "section"
    assert (section.target.container or "").lower() == "billing"


def test_state_clauses_before_a_click_are_its_preconditions() -> None:
    contract = understand('Enter the username "ann" and the password "pw" into the text fields and press login.').contract
    name, password, login = contract.clauses
    assert name.mode == password.mode == "state" and login.mode == "event"
    assert name.before == password.before == login.id
    assert login.effect  # a commit must show a result
    free = understand("Check Dark mode").contract.clauses[0]
    assert free.before is None  # nothing after it: it must hold at the end


def test_plan_steps_are_linked_to_their_clauses() -> None:
    reading = understand("Select HF2 and click Submit.")
    assert [s.clause for s in reading.plan.steps] == [c.id for c in reading.contract.clauses]
    opened = understand('Add a new patient named "Jas"').plan.steps
    assert opened[0].kind == "open" and opened[0].clause is None  # how, not what


def test_values_that_point_instead_of_giving_are_not_values() -> None:
    contract = understand("Type that into the search box").contract
    assert not contract.complete and "that" in contract.unaccounted


def test_a_model_contract_missing_a_goal_value_is_not_enough() -> None:
    goal = 'Offboard "Bob Stone"'  # a verb the policy's lexicon does not have
    policy = understand(goal).contract
    assert not policy.complete
    lazy = Clause(id="m1", kind="activated", description="offboard", target=ElementRef(name="Offboard"), action="click", source="model")
    merged, missing = merge_model_clauses(policy, goal, [lazy])
    assert missing == ["Bob Stone"] and not merged.complete
    scoped = lazy.model_copy(update={"target": ElementRef(name="Offboard", container="Bob Stone")})
    merged, missing = merge_model_clauses(policy, goal, [scoped])
    assert missing == [] and merged.complete and merged.source == "merged"


def test_model_clauses_that_invent_names_or_add_nothing_are_dropped() -> None:
    goal = "Check Dark mode and click Save"
    policy = understand(goal).contract
    invented = Clause(id="m1", kind="shown", description="done", value="The goal is complete.", source="model")
    duplicate = Clause(id="m2", kind="control", description="dark", target=ElementRef(name="Dark mode"), state="checked", source="model")
    merged, missing = merge_model_clauses(policy, goal, [invented, duplicate])
    assert merged == policy and missing == []


def test_coverage_needs_a_clause_for_each_quoted_value() -> None:
    clause = Clause(id="c1", kind="field_value", description="x", target=ElementRef(name="Name"), value="Jas")
    assert unaccounted('Type "Jas" into Name and "Kim" into Surname', [clause]) == ("Kim", "Surname")


def test_an_ending_never_says_completed_and_says_why() -> None:
    save = Clause(id="c1", kind="activated", description="Save", target=ElementRef(name="Save"), action="click", effect=True)
    unproven = Contract(clauses=(save,), results={"c1": ClauseResult(id="c1", status="pending", unproven=True)})
    assert settle(unproven, why_stuck="").status == "needs_confirmation"
    undone = Contract(clauses=(save,))
    ending = settle(undone, why_stuck="no valid next action", code="NO_VALID_ACTION")
    assert (ending.status, ending.failure_code) == ("failed", "NO_VALID_ACTION")
    uncovered = Contract(clauses=(save,), unaccounted=("savings",), results={"c1": ClauseResult(id="c1", status="holds")})
    ending = settle(uncovered, why_stuck="")
    assert ending.status == "needs_confirmation" and "'savings'" in ending.thought
    with pytest.raises(ValueError):
        settle(Contract(clauses=(save,), results={"c1": ClauseResult(id="c1", status="holds")}), why_stuck="")


def test_a_more_precise_model_clause_replaces_a_vaguer_one_and_ids_stay_unique() -> None:
    goal = 'Check Dark mode, then offboard "Bob Stone"'
    policy = understand(goal).contract
    vague = Clause(id="m1", kind="activated", description="offboard", target=ElementRef(name="Offboard"), action="click", source="model")
    merged, missing = merge_model_clauses(policy, goal, [vague])
    assert "Bob Stone" in missing
    precise = vague.model_copy(update={"id": "m2", "target": ElementRef(name="Offboard", container="Bob Stone")})
    merged, missing = merge_model_clauses(merged, goal, [precise])
    assert missing == [] and merged.complete
    ids = [c.id for c in merged.clauses]
    assert len(ids) == len(set(ids))
    assert [c.target.container for c in merged.clauses if c.source == "model"] == ["Bob Stone"]  # type: ignore[union-attr]
    dark = next(c for c in merged.clauses if c.kind == "control")
    assert dark.before == next(c.id for c in merged.clauses if c.source == "model")  # checked before the click


def test_model_steps_are_linked_to_the_clause_they_make_true() -> None:
    deactivate = Clause(id="c1", kind="activated", description="Deactivate Bob", target=ElementRef(name="Deactivate", container="Bob Stone"), action="click")
    name = Clause(id="c2", kind="field_value", description="Note holds hi", target=ElementRef(name="Note"), value="hi")
    contract = Contract(clauses=(deactivate, name))
    steps = [
        PlanStep(index=0, kind="click", description="Deactivate him", target="Deactivate", success_criterion="ok"),
        PlanStep(index=1, kind="fill", description="Type", target="Note", value="hi", success_criterion="ok"),
        PlanStep(index=2, kind="click", description="Open help", target="Help", success_criterion="ok"),
    ]
    linked = link_steps(Plan(goal="g", steps=steps, source="model"), contract)
    assert [s.clause for s in linked.steps] == ["c1", "c2", None]
    made = plan_from_contract("g", contract)
    assert [(s.kind, s.clause) for s in made.steps] == [("click", "c1"), ("fill", "c2")]


@pytest.mark.parametrize(
    ("goal", "role", "field_kind"),
    [
        ('Click on a "textarea" widget.', "textbox", "textarea"),
        ('Click on a "text" widget.', "textbox", "line"),
        ("Click a checkbox", "checkbox", None),
        ("Click any radio button", "radio", None),
        ("Press a button", "button", None),
        ("Open one of the links", "link", None),
    ],
)
def test_a_goal_naming_only_a_kind_takes_any_element_of_it(goal: str, role: str, field_kind: str | None) -> None:
    contract = understand(goal).contract
    assert contract.complete, contract.unaccounted
    (clause,) = contract.clauses
    assert clause.target is not None and clause.target.any
    assert (clause.target.role, clause.target.field_kind, clause.target.name) == (role, field_kind, "")


def test_a_named_element_after_an_indefinite_article_is_still_that_element() -> None:
    (clause,) = understand("Click a Delete button").contract.clauses
    assert clause.target is not None and not clause.target.any and clause.target.name == "delete"


@pytest.mark.parametrize(
    "goal",
    [
        "Type the phone number of Ana Silva into the Phone field",
        "Enter Ana Silva's email into Recipient",
        "Type the email address for Bob into To",
        "Put the total into Amount",
        "Fill the Reference field with the order id from the confirmation",
    ],
)
def test_a_value_that_points_at_one_on_the_page_is_never_typed_as_words(goal: str) -> None:
    contract = understand(goal).contract
    typed = [c.value for c in contract.clauses if c.kind == "field_value" and c.read is None]
    assert not any(v and ("of" in v.split() or "'s" in v or "total" in v) for v in typed)
    # Either it is read on the page (a table cell), or the goal is not understood.
    assert not contract.complete or all(c.read is not None for c in contract.clauses if c.kind == "field_value")


@pytest.mark.parametrize(
    ("goal", "row", "column"),
    [
        ("Type the phone number of Ana Silva into the Phone field", "Ana Silva", "phone number"),
        ("Enter Ana Silva's email into Recipient", "Ana Silva", "email"),
        ("Put the email address for Bob Stone into the To box", "Bob Stone", "email address"),
    ],
)
def test_an_attribute_of_a_named_row_is_a_table_cell_to_read(goal: str, row: str, column: str) -> None:
    contract = understand(goal).contract
    assert contract.complete, contract.unaccounted
    (clause,) = contract.clauses
    assert clause.read is not None and (clause.read.row, clause.read.column) == (row, column)
    assert clause.value is None and clause.match == "verbatim"


@pytest.mark.parametrize(
    ("goal", "value"),
    [
        ('Type "the phone number of Ana" into Notes', "the phone number of Ana"),  # quoted: the user's words
        ("Set the title to The Lord of the Rings", "The Lord of the Rings"),
        ("Enter John's Pizza into the Restaurant field", "John's Pizza"),
        ("Type the best of times into Title", "the best of times"),
    ],
)
def test_a_value_that_only_looks_like_a_pointer_is_typed(goal: str, value: str) -> None:
    contract = understand(goal).contract
    assert contract.complete, contract.unaccounted
    assert [c.value for c in contract.clauses if c.kind == "field_value"] == [value]


@pytest.mark.parametrize(
    ("goal", "value"),
    [
        ('Type "agustina" in all upper case letters in the text input and press Submit.', "AGUSTINA"),
        ('Type "JERALD" in all lower case letters in the text input and press Submit.', "jerald"),
        ('Enter "Ann Lee" into Name in upper case', "ANN LEE"),
        ("Type 'Oslo' into City using lowercase", "oslo"),
    ],
)
def test_a_case_the_goal_asks_for_is_applied_and_proven_in_that_case(goal: str, value: str) -> None:
    contract = understand(goal).contract
    assert contract.complete, contract.unaccounted
    (field, *_rest) = contract.clauses
    assert (field.value, field.match) == (value, "exact")  # 'agustina' no longer proves 'AGUSTINA'


def test_a_case_no_value_takes_is_not_silently_dropped() -> None:
    contract = understand("Click Submit in upper case").contract
    assert not contract.complete and "in upper case" in contract.unaccounted


@pytest.mark.parametrize(
    "goal",
    [
        "Type the text below into the text field and press Submit.",
        "Type the code shown into the box",
        "Enter the following text into Notes",
        "Put these words into the Message field",
    ],
)
def test_the_text_the_page_shows_is_never_typed_as_those_words(goal: str) -> None:
    contract = understand(goal).contract
    assert not contract.complete
    assert not any(c.kind == "field_value" and c.value for c in contract.clauses)


@pytest.mark.parametrize(
    ("goal", "name"),
    [
        ('Switch between the tabs to find and click on the link "aliquet".', "aliquet"),
        ('Expand the sections below, to find and click on the link "euismod.".', "euismod."),
        ('Look through the tabs and click the link "Refunds"', "Refunds"),
        ('Open the sections to find and click on "Pricing"', "Pricing"),
        ('Scroll down to find and click the link "Terms of use"', "Terms of use"),
        ('Browse the pages to find and click on "Zoe Park"', "Zoe Park"),
        ('Go through the panels one by one to locate and click the button "Export"', "Export"),
    ],
)
def test_how_to_look_for_a_target_is_how_not_what(goal: str, name: str) -> None:
    got = understand(goal)
    assert got.contract.unaccounted == ()
    assert [(s.kind, c.target.name if c.target else None) for s, c in zip(got.plan.steps, got.contract.clauses)] == [("click", name)]
    assert got.contract.means  # the how-phrase is kept as how


@pytest.mark.parametrize(
    "goal",
    [
        "Switch between the tabs and the sections, then delete the Billing report",  # what to delete is not how
        'Switch between accounts to find and click on "Zoe"',  # accounts are not places to look through
    ],
)
def test_a_how_phrase_never_swallows_other_words(goal: str) -> None:
    assert understand(goal).contract.unaccounted != ()


@pytest.mark.parametrize(
    ("goal", "name", "kind"),
    [
        ('Click the button in the dialog box labeled "Cancel".', "Cancel", "dialog"),
        ('Press the button in the modal named "OK"', "OK", "dialog"),
        ('Click the link in the sidebar called "Help"', "Help", "section"),
        ('Click the button in the popup window labelled "No thanks"', "No thanks", "dialog"),
    ],
)
def test_a_label_after_a_container_phrase_is_read_both_ways(goal: str, name: str, kind: str) -> None:
    got = understand(goal)
    assert got.contract.unaccounted == ()
    target = got.contract.clauses[0].target
    assert target is not None and (target.name, target.container_kind, target.label_or_container) == (name, kind, True)
    assert target.container is None


def test_an_element_named_in_a_labeled_container_is_one_reading() -> None:
    target = understand('Click the Save button in the dialog titled "Settings"').contract.clauses[0].target
    assert target is not None and target.container == "settings" and not target.label_or_container
