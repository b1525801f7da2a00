"""What a goal says about *which* thing the work was done to is accounted for by the page that
proved it (agent.proof_words), and the words people use for any change, any submit, a
pronoun or a label cut short ask for nothing a clause does not already say
(agent.policy.coverage)."""

from __future__ import annotations

import pytest

from agent.policy.coverage import unaccounted
from agent.proof_words import account_by_proof, proof_texts, verified_targets
from verification import MESSAGE_APPEARED
from verification.contract import Clause, ClauseResult, Contract, ElementRef, Evidence

GOAL = "Cancel the standing order to Greenfield Nursery"
CANCEL = Clause(id="c1", kind="activated", description="Yes, cancel it was pressed", target=ElementRef(name="Yes, cancel it", role="button"),
                action="click", effect=True, source="model")


def _contract(observation: str, element: str | None = None, status: str = "holds") -> Contract:
    evidence = Evidence(step=2, observation=observation, element=element)
    return Contract(goal=GOAL, clauses=(CANCEL,), unaccounted=("standing", "order", "Greenfield", "Nursery"), source="merged",
                    results={"c1": ClauseResult(id="c1", status=status, evidence=evidence)})  # type: ignore[arg-type]


def test_the_confirmation_the_page_printed_accounts_for_the_record_it_names() -> None:
    contract = _contract(f"{MESSAGE_APPEARED} 'Your standing order to Greenfield Nursery has been cancelled.' (status)")
    assert account_by_proof(contract, GOAL).unaccounted == ()
    assert account_by_proof(contract, GOAL).satisfied


def test_the_row_or_dialog_the_control_sat_in_accounts_for_it() -> None:
    contract = _contract("New element appeared: button 'Undo' (id '9')", "button 'Yes, cancel it' in row: Greenfield Nursery · standing order · £120…")
    assert account_by_proof(contract, GOAL).unaccounted == ()


def test_a_cut_card_or_section_may_wrap_many_records_and_accounts_for_nothing() -> None:
    for element in ("button 'Yes, cancel it' in card: Payees Greenfield Nursery standing order British Gas Rent…",
                    "button 'Yes, cancel it' in section: Payees Greenfield Nursery standing order British Gas…"):
        contract = _contract("New element appeared: button 'Undo' (id '9')", element)
        assert proof_texts(contract) == ("Yes, cancel it",) and account_by_proof(contract, GOAL) == contract


def test_a_proof_not_yet_given_shows_nothing() -> None:
    contract = _contract(f"{MESSAGE_APPEARED} 'Your standing order to Greenfield Nursery has been cancelled.' (status)", status="pending")
    assert account_by_proof(contract, GOAL).unaccounted == contract.unaccounted


def test_a_value_is_never_accounted_for_by_text_around_the_proof() -> None:
    goal = "Cancel the standing order with reference 'NURSERY-7'"
    contract = _contract(f"{MESSAGE_APPEARED} 'Standing order NURSERY-7 cancelled' (status)").model_copy(
        update={"goal": goal, "unaccounted": ("standing", "order", "reference", "NURSERY-7")}
    )
    assert account_by_proof(contract, goal).unaccounted == ("reference", "NURSERY-7")


ROLE = Clause(id="c1", kind="choice", description="Role is Admin", target=ElementRef(name="Role", role="combobox"), value="Admin")
SAVE = Clause(id="c2", kind="activated", description="Save role", target=ElementRef(name="Save role", role="button"), action="click", effect=True)
REFERENCE = Clause(id="c1", kind="field_value", description="Reference holds Dinner", target=ElementRef(name="Reference", role="textbox"), value="Dinner")
CONFIRM = Clause(id="c2", kind="activated", description="Confirm payment", target=ElementRef(name="Confirm payment", role="button"), action="click", effect=True)


@pytest.mark.parametrize(
    ("goal", "clauses", "left"),
    [
        ("Make her an admin", [ROLE, SAVE], ()),  # any change; a pronoun
        ("Switch his role to admin", [ROLE, SAVE], ()),
        ("send it, ref Dinner", [REFERENCE, CONFIRM], ()),  # a commit is what "send" asks for; "ref" is Reference cut short
        ("send it, ref Dinner", [REFERENCE], ("send",)),  # no press: nothing was sent
        ("Make her an admin and delete the old account", [ROLE, SAVE], ("delete", "old", "account")),
        ("add the Reference Dinner", [REFERENCE], ("add",)),  # a verb is never a label cut short
    ],
)
def test_words_for_any_change_submit_or_a_cut_label(goal: str, clauses: list[Clause], left: tuple[str, ...]) -> None:
    assert unaccounted(goal, clauses) == left


def test_what_the_task_verifiably_opened_names_the_record_the_work_was_done_to() -> None:
    goal = "add the tag harbour to the ferry fares post"
    tag = Clause(id="c1", kind="field_value", description="Tags holds harbour", target=ElementRef(name="Tags"), value="harbour")
    contract = Contract(goal=goal, clauses=(tag,), unaccounted=("ferry", "fares", "post"), results={"c1": ClauseResult(id="c1", status="holds")})
    opened = ["link 'Ferry fares rise in spring' in row: Ferry fares rise in spring · News · Published"]
    assert account_by_proof(contract, goal, opened).unaccounted == ()  # "post" only says what kind of record
    assert account_by_proof(contract, goal, ["link 'Skatepark opens' in row: Skatepark opens · News"]).unaccounted == contract.unaccounted


def test_only_actions_the_next_page_verified_count() -> None:
    from storage import TaskAction

    def step(target: str, success: bool) -> TaskAction:
        return TaskAction(tenant_id="t", task_id="k", step_index=0, thought="", action='click("1")',
                          metrics={"target": target}, verification={"success": success})

    assert verified_targets([step("link 'Ferry fares'", True), step("link 'Skatepark'", False)]) == ["link 'Ferry fares'"]


ARCHIVE = Clause(id="c1", kind="activated", description="Archive", target=ElementRef(name="Archive", role="button"), action="click", effect=True)


@pytest.mark.parametrize(
    ("goal", "shown", "left"),
    [
        ("archive Ben Carter's intro email", ["Ben Carter intro"], ()),  # the kind of the record the proof names
        ("archive the email", [], ("email",)),  # which email? nothing names it
        ("archive it, then delete the post", [], ("delete", "post")),  # after its verb: what to act on
        ("archive Ben Carter's intro email", ["Dana intro"], ("Ben", "Carter's")),  # another record: not proven
    ],
)
def test_a_record_noun_is_accounted_for_with_the_words_that_name_the_record(goal: str, shown: list[str], left: tuple[str, ...]) -> None:
    assert unaccounted(goal, [ARCHIVE], shown) == left


def test_a_time_in_another_spelling_and_a_contraction_ask_for_nothing_more() -> None:
    time = Clause(id="c1", kind="field_value", description="Time holds 18:00", target=ElementRef(name="Time"), value="18:00")
    assert unaccounted("Move it to 6 pm, that's when we open", [time]) == ("open",)
    assert unaccounted("Move it to 6:30 pm", [time]) == ("6", "30", "pm")  # another time is not this one
