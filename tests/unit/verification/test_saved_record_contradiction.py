"""A field held its value when the form was committed, but the saved record the page shows
next says otherwise (a server that dropped the field): the clause is not proven, and the task
is never completed on it. A page that shows nothing of the field, or shows the value, is
unchanged; the field itself, still on the page, speaks for itself."""

from __future__ import annotations

import pytest

from verification import Action, Clause, Contract, ElementRef, PageState, PreviousStep, check_contract, start_contract
from verification.contract.captions import shown_under_caption

URL = "https://records.test/records/7"
CITY = Clause(id="c1", kind="field_value", description="the city is Oslo", target=ElementRef(name="city"), value="Oslo", match="casefold", before="c2")
SAVE = Clause(id="c2", kind="activated", description="Save", target=ElementRef(name="Save", commit=True), action="click", effect=True)


def form(city: str) -> PageState:
    return PageState.from_v3(
        [{"i": "1", "r": "textbox", "n": "City", "v": city}, {"i": "2", "r": "btn", "n": "Save"}], url=URL + "/edit", text="Edit record\nCity"
    )


def saved(text: str) -> PageState:
    return PageState.from_v3([{"i": "9", "r": "link", "n": "Back to search"}], url=URL + "/saved", text=text, success_messages=("Record saved.",))


def after_save(page_after: PageState) -> Contract:
    contract = start_contract(Contract(clauses=(CITY, SAVE)), form("Bergen"))
    typed = check_contract(contract, form("Oslo"), step=1, previous=PreviousStep(step=0, action=Action(name="setValue", target="1", value="Oslo"), hits=(), success=True, effect=True, observation="typed"))
    return check_contract(typed, page_after, step=2, previous=PreviousStep(step=1, action=Action(name="click", target="2"), hits=("c2",), success=True, effect=True, observation="the page changed"))


@pytest.mark.parametrize(
    "text",
    [
        "Ana Silva\nRecord saved.\nName\nAna Silva\nCity\nBergen\nRole\nManager",  # <dl>: a caption line over its value
        "Ana Silva\nRecord saved.\nName: Ana Silva\nCity: Bergen",  # captioned lines
    ],
)
def test_a_saved_record_that_shows_another_value_is_not_a_completion(text: str) -> None:
    contract = after_save(saved(text))
    assert not contract.satisfied
    result = contract.result("c1")
    assert result.status == "pending" and result.unproven and "'Bergen'" in result.detail


@pytest.mark.parametrize(
    "text",
    [
        "Ana Silva\nRecord saved.\nName\nAna Silva\nCity\nOslo",  # shows the goal's value
        "Record saved.",  # shows nothing of the field: the commit's evidence stands
        "Name · City\nAna Silva · Bergen\nBen Ode · Oslo",  # a table row, not a caption: nothing is guessed
        "City\nBergen\nCity\nOslo",  # the caption twice: never a guess between two
    ],
)
def test_a_saved_page_that_does_not_contradict_the_value_completes(text: str) -> None:
    assert after_save(saved(text)).satisfied


def test_the_field_still_on_the_page_speaks_for_itself() -> None:
    contract = after_save(form("Oslo"))
    assert contract.result("c1").status == "holds"


def test_shown_under_caption_reads_one_value_or_none() -> None:
    page = saved("Phone: 555-0100\nCity\nOslo\nNotes\nEmail: a@b.c")
    assert shown_under_caption(page, "City") == "Oslo"
    assert shown_under_caption(page, "phone") == "555-0100"
    assert shown_under_caption(page, "Notes") is None  # the next line is another caption
    assert shown_under_caption(page, "Country") is None


ACCOUNT = Clause(id="c1", kind="field_value", description="Account number holds 87654321", target=ElementRef(name="Account number"), value="87654321", before="c2")


def _account_saved(text: str) -> Contract:
    fields = lambda value: PageState.from_v3(  # noqa: E731
        [{"i": "1", "r": "textbox", "n": "Account number", "v": value}, {"i": "2", "r": "btn", "n": "Save"}], url=URL + "/edit", text="Edit payee\nAccount number"
    )
    contract = start_contract(Contract(clauses=(ACCOUNT, SAVE)), fields("12345678"))
    typed = check_contract(contract, fields("87654321"), step=1, previous=PreviousStep(step=0, action=Action(name="setValue", target="1", value="87654321"), hits=(), success=True, effect=True, observation="typed"))
    return check_contract(typed, saved(text), step=2, previous=PreviousStep(step=1, action=Action(name="click", target="2"), hits=("c2",), success=True, effect=True, observation="the page changed"))


@pytest.mark.parametrize(
    ("text", "satisfied"),
    [
        ("Payees\nName\nSort code\nAccount number\nHelp", True),  # a column header, then the next block: no value of that kind
        ("Priya Shah\nAccount number\n••••4321", True),  # masked: its end is the value's
        ("Priya Shah\nAccount number: ****4321", True),
        ("Priya Shah\nAccount number\n••••9999", False),  # masked, and another account
        ("Priya Shah\nAccount number\n12345678", False),  # the old number: the server dropped it
    ],
)
def test_a_saved_copy_is_compared_only_with_a_value_of_its_kind(text: str, satisfied: bool) -> None:
    assert _account_saved(text).satisfied is satisfied
