"""A correct model's clauses are not refused for speaking the page's language
(agent.model_clauses.merge_model_clauses, agent.policy.coverage.grounded / respelled_values):
the page supplies the vocabulary — its labels, options, rows, its own way to commit — the goal
the values and the intent; a clause naming a later page's labels waits for that page; the
fields a press submits must have held when it was made."""

from __future__ import annotations

from agent.model_clauses import merge_model_clauses, merge_proposed
from agent.policy.coverage import grounded, respelled_values, unaccounted
from verification import PageElement, PageState
from verification.contract import Clause, Contract, ElementRef


def _clause(cid: str, kind: str, name: str, value: str | None = None, **kw: object) -> Clause:
    return Clause(id=cid, kind=kind, description=f"{name} {value or ''}", target=ElementRef(name=name), value=value, source="model", **kw)  # type: ignore[arg-type]


def _page(*labels: str, options: tuple[str, ...] = ()) -> PageState:
    elements = [PageElement(id=str(i), role="textbox", name=label) for i, label in enumerate(labels)]
    if options:
        elements.append(PageElement(id="sel", role="combobox", name="Account", options=options))
    return PageState(url="https://bank.example/", elements=tuple(elements))


GOAL = "Set the daily spending limit on the card ending 2290 to £1,500"
PAGE_TEXTS = ["Daily spending limit", "Save limits", "Freeze card"]


def test_a_clause_in_the_pages_words_that_shares_the_goals_is_grounded() -> None:
    assert grounded(_clause("m1", "field_value", "Daily spending limit", "1500"), GOAL, PAGE_TEXTS)  # £1,500 spelled 1500
    assert grounded(_clause("m2", "activated", "Save limits", action="click", effect=True), GOAL, PAGE_TEXTS)


def test_what_neither_the_goal_nor_the_page_says_is_not() -> None:
    assert not grounded(_clause("m1", "activated", "Delete account", action="click", effect=True), GOAL, PAGE_TEXTS)  # not on the page
    assert not grounded(_clause("m1", "field_value", "Daily spending limit", "2000"), GOAL, PAGE_TEXTS)  # not the goal's value
    assert not grounded(_clause("m1", "activated", "Help", action="click"), GOAL, [*PAGE_TEXTS, "Help"])  # on the page, nothing of the goal


def test_the_pages_own_way_to_commit_is_grounded_wherever_it_is_shown() -> None:
    confirm = _clause("m3", "activated", "Confirm payment", action="click", effect=True)
    assert grounded(confirm, "Pay J. Okafor £850 today", ["Confirm payment", "Edit"])
    assert not grounded(confirm, "Pay J. Okafor £850 today", ["Edit"])


def test_numbers_and_dates_in_another_spelling_are_accounted_for() -> None:
    goal = "Transfer £2,000 to my current account on 1 Dec 2026"
    clauses = [_clause("m1", "field_value", "Amount", "2000"), _clause("m2", "field_value", "Payment date", "01/12/2026")]
    assert [goal[a:b] for a, b in respelled_values(goal, clauses)] == ["£2,000", "1 Dec 2026"]
    assert "Dec" not in unaccounted(goal, clauses) and "2" not in unaccounted(goal, clauses)
    assert respelled_values(goal, [_clause("m1", "field_value", "Amount", "200")]) == []


def test_a_clause_naming_a_later_pages_labels_waits_and_the_fields_hold_when_their_press_is_made() -> None:
    goal = "download the Easy Saver statement for Sept 2026 as a CSV"
    proposal = [_clause("m1", "choice", "Account", "Easy Saver (7730)"), _clause("m2", "activated", "CSV", action="click", effect=True)]
    first = _page("Accounts", "Statements")
    merged, _ = merge_model_clauses(Contract(goal=goal), goal, proposal, first)
    assert [c.kind for c in merged.clauses] == ["activated"]  # "CSV" is the goal's own word
    assert [(c.id, c.before) for c in merged.proposed] == [("m1", merged.clauses[0].id)]  # the account list is on the next page
    later = merge_proposed(merged, goal, _page("CSV", options=("Current Account (4412)", "Easy Saver (7730)")))
    assert [c.kind for c in later.clauses] == ["activated", "choice"] and not later.proposed
    press, choice = later.clauses
    assert choice.before == press.id  # the choice must have held when CSV was pressed


