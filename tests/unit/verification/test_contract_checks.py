"""Each clause kind checked over the page, the verified action log and what changed since
the task began; state clauses versus event clauses; preconditions; honest proof."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from verification import (
    Action,
    Clause,
    Contract,
    ElementRef,
    PageElement,
    PageState,
    PreviousStep,
    check_contract,
    clause_hits,
    contract_unproven,
    start_contract,
    unmet_clauses,
)
from verification.contract import value_matches

URL = "https://app.example/settings"


def page(*nodes: dict[str, Any], url: str = URL, messages: tuple[str, ...] = ()) -> PageState:
    return PageState.from_v3(list(nodes), url=url, success_messages=messages)


def settings(sms: bool, *, saved: bool = False) -> PageState:
    return page(
        {"i": "1", "r": "chk", "n": "Email notifications", "s": "checked"},
        {"i": "2", "r": "chk", "n": "SMS notifications", **({"s": "checked"} if sms else {})},
        {"i": "3", "r": "btn", "n": "Save"},
        messages=("Settings saved",) if saved else (),
    )


SMS_ON = Clause(id="c1", kind="control", description="SMS notifications is on", target=ElementRef(name="SMS notifications"), state="checked", before="c2")
SAVE = Clause(id="c2", kind="activated", description="Save", target=ElementRef(name="Save", commit=True), action="click", effect=True)


def step(n: int, action: str, hits: tuple[str, ...], *, success: bool = True, effect: bool = True) -> PreviousStep:
    name, _, rest = action.partition("(")
    target = rest.rstrip(")").strip('"') or None
    return PreviousStep(step=n, action=Action(name=name, target=target), hits=hits, success=success, effect=effect, observation="the page changed")  # type: ignore[arg-type]


def statuses(contract: Contract) -> list[str]:
    return [contract.result(c.id).status for c in contract.clauses]


def test_a_state_clause_may_already_hold_and_completes_on_the_first_page() -> None:
    contract = start_contract(Contract(clauses=(SMS_ON.model_copy(update={"before": None}),)), settings(sms=True))
    assert contract.satisfied
    assert contract.result("c1").evidence is not None and contract.result("c1").evidence.step == 0


def test_an_event_clause_must_happen_during_the_task() -> None:
    contract = start_contract(Contract(clauses=(SAVE,)), settings(sms=True))
    assert statuses(contract) == ["pending"]
    after = check_contract(contract, settings(sms=True, saved=True), step=1, previous=step(0, 'click("3")', ("c2",)))
    assert after.satisfied and after.result("c2").evidence.step == 0  # type: ignore[union-attr]


def test_save_pressed_with_the_box_still_off_does_not_complete_turn_on_then_save() -> None:
    contract = start_contract(Contract(clauses=(SMS_ON, SAVE)), settings(sms=False))
    assert statuses(contract) == ["failed", "pending"]
    # Save was pressed on the page of step 0, where SMS was off.
    after = check_contract(contract, settings(sms=False, saved=True), step=1, previous=step(0, 'click("3")', ("c2",)))
    assert not after.satisfied
    assert after.result("c2").status == "pending" and "before this held" in after.result("c2").detail
    # Turn it on (step 1), save again (step 2): now it held when Save was pressed.
    on = check_contract(after, settings(sms=True), step=2, previous=step(1, 'click("2")', ()))
    done = check_contract(on, settings(sms=True, saved=True), step=3, previous=step(2, 'click("3")', ("c2",)))
    assert done.satisfied
    assert done.result("c1").detail == "held when step 2 was done"


def test_a_precondition_that_held_at_the_commit_keeps_holding_after_the_form_is_gone() -> None:
    name = Clause(id="c1", kind="field_value", description="Name holds Jas", target=ElementRef(name="Name"), value="Jas", before="c2")
    form = page({"i": "1", "r": "inp", "n": "Name", "v": "Jas"}, {"i": "2", "r": "btn", "n": "Save"})
    contract = start_contract(Contract(clauses=(name, SAVE)), form)
    listing = page({"i": "9", "r": "link", "n": "Jas"}, url="https://app.example/patients")
    after = check_contract(contract, listing, step=1, previous=step(0, 'click("2")', ("c2",)))
    assert after.satisfied


def _confirm_dialog() -> PageState:
    """The page behind a modal "Confirm your booking" dialog: only the dialog is in the tree."""
    return page({"i": "5", "r": "dialog", "n": "Confirm your booking"}, {"i": "6", "r": "btn", "n": "Confirm and pay"}, {"i": "7", "r": "btn", "n": "Cancel"})


def test_values_that_held_when_pay_was_pressed_are_committed_by_the_confirmation_dialog_it_opened() -> None:
    name = Clause(id="c1", kind="field_value", description="Name on card holds Rosa", target=ElementRef(name="Name on card"), value="Rosa", before="c2")
    pay = Clause(id="c2", kind="activated", description="Pay now", target=ElementRef(name="Pay now"), action="click", effect=True)
    form = lambda value: page({"i": "1", "r": "inp", "n": "Name on card", "v": value}, {"i": "2", "r": "btn", "n": "Pay now"})  # noqa: E731
    typed = check_contract(start_contract(Contract(clauses=(name, pay)), form("")), form("Rosa"), step=1, previous=step(0, 'hover("1")', ()))
    asked = check_contract(typed, _confirm_dialog(), step=2, previous=replace(step(1, 'click("2")', ("c2",)), confirming="Confirm and pay"))
    assert asked.result("c2").awaiting == "Confirm and pay" and not asked.satisfied
    booked = page({"i": "9", "r": "link", "n": "My trips"}, url="https://app.example/booked", messages=("Booking confirmed",))
    done = check_contract(asked, booked, step=3, previous=step(2, 'click("6")', ("c2",)))
    assert done.satisfied and done.result("c1").detail == "held when step 1 was done"
    assert done.result("c2").confirmed == "Confirm and pay"
    # Typed only after Pay now was pressed (the field was empty then): never committed.
    early = check_contract(start_contract(Contract(clauses=(name, pay)), form("")), _confirm_dialog(), step=1, previous=replace(step(0, 'click("2")', ("c2",)), confirming="Confirm and pay"))
    late = check_contract(early, booked, step=2, previous=step(1, 'click("6")', ("c2",)))
    assert not late.satisfied and "before this held" in late.result("c2").detail


def test_a_commit_without_a_visible_effect_is_unproven_not_done() -> None:
    contract = start_contract(Contract(clauses=(SAVE,)), settings(sms=True))
    after = check_contract(contract, settings(sms=True), step=1, previous=step(0, 'click("3")', ("c2",), effect=False))
    result = after.result("c2")
    assert result.status == "pending" and result.unproven and result.evidence is not None
    assert contract_unproven(after)
    # The result shows while waiting: proven.
    late = check_contract(after, settings(sms=True, saved=True), step=2, previous=step(1, "wait()", (), effect=True))
    assert late.satisfied


def test_an_action_that_did_not_verify_proves_nothing() -> None:
    contract = start_contract(Contract(clauses=(SAVE,)), settings(sms=True))
    after = check_contract(contract, settings(sms=True), step=1, previous=step(0, 'click("3")', ("c2",), success=False))
    assert after.result("c2").status == "pending" and not after.result("c2").unproven
    assert not contract_unproven(after)
    assert "did not verify" in unmet_clauses(after)[0]


def test_hits_are_the_events_whose_reference_names_the_target_on_that_page() -> None:
    table = page(
        {"i": "a", "r": "btn", "n": "Deactivate", "ctx": ["row: Ana Silva"]},
        {"i": "b", "r": "btn", "n": "Deactivate", "ctx": ["row: Bob Stone"]},
    )
    clause = Clause(id="c1", kind="activated", description="Deactivate Bob", target=ElementRef(name="Deactivate", container="Bob Stone"), action="click")
    contract = Contract(clauses=(clause,))
    assert clause_hits(contract, Action(name="click", target="b"), table) == ("c1",)
    assert clause_hits(contract, Action(name="click", target="a"), table) == ()  # the first row's button
    assert clause_hits(contract, Action(name="hover", target="b"), table) == ()  # not a click


@pytest.mark.parametrize(
    ("wanted", "actual", "how", "ok"),
    [
        ("Jas", "jas", "casefold", True),
        ("Jas", " Jas ", "exact", True),
        ("Jas", "jas", "exact", False),
        ("5551234", "(555) 123-4", "casefold", True),
        ("1,200", "1200.0", "number", True),
        ("12/02/2016", "2016-12-02", "date", True),
        ("12/02/2016", "2016-12-03", "date", False),
        ("laptop", "Laptop Pro 14", "contains", True),
        ("Jas", None, "casefold", False),
        ("An", "Antarctica", "starts", True),
        ("an", "ANTARCTICA", "starts", True),
        ("An", "Canada", "starts", False),
        ("ica", "Antarctica", "ends", True),
        ("ica", "Angola", "ends", False),
        ("ica", "Antarctica ", "ends", True),
        ("", "Antarctica", "starts", False),
        ("An", None, "ends", False),
    ],
)
def test_values_match_as_the_clause_says(wanted: str, actual: str | None, how: str, ok: bool) -> None:
    assert value_matches(wanted, actual, how) is ok


def test_a_field_with_another_value_fails_and_a_decoy_field_does_not_count() -> None:
    clause = Clause(id="c1", kind="field_value", description="Name holds Jas", target=ElementRef(name="Name"), value="Jas")
    wrong = start_contract(Contract(clauses=(clause,)), page({"i": "1", "r": "inp", "n": "Name", "v": "Jo"}))
    assert wrong.result("c1").status == "failed" and "'Jo'" in wrong.result("c1").detail
    hidden = start_contract(Contract(clauses=(clause,)), page({"i": "1", "r": "inp", "n": "Name", "v": "Jas", "s": "hidden"}))
    assert hidden.result("c1").status == "pending"
    covered = start_contract(Contract(clauses=(clause,)), page({"i": "1", "r": "inp", "n": "Name", "v": "Jas", "occ": True}))
    assert covered.result("c1").status == "pending"


def test_a_field_scrolled_under_a_sticky_header_still_holds_its_value() -> None:
    clause = Clause(id="c1", kind="field_value", description="City holds Boulder", target=ElementRef(name="City"), value="Boulder")
    edge = {"i": "1", "r": "inp", "n": "City", "v": "Boulder", "occ": True, "box": [75, -16, 241, 34]}
    assert start_contract(Contract(clauses=(clause,)), page(edge)).result("c1").status == "holds"
    middle = {**edge, "box": [75, 300, 241, 34]}  # covered in the middle of the window: a decoy
    assert start_contract(Contract(clauses=(clause,)), page(middle)).result("c1").status == "pending"


def test_a_radio_scrolled_under_a_sticky_header_is_still_chosen() -> None:
    clause = Clause(id="c1", kind="control", description="Car is chosen", target=ElementRef(name="Car", role="radio"), state="checked")
    under = {"i": "1", "r": "radio", "n": "Car", "s": "checked", "occ": True, "box": [175, 71, 34, 34]}  # wholly under an 80 px header
    assert start_contract(Contract(clauses=(clause,)), page(under)).result("c1").status == "holds"
    middle = {**under, "box": [175, 300, 34, 34]}
    assert start_contract(Contract(clauses=(clause,)), page(middle)).result("c1").status == "pending"


def test_a_checkbox_whose_label_lies_does_not_satisfy_the_clause() -> None:
    clause = Clause(id="c1", kind="control", description="Dark mode is on", target=ElementRef(name="Dark mode"), state="checked")
    decoy = page({"i": "1", "r": "chk", "n": "Dark mode", "t": "Share my data", "s": "checked"}, {"i": "2", "r": "chk", "n": "Dark mode", "occ": True})
    assert not start_contract(Contract(clauses=(clause,)), decoy).satisfied


def test_a_choice_holds_from_a_list_or_from_the_chosen_option() -> None:
    clause = Clause(id="c1", kind="choice", description="Red is chosen", value="Red")
    listing = page({"i": "1", "r": "sel", "n": "Colour", "v": "Red"})
    assert start_contract(Contract(clauses=(clause,)), listing).satisfied
    radios = page({"i": "1", "r": "radio", "n": "Red", "s": "checked"}, {"i": "2", "r": "radio", "n": "Blue"})
    assert start_contract(Contract(clauses=(clause,)), radios).satisfied
    other = page({"i": "1", "r": "radio", "n": "Red"}, {"i": "2", "r": "radio", "n": "Blue", "s": "checked"})
    assert start_contract(Contract(clauses=(clause,)), other).result("c1").status == "failed"


def test_a_result_must_be_new_since_the_task_began() -> None:
    shown = Clause(id="c1", kind="shown", description="Jas is listed", value="Jas")
    message = Clause(id="c2", kind="message", description="a saved message", value="saved", message_kind="success")
    start = page({"i": "1", "r": "link", "n": "Jas Old"}, messages=("Profile saved",))
    contract = start_contract(Contract(clauses=(shown, message)), start)
    assert statuses(contract) == ["pending", "pending"]  # both already there at the start
    listed = page({"i": "1", "r": "link", "n": "Jas Old"}, {"i": "2", "r": "link", "n": "Jas"}, messages=("Profile saved", "Patient saved"))
    after = check_contract(contract, listed, step=1)
    assert after.satisfied
    # A toast that fades stays seen (an event); the listed name must still be there (a state).
    faded = check_contract(after, page({"i": "1", "r": "link", "n": "Jas Old"}, {"i": "2", "r": "link", "n": "Jas"}), step=2)
    assert faded.result("c2").status == "holds" and faded.result("c1").status == "holds"
    gone = check_contract(after, start, step=2)
    assert gone.result("c1").status == "pending"


def test_text_typed_into_a_field_is_not_shown_as_a_result() -> None:
    shown = Clause(id="c1", kind="shown", description="laptop results", value="laptop")
    contract = start_contract(Contract(clauses=(shown,)), page({"i": "1", "r": "inp", "n": "Search", "v": ""}))
    typed = check_contract(contract, page({"i": "1", "r": "inp", "n": "Search", "v": "laptop"}), step=1)
    assert typed.result("c1").status == "pending"
    results = check_contract(contract, page({"i": "1", "r": "inp", "n": "Search", "v": "laptop"}, {"i": "2", "r": "link", "n": "Laptop Pro 14"}), step=1)
    assert results.result("c1").status == "holds"


def test_url_and_presence() -> None:
    url = Clause(id="c1", kind="url", description="on the billing page", value="app.example/billing?tab=invoices")
    dialog_gone = Clause(id="c2", kind="presence", description="the dialog is closed", target=ElementRef(name="Close", container_kind="dialog"), appear=False)
    start = page({"i": "1", "r": "btn", "n": "Close", "ctx": ["dialog: Welcome"]})
    contract = start_contract(Contract(clauses=(url, dialog_gone)), start)
    assert statuses(contract) == ["pending", "pending"]
    after = check_contract(contract, page({"i": "2", "r": "link", "n": "Home"}, url="https://www.app.example/billing/?tab=invoices&x=1"), step=1)
    assert after.satisfied


def test_only_missing_proof_is_unproven_anything_undone_or_wrong_is_not() -> None:
    shown = Clause(id="c3", kind="shown", description="saved", value="Saved")
    contract = start_contract(Contract(clauses=(SMS_ON, SAVE, shown)), settings(sms=True))
    after = check_contract(contract, settings(sms=True), step=1, previous=step(0, 'click("3")', ("c2",), effect=False))
    assert contract_unproven(after)  # Save worked, no result shown: ask the user
    assert not contract_unproven(contract)  # Save never pressed: not done
    not_done = start_contract(Contract(clauses=(SMS_ON.model_copy(update={"before": None}),)), settings(sms=False))
    assert not contract_unproven(not_done)  # SMS is off: failed, not unproven


def test_clauses_say_why_they_cannot_be_checked() -> None:
    assert Clause(id="x", kind="field_value", description="d", value="v").problems() == ["a field_value clause needs a target element"]
    assert "state" in Clause(id="x", kind="control", description="d", target=ElementRef(name="A")).problems()[0]
    assert Clause(id="x", kind="activated", description="d", action="back").problems() == []
    assert Clause(id="x", kind="activated", description="d", action="click").problems()
    assert Clause(id="x", kind="message", description="d").mode == "event"
    assert Clause(id="x", kind="shown", description="d", value="v").mode == "state"


def test_a_list_named_loosely_is_the_pages_one_list() -> None:
    # "Select Ronda from the scroll list": no list is labelled "scroll"; the page has one list.
    clause = Clause(id="c1", kind="choice", description="Ronda is chosen", target=ElementRef(name="scroll", role="combobox"), value="Ronda")
    one = page({"i": "1", "r": "sel", "n": "", "v": "Ronda"}, {"i": "2", "r": "btn", "n": "Submit"})
    assert start_contract(Contract(clauses=(clause,)), one).satisfied
    two = page({"i": "1", "r": "sel", "n": "", "v": "Ronda"}, {"i": "2", "r": "sel", "n": "", "v": "Ann"})
    assert not start_contract(Contract(clauses=(clause,)), two).satisfied  # which list? no guess


def test_a_message_that_must_go_goes_and_stays_gone() -> None:
    banner = Clause(id="c1", kind="message", description="the warning is dismissed", value="expires", appear=False)
    start = page({"i": "1", "r": "btn", "n": "Dismiss"}, messages=("Your trial expires soon",))
    contract = start_contract(Contract(clauses=(banner,)), start)
    assert contract.result("c1").status == "pending"
    gone = check_contract(contract, page({"i": "2", "r": "link", "n": "Home"}), step=1)
    assert gone.satisfied
    assert check_contract(gone, start, step=2).result("c1").status == "holds"  # an event: it happened
    never_there = start_contract(Contract(clauses=(banner,)), page({"i": "2", "r": "link", "n": "Home"}))
    assert not never_there.satisfied  # nothing disappeared


def _multi_select(selected: str) -> PageState:
    # input_type "select-multiple" is what a V3 node's ``ty`` (or the HTML) says of <select multiple>.
    toppings = PageElement(id="1", role="combobox", name="Toppings", value=selected, input_type="select-multiple")
    return PageState(url=URL, elements=(toppings,))


def test_a_choice_on_a_multi_select_holds_when_the_option_is_among_the_selected() -> None:
    def status(option: str, selected: str) -> str:
        clause = Clause(id="c1", kind="choice", description=f"{option} is selected", target=ElementRef(name="Toppings"), value=option)
        return start_contract(Contract(clauses=(clause,)), _multi_select(selected)).result("c1").status

    assert status("Olives", "Cheese, Olives") == "holds"
    assert status("cheese", "Cheese, Olives") == "holds"
    assert status("Cheese, Olives", "Cheese, Olives") == "holds"
    assert status("Ham", "Cheese, Olives") == "failed"
    assert status("Olive", "Cheese, Olives") == "failed"
    # On a single-choice list the joined value is one label: "Paris" is not "Paris, France".
    single = PageState(url=URL, elements=(PageElement(id="1", role="combobox", name="City", value="Paris, France"),))
    clause = Clause(id="c1", kind="choice", description="Paris", target=ElementRef(name="City"), value="Paris")
    assert start_contract(Contract(clauses=(clause,)), single).result("c1").status == "failed"


def test_a_time_field_holds_a_time_however_it_is_spelt() -> None:
    clause = Clause(id="c1", kind="field_value", description="Time is 9:37 PM", target=ElementRef(name="Time"), value="9:37 PM", match="time")
    held = start_contract(Contract(clauses=(clause,)), page({"i": "1", "r": "inp", "n": "Time", "v": "21:37"}))
    assert held.satisfied
    morning = start_contract(Contract(clauses=(clause,)), page({"i": "1", "r": "inp", "n": "Time", "v": "09:37"}))
    assert morning.result("c1").status == "failed" and "'09:37'" in morning.result("c1").detail


def _boxes(*checked: bool) -> PageState:
    return page(*({"i": str(n), "r": "chk", "n": f"Option {n}", **({"s": "checked"} if on else {})} for n, on in enumerate(checked)))


@pytest.mark.parametrize(
    ("ref", "checked", "holds"),
    [
        (ElementRef(role="checkbox", any=True), (False, True, False), True),  # any one on is enough
        (ElementRef(role="checkbox", any=True), (False, False, False), False),
        (ElementRef(role="checkbox", every=True), (True, False, True), False),  # every one must be on
        (ElementRef(role="checkbox", every=True), (True, True, True), True),
    ],
)
def test_any_and_every_checkbox(ref: ElementRef, checked: tuple[bool, ...], holds: bool) -> None:
    clause = Clause(id="c1", kind="control", description="box on", target=ref, state="checked")
    contract = start_contract(Contract(clauses=(clause,)), _boxes(*checked))
    assert contract.satisfied is holds


def test_a_click_on_any_element_of_the_kind_proves_a_click_on_a_kind() -> None:
    boxes = page({"i": "1", "r": "radio", "n": "A"}, {"i": "2", "r": "chk", "n": "B"}, {"i": "3", "r": "chk", "n": "C"})
    clause = Clause(id="c1", kind="activated", description="Click a checkbox", target=ElementRef(role="checkbox", any=True), action="click")
    contract = start_contract(Contract(clauses=(clause,)), boxes)
    assert clause_hits(contract, Action(name="click", target="3"), boxes) == ("c1",)
    assert clause_hits(contract, Action(name="click", target="1"), boxes) == ()


@pytest.mark.parametrize(
    ("states", "edge", "holds"),
    [
        ("scrolled-bottom", "bottom", True),
        ("scrolled-top", "top", True),
        ("scrolled-top", "bottom", False),
        (None, "bottom", False),  # part-way down: neither end
    ],
)
def test_a_box_scrolled_to_an_end_is_read_from_its_scroll_state(states: str | None, edge: str, holds: bool) -> None:
    notes = {"i": "1", "r": "inp", "n": "Notes", "ty": "textarea", **({"s": states} if states else {})}
    clause = Clause(id="c1", kind="control", description=f"Scroll the notes to the {edge}", target=ElementRef(name="notes"), state=f"scrolled-{edge}")  # type: ignore[arg-type]
    contract = start_contract(Contract(clauses=(clause,)), page(notes))
    assert contract.satisfied is holds
    if not holds:
        assert "scrolled" in contract.result("c1").detail


def test_an_autocomplete_field_holds_every_condition_on_its_value_and_nothing_else_counts() -> None:
    target = ElementRef(name="Tags")
    starts = Clause(id="c1", kind="field_value", description="starts with An", target=target, value="An", match="starts")
    ends = Clause(id="c2", kind="field_value", description="ends with ica", target=target, value="ica", match="ends")
    contract = Contract(clauses=(starts, ends))
    chosen = page({"i": "1", "r": "inp", "n": "Tags", "v": "Antarctica"})
    assert start_contract(contract, chosen).satisfied
    typed = start_contract(contract, page({"i": "1", "r": "inp", "n": "Tags", "v": "An"}, {"i": "2", "r": "option", "n": "Antarctica"}))
    assert statuses(typed) == ["holds", "failed"]  # a suggestion shown (or clicked) is not the field's value
    other = start_contract(contract, page({"i": "1", "r": "inp", "n": "Tags", "v": "Angola"}))
    assert not other.satisfied and "'Angola'" in other.result("c2").detail


@pytest.mark.parametrize(
    ("label", "hit"),
    [
        ("Block @leo", True),
        ("Block", True),
        ("I agree to block all cookies", True),  # a long label that is still about it
        ("Share via DM Copy link to Tweet Embed Tweet Mute @leo Block @leo Report", False),  # a wrapper of a whole menu
    ],
)
def test_a_click_on_something_that_only_mentions_the_name_among_many_other_words_is_no_hit(label: str, hit: bool) -> None:
    menu = page({"i": "w", "r": "btn", "n": label})
    clause = Clause(id="c1", kind="activated", description="Click Block", target=ElementRef(name="Block"), action="click")
    assert clause_hits(Contract(clauses=(clause,)), Action(name="click", target="w"), menu) == (("c1",) if hit else ())