def test_a_press_that_submits_merged_fields_is_kept_though_it_binds_no_word_of_its_own() -> None:
    goal = "Pay J. Okafor £850, reference 'Dec rent'"
    proposal = [_clause("m1", "field_value", "Amount", "850"), _clause("m2", "field_value", "Reference", "Dec rent"),
                _clause("m3", "activated", "Continue", action="click", effect=True)]
    merged, _ = merge_model_clauses(Contract(goal=goal), goal, proposal, _page("Amount", "Reference", "Continue"))
    assert [c.kind for c in merged.clauses] == ["field_value", "field_value", "activated"]
    assert {c.before for c in merged.clauses[:2]} == {merged.clauses[2].id}


def test_a_proposal_merged_again_on_a_later_page_adds_no_second_press() -> None:
    goal = "Pay J. Okafor £850, reference 'Dec rent'"
    proposal = [_clause("m1", "field_value", "Amount", "850"), _clause("m2", "field_value", "Reference", "Dec rent"),
                _clause("m3", "activated", "Continue", action="click", effect=True)]
    page = _page("Amount", "Reference", "Continue")
    merged, _ = merge_model_clauses(Contract(goal=goal), goal, proposal, page)
    again, _ = merge_model_clauses(merged, goal, proposal, page)
    assert len(again.clauses) == len(merged.clauses) == 3


def test_a_policy_clause_naming_what_no_page_shows_yields_to_the_models_clause_with_its_value() -> None:
    policy = Clause(id="c1", kind="field_value", description="Enter '£1,500' into daily spending limit on the card ending 2290",
                    target=ElementRef(name="daily spending limit on the card ending 2290"), value="£1,500")
    contract = Contract(goal=GOAL, clauses=(policy,), source="policy")
    proposal = [_clause("m1", "field_value", "Daily spending limit", "1500"), _clause("m2", "activated", "Save limits", action="click", effect=True)]
    merged, _ = merge_model_clauses(contract, GOAL, proposal, _page("Daily spending limit", "Save limits"))
    assert [c.source for c in merged.clauses] == ["model", "model"]
    assert merged.clauses[0].value == "1500"


def test_a_policy_clause_the_page_shows_or_whose_value_no_model_clause_holds_stays() -> None:
    shown = Clause(id="c1", kind="field_value", description="Enter '£1,500' into Daily spending limit",
                   target=ElementRef(name="Daily spending limit"), value="£1,500")
    unseen = shown.model_copy(update={"target": ElementRef(name="limit on the card ending 2290")})
    proposal = [_clause("m1", "field_value", "Daily spending limit", "2000"), _clause("m2", "activated", "Save limits", action="click", effect=True)]
    page = _page("Daily spending limit", "Save limits")
    for policy in (shown, unseen):
        merged, _ = merge_model_clauses(Contract(goal=GOAL, clauses=(policy,)), GOAL, proposal, page)
        assert policy in merged.clauses


def test_a_date_the_goal_gives_without_its_year_grounds_the_pages_full_date() -> None:
    goal = "flying from Chicago to Miami on 20 December, one way"
    depart = _clause("m1", "field_value", "Depart", "12/20/2026")
    assert grounded(depart, goal, ["Depart"]) and "December" not in unaccounted(goal, [depart])
    assert not grounded(_clause("m1", "field_value", "Depart", "12/21/2026"), goal, ["Depart"])


def test_a_field_proposed_again_names_the_press_merged_before_by_its_contract_id() -> None:
    goal = "save my application for later, my email is sarah@example.com"
    proposal = [_clause("m1", "field_value", "Email address", "sarah@example.com"), _clause("m2", "activated", "Save application", action="click", effect=True)]
    first = _page("Save and come back later")
    merged, _ = merge_model_clauses(Contract(goal=goal), goal, proposal, first)
    again, _ = merge_model_clauses(merged, goal, proposal, first)  # the planner asked twice on the first page
    later = merge_proposed(again, goal, _page("Email address", "Save application"))
    press = next(c for c in later.clauses if c.kind == "activated")
    field = next(c for c in later.clauses if c.kind == "field_value")
    assert field.before == press.id


def test_fields_whose_press_was_never_accepted_are_not_merged_alone() -> None:
    """A false completion found by the gym: the date and time typed, the dialog's "Schedule"
    never pressed, and the fields alone held — "completed"."""
    goal = "move the Salt House review to 12/2/2026 at 6:30 pm"
    proposal = [_clause("m1", "field_value", "Publish on", "12/2/2026"), _clause("m2", "field_value", "Time", "6:30 pm"),
                _clause("m3", "activated", "Schedule", action="click", effect=True)]
    merged, _ = merge_model_clauses(Contract(goal=goal), goal, proposal, _page("Posts", "Review: The Salt House reopens"))
    assert not merged.clauses and [c.id for c in merged.proposed] == ["m1", "m2", "m3"]  # the press waits with its fields
    later = merge_proposed(merged, goal, _page("Publish on", "Time", "Schedule"))
    press = next(c for c in later.clauses if c.kind == "activated")
    assert {c.before for c in later.clauses if c.kind == "field_value"} == {press.id}  # the form's own commit, whatever its label
    orphans = Contract(goal=goal, proposed=(proposal[0].model_copy(update={"before": "m9"}),))
    assert not merge_proposed(orphans, goal, _page("Publish on", "Time", "Schedule")).clauses  # its press is gone: never merged alone


def test_a_policy_reading_no_person_would_make_yields_to_the_models_grounded_clauses() -> None:
    """The policy read the goal without the page: a filler word typed into a run-on phrase,
    or a switch named by half a sentence. With the model's clauses grounded on the page, such a
    clause yields; its words go back to the goal's unaccounted words (never proven by nothing)."""
    goal = "Book me seat 12D on the aisle, then continue to payment"
    filler = Clause(id="c1", kind="field_value", description="Enter 'me' into 12D on the aisle", target=ElementRef(name="12D on the aisle"), value="me")
    run_on = Clause(id="c2", kind="control", description="Turn on my seat from row 12 to row 14", target=ElementRef(name="seat from row 12 to row 14"), state="checked")
    proposal = [_clause("m1", "activated", "Seat 12D", action="click", effect=True), _clause("m2", "activated", "Continue to payment", action="click", effect=True)]
    page = _page("Seat 12D", "Continue to payment")
    for policy in (filler, run_on):
        merged, missing = merge_model_clauses(Contract(goal=goal, clauses=(policy,), source="policy"), goal, proposal, page)
        assert policy not in merged.clauses and [c.source for c in merged.clauses] == ["model", "model"]
        assert "aisle" in missing  # only the dropped clause bound it


def test_a_policy_value_read_past_its_end_yields_to_the_models_shorter_one() -> None:
    goal = "Create a label called Health and file Dr. Mercer's appointment reminder under it"
    over = Clause(id="c1", kind="field_value", description="Enter 'Health and file Dr' as the name", target=ElementRef(name="name"), value="Health and file Dr")
    proposal = [_clause("m1", "field_value", "New label", "Health"), _clause("m2", "activated", "Create", action="click", effect=True)]
    merged, missing = merge_model_clauses(Contract(goal=goal, clauses=(over,), source="policy"), goal, proposal, _page("New label", "Create"))
    assert over not in merged.clauses and [c.value for c in merged.clauses if c.kind == "field_value"] == ["Health"]
    assert "Dr" in missing  # the words only the over-read bound are asked for again
    # A model value the policy's merely contains elsewhere is another value: the policy's stays.
    other = [_clause("m1", "field_value", "New label", "file"), proposal[1]]
    merged, _ = merge_model_clauses(Contract(goal=goal, clauses=(over,), source="policy"), goal, other, _page("New label", "Create"))
    assert over.description in [c.description for c in merged.clauses]


def test_a_misread_policy_clause_stays_when_the_model_offers_nothing_grounded() -> None:
    goal = "Book me seat 12D on the aisle"
    filler = Clause(id="c1", kind="field_value", description="Enter 'me' into 12D on the aisle", target=ElementRef(name="12D on the aisle"), value="me")
    contract = Contract(goal=goal, clauses=(filler,), source="policy")
    merged, _ = merge_model_clauses(contract, goal, [_clause("m1", "activated", "Delete account", action="click", effect=True)], _page("Seat 12D"))
    assert merged.clauses == (filler,)


def test_counts_in_words_and_words_for_the_same_thing_are_accounted_for() -> None:
    goal = "Dallas to London Gatwick for three adults, out 14 Mar 2027, back 28 Mar 2027"
    clauses = [_clause("m1", "field_value", "Adults", "3"), _clause("m2", "field_value", "Depart", "03/14/2027"),
               _clause("m3", "field_value", "Return", "03/28/2027")]
    assert unaccounted(goal, clauses) == ("Dallas", "London", "Gatwick")
    send = _clause("m1", "activated", "Send", action="click", effect=True)
    assert unaccounted("email Tom Okafor my headshot", [send]) == ("Tom", "Okafor", "headshot")
    draft = _clause("m1", "activated", "Save draft", action="click", effect=True)
    assert "email" in unaccounted("email Tom Okafor my headshot", [draft])  # a draft saved is not sent
    assert "send" in unaccounted("send Tom Okafor my headshot", [draft])


def test_a_date_taken_in_day_month_and_year_fields_is_the_goals_date() -> None:
    goal = "move the permit start date to 2nd January 2027 and submit"
    parts = [_clause("m1", "field_value", "Day", "2"), _clause("m2", "field_value", "Month", "1"), _clause("m3", "field_value", "Year", "2027")]
    assert all(grounded(part, goal, ["Day", "Month", "Year"]) for part in parts)
    assert not grounded(_clause("m2", "field_value", "Month", "2"), goal, ["Day", "Month", "Year"])  # February is not the goal's
    assert "January" not in unaccounted(goal, parts)
    assert "January" in unaccounted(goal, [parts[0], _clause("m2", "field_value", "Month", "3")])
    continue_ = _clause("m4", "activated", "Continue", action="click", effect=True)
    merged, _ = merge_model_clauses(Contract(goal=goal), goal, [*parts, continue_], _page("Day", "Month", "Year", "Continue"))
    assert [c.target.name for c in merged.clauses if c.target is not None] == ["Day", "Month", "Year", "Continue"]


def test_a_press_that_only_moves_on_submits_nothing_yet() -> None:
    """A false completion the gym found: the date changed, "Continue" pressed, and "submit" read
    as said by it — the application was never sent."""
    goal = "move the permit start date to 2nd January 2027 and submit"
    parts = [_clause("m1", "field_value", "Day", "2"), _clause("m2", "field_value", "Month", "1"), _clause("m3", "field_value", "Year", "2027")]
    moved_on = _clause("m4", "activated", "Continue", action="click", effect=True)
    assert "submit" in unaccounted(goal, [*parts, moved_on])
    sent = _clause("m5", "activated", "Accept and send application", action="click", effect=True)
    assert "submit" not in unaccounted(goal, [*parts, moved_on, sent])


def test_a_grounded_press_that_binds_nothing_yet_waits_for_the_words_a_policy_clause_gives_back() -> None:
    """The policy's "Submit the form" bound "submit" on the first page; on the next it named
    nothing there and yielded. The page's own final press, proposed on the first page, is what
    then accounts for "submit" — it must still be there to be merged."""
    goal = "move the permit start date to 2nd January 2027 and submit"
    policy = Clause(id="c1", kind="activated", description="Submit the form", target=ElementRef(name="submit", commit=True), action="click", effect=True)
    contract = Contract(goal=goal, clauses=(policy,), source="policy")
    accept = _clause("m7", "activated", "Accept and send application", action="click", effect=True)
    proposal = [_clause("m2", "field_value", "Day", "2"), _clause("m3", "field_value", "Month", "1"), _clause("m4", "field_value", "Year", "2027"),
                _clause("m5", "activated", "Continue", action="click", effect=True), accept]
    answers = PageState(url="https://permits.example/check", elements=(PageElement(id="1", role="button", name="Submit"),
                                                                        PageElement(id="2", role="button", name="Accept and send application")))
    merged, _ = merge_model_clauses(contract, goal, proposal, answers)
    assert policy in merged.clauses  # "Submit" is on this page: the policy's clause stands, the press binds nothing yet
    assert any(p.target is not None and p.target.name == "Accept and send application" for p in merged.proposed)
    # On a later page the policy's clause names nothing and yields "submit" back (agent.model_clauses._yield_unseen).
    moved = merged.model_copy(update={"clauses": ()})
    back = merge_proposed(moved, goal, answers)
    assert "Accept and send application" in [c.target.name for c in back.clauses if c.target is not None]


def test_a_form_sent_twice_is_two_requirements_each_held_when_its_own_press_is_made() -> None:
    """'Invite Lena and Raj as Sales members': the same fields, the same values but the email,
    the same press — twice. The repeat is not merged away, so Raj's invite is proven by the
    second press, with Raj's values in the form when it was made."""
    goal = "Add two new reps as regular Sales members: lena.fox@halyard.io and raj.iyer@halyard.io"
    send = lambda cid: _clause(cid, "activated", "Send invite", action="click", effect=True)  # noqa: E731
    proposal = [
        _clause("m1", "field_value", "Email address", "lena.fox@halyard.io"), _clause("m2", "choice", "Role", "Member"),
        _clause("m3", "choice", "Team", "Sales"), send("m4"),
        _clause("m5", "field_value", "Email address", "raj.iyer@halyard.io"), _clause("m6", "choice", "Role", "Member"),
        _clause("m7", "choice", "Team", "Sales"), send("m8"),
    ]  # fmt: skip
    page = PageState(url="https://admin.example/users", elements=(
        PageElement(id="1", role="textbox", name="Email address"), PageElement(id="2", role="combobox", name="Role", options=("Member", "Viewer")),
        PageElement(id="3", role="combobox", name="Team", options=("Sales", "Support")), PageElement(id="4", role="button", name="Send invite"),
    ))  # fmt: skip
    merged, _ = merge_model_clauses(Contract(goal=goal), goal, proposal, page)
    presses = [c for c in merged.clauses if c.kind == "activated"]
    assert len(presses) == 2
    first, second = (c.id for c in presses)
    tied = {c.value: [] for c in merged.clauses if c.value}
    for clause in merged.clauses:
        if clause.value:
            tied[clause.value].append(clause.before)
    assert tied["lena.fox@halyard.io"] == [first] and tied["raj.iyer@halyard.io"] == [second]
    assert sorted(tied["Member"]) == sorted([first, second]) and sorted(tied["Sales"]) == sorted([first, second])
    again, _ = merge_model_clauses(merged, goal, proposal, page)  # proposed again on a later page: nothing doubles
    assert again.clauses == merged.clauses


def test_a_press_on_the_control_an_earlier_press_was_confirmed_with_is_that_confirmation() -> None:
    """"Delete post" opened «Delete “Storm Bram”?» and was confirmed with its "Delete": a model
    that also names that "Delete" proposes the confirmation already given — never a press still
    to make, which nothing could prove once the dialog is gone."""
    from verification.contract import ClauseResult

    goal = "please delete the storm bram photo essay"
    delete_post = Clause(id="c1", kind="activated", description="Delete post", target=ElementRef(name="Delete post", container="Photo essay: Storm Bram"), action="click", effect=True)
    done = ClauseResult(id="c1", status="holds", detail="done at step 1", confirmed="Delete")
    contract = Contract(clauses=(delete_post,), results={"c1": done}, source="merged")
    listing = PageState(url="https://cms.example/posts", elements=(PageElement(id="9", role="button", name="Delete post"), PageElement(id="8", role="button", name="Delete")))
    merged, _missing = merge_model_clauses(contract, goal, [_clause("m1", "activated", "Delete", action="click", effect=True)], listing)
    assert [c.id for c in merged.clauses] == ["c1"] and not merged.proposed
    # Not confirmed with it: a press still to make.
    unconfirmed = contract.model_copy(update={"results": {"c1": done.model_copy(update={"confirmed": None})}})
    merged, _missing = merge_model_clauses(unconfirmed, goal, [_clause("m1", "activated", "Delete", action="click", effect=True)], listing)
    assert len(merged.clauses) + len(merged.proposed) == 2


def test_a_date_said_whole_binds_the_three_fields_that_hold_it_apart() -> None:
    """"2nd January 2027" into Day, Month, Year: no field binds "January" alone, and none may be
    left waiting — the three are merged together."""
    goal = "move the permit start date to 2nd January 2027"
    fields = [_clause("m1", "field_value", "Day", "2"), _clause("m2", "field_value", "Month", "1"), _clause("m3", "field_value", "Year", "2027")]
    merged, missing = merge_model_clauses(Contract(goal=goal, source="policy"), goal, fields, _page("Day", "Month", "Year"))
    assert [c.value for c in merged.clauses] == ["2", "1", "2027"] and "January" not in missing
    # A field of another date binds nothing with them: it is not merged.
    stray = [*fields, _clause("m4", "field_value", "Expiry year", "2030")]
    merged, _missing = merge_model_clauses(Contract(goal=goal, source="policy"), goal, stray, _page("Day", "Month", "Year", "Expiry year"))
    assert "2030" not in [c.value for c in merged.clauses]
