"""Goals as people write them → steps and a contract that accounts for every word."""

from __future__ import annotations

import pytest

from agent.page_meaning import read_on_page
from agent.policy import understand
from verification import PageState


def _read(goal: str) -> tuple[list[tuple[str, str | None, str | None]], tuple[str, ...]]:
    reading = understand(goal)
    return [(s.kind, s.target, s.value) for s in reading.plan.steps], reading.contract.unaccounted


LOGIN_STEPS = [("fill", "username", "alice"), ("fill", "password", "wonderland"), ("submit", "log in", None)]


@pytest.mark.parametrize(
    "goal",
    [
        "Log in as alice with password wonderland",
        "log in as alice, password wonderland",
        'Sign in with username "alice" and password "wonderland"',
        "Sign in with the user alice and the password wonderland.",
        "Please log on as alice using password wonderland",
        "Login as 'alice' with the password 'wonderland'",
    ],
)
def test_login_phrasings_read_as_user_password_and_submit(goal: str) -> None:
    steps, missing = _read(goal)
    assert steps == LOGIN_STEPS and missing == ()


def test_a_login_with_an_email_fills_the_email_field() -> None:
    steps, missing = _read("Sign in as ana@example.org with password pw1")
    assert steps[0] == ("fill", "email", "ana@example.org") and missing == ()


@pytest.mark.parametrize(
    ("goal", "query"),
    [
        ("Search for laptop", "laptop"),
        ('search "wireless mouse"', "wireless mouse"),
        ("Look up standing desk in the catalog", "standing desk"),
        ("look for USB-C cables", "USB-C cables"),
        ("search my mail for shipping delay", "shipping delay"),  # where, then what: the place is not the query
        ("search the help pages for international payments", "international payments"),
    ],
)
def test_search_phrasings_fill_the_search_field_and_run_it(goal: str, query: str) -> None:
    steps, missing = _read(goal)
    assert steps == [("fill", "search field", query), ("press", "search field", "Enter")] and missing == ()


@pytest.mark.parametrize(
    "goal",
    [
        "search flights from Boston to Denver on March 3",  # where from, where to, when: a form's values
        "look for a hotel room on 12/20/2026",
        "search for a cheap nonstop flight for two adults leaving early in the morning please",  # a sentence, not a query
        "search for mail from dana that has attachments",  # a relative clause describes what to find
        "look up invoices which are overdue",
        "search the help for articles that mention pets",
    ],
)
def test_a_form_s_values_are_not_read_as_words_to_type_into_a_search_box(goal: str) -> None:
    steps, _missing = _read(goal)
    assert steps == []


def test_a_quoted_query_is_typed_as_given() -> None:
    steps, missing = _read("Search for 'from here to eternity'")
    assert steps == [("fill", "search field", "from here to eternity"), ("press", "search field", "Enter")] and missing == ()


@pytest.mark.parametrize(
    ("goal", "query", "place"),
    [
        ('Search for "pet fees" in the help articles', "pet fees", ("help", "articles")),
        ("search for 'Jones' in the Books section", "Jones", ("Books", "section")),
    ],
)
def test_a_quoted_query_with_a_place_types_the_quotes_and_leaves_the_place_to_check(goal: str, query: str, place: tuple[str, ...]) -> None:
    steps, unaccounted = _read(goal)
    assert steps[0] == ("fill", "search field", query)
    assert set(place) <= set(unaccounted)  # where it was typed is not proven by the search


def test_a_search_in_a_named_part_of_the_site_is_not_read_as_a_plain_search() -> None:
    _steps, missing = _read("Search for laptop in the Books section")
    assert "Books" in missing or "section" in missing


@pytest.mark.parametrize(
    ("goal", "kind", "target"),
    [
        ("Turn on SMS notifications", "check", "SMS notifications"),
        ("switch dark mode off", "uncheck", "dark mode"),
        ("Enable two-factor login", "check", "two-factor login"),
        ("Disable email alerts", "uncheck", "email alerts"),
        ("Toggle on the weekly digest", "check", "the weekly digest"),
        ("Turn the newsletter on", "check", "the newsletter"),
    ],
)
def test_toggle_synonyms_read_as_check_and_uncheck(goal: str, kind: str, target: str) -> None:
    steps, missing = _read(goal)
    assert steps == [(kind, target, None)] and missing == ()


@pytest.mark.parametrize(
    ("goal", "container", "ordinal"),
    [
        ("Deactivate Bob Stone", "bob stone", None),
        ("Deactivate Chen Wei's account", "chen wei", None),
        ("Delete the order from Ana Silva", "ana silva", None),
        ("Archive the file named report.pdf", "report.pdf", None),
        ("Reply to the last email from Ana", "ana", -1),
        ("Delete the 2nd order from Bob", "bob", 2),
    ],
)
def test_record_actions_name_the_button_and_the_record_it_is_in(goal: str, container: str, ordinal: int | None) -> None:
    reading = understand(goal)
    (clause,) = reading.contract.clauses
    assert clause.kind == "activated" and clause.target is not None
    assert clause.target.container == container and clause.target.ordinal == ordinal
    assert reading.contract.unaccounted == ()


@pytest.mark.parametrize("goal", ["Delete my account", "Forward the newsletter to my team", "Remove it"])
def test_record_verbs_without_a_record_named_are_not_guessed(goal: str) -> None:
    assert understand(goal).contract.unaccounted


def test_edit_then_set_saves_the_form_it_opened() -> None:
    steps, missing = _read("Edit Dana Kim and set her role to Admin")
    assert steps == [("click", "edit button for Dana Kim", None), ("fill", "role", "Admin"), ("submit", "save", None)]
    assert missing == ()


@pytest.mark.parametrize(
    ("goal", "field", "value"),
    [
        ("Enter 9:37 PM as the time and press submit.", "time", "9:37 PM"),
        ("Select 12/02/2016 as the date and hit submit.", "date", "12/02/2016"),
        ('Type "Oslo" as your city', "city", "Oslo"),
    ],
)
def test_value_as_the_field(goal: str, field: str, value: str) -> None:
    steps, missing = _read(goal)
    assert steps[0] == ("fill", field, value) and missing == ()


@pytest.mark.parametrize(
    ("goal", "field", "value"),
    [
        ("Select -99 with the slider and hit Submit.", "slider", "-99"),
        ("Use the quantity spinner to set 3", "quantity spinner", "3"),
        ("Drag the volume slider to 25", "volume slider", "25"),
        ("Set opacity to 35 with the slider", "opacity slider", "35"),
        ("turn the volume to 8 using the slider", "volume slider", "8"),
    ],
)
def test_a_value_set_with_a_widget_names_the_widget(goal: str, field: str, value: str) -> None:
    steps, missing = _read(goal)
    assert steps[0] == ("fill", field, value) and missing == ()


def test_a_set_list_fills_each_field() -> None:
    steps, missing = _read("Set the name to Ann, the city to Oslo and the age to 5")
    assert steps == [("fill", "name", "Ann"), ("fill", "city", "Oslo"), ("fill", "age", "5")] and missing == ()


def test_a_time_value_is_proven_as_a_time() -> None:
    (time_clause, _submit) = understand("Enter 9:37 PM as the time and press submit").contract.clauses
    assert time_clause.match == "time"


@pytest.mark.parametrize("goal", ["Select File > Export > PDF", "Choose Scout›Amanda›Ibrahim", "click on Edit → Paste"])
def test_menu_paths_open_each_level_then_choose_the_last(goal: str) -> None:
    reading = understand(goal)
    kinds = [s.kind for s in reading.plan.steps]
    assert kinds[-1] == "click" and set(kinds[:-1]) == {"find"} and len(kinds) >= 2
    (clause,) = reading.contract.clauses  # opening the levels is how, choosing the item is what
    assert clause.action == "click" and reading.contract.unaccounted == ()


@pytest.mark.parametrize("goal", ["save", "Submit the form", "then save the settings", "Save changes"])
def test_a_bare_commit_clause_clicks_the_commit_control(goal: str) -> None:
    reading = understand(f"Check Dark mode, {goal}" if not goal.startswith("then") else f"Check Dark mode {goal}")
    assert [s.kind for s in reading.plan.steps] == ["check", "submit"] and reading.contract.unaccounted == ()


def test_several_options_from_one_list_are_several_choices() -> None:
    steps, missing = _read("Select Corrine, Catherine from the scroll list and click Submit.")
    assert [(k, v) for k, _t, v in steps] == [("select", "Corrine"), ("select", "Catherine"), ("submit", None)]
    assert missing == ()


# -- the page decides what a change needs --------------------------------------------------


def _settings(*, sms: bool, save: tuple[str, ...] = ("Save changes",)) -> PageState:
    tree = [{"i": "1", "r": "switch", "n": "SMS notifications", **({"s": ["checked"]} if sms else {})}]
    tree += [{"i": f"s{n}", "r": "btn", "n": label} for n, label in enumerate(save)]
    return PageState.from_v3(tree, url="https://app.example/settings")


def test_a_change_on_a_page_that_saves_includes_the_save() -> None:
    reading = understand("Switch on SMS notifications")
    contract, plan = read_on_page(reading.contract, reading.plan, _settings(sms=False))
    switch, save = contract.clauses
    assert save.kind == "activated" and save.effect and save.target is not None and save.target.name == "Save changes"
    assert switch.before == save.id  # on when the save was made
    assert [s.kind for s in plan.steps] == ["check", "submit"] and plan.steps[-1].clause == save.id


@pytest.mark.parametrize(
    ("page", "why"),
    [
        (_settings(sms=True), "already on: nothing to save"),
        (_settings(sms=False, save=()), "no save control: the switch keeps itself"),
        (_settings(sms=False, save=("Save", "Save as draft")), "two different saves: not guessed"),
        (_settings(sms=False, save=("Submit",)), "a submit is not a save"),
        (PageState.from_v3([{"i": "a", "r": "btn", "n": "Apply"}, {"i": "l", "r": "link", "n": "Profile"}], url="https://app.example/"),
         "the switch is on a later page: its form's own save is there, not this page's Apply"),
    ],
)
def test_no_save_is_added_when_the_page_does_not_call_for_one(page: PageState, why: str) -> None:
    reading = understand("Switch on SMS notifications")
    contract, _plan = read_on_page(reading.contract, reading.plan, page)
    assert len(contract.clauses) == 1, why


@pytest.mark.parametrize(
    ("goal", "seconds"),
    [
        ("Click button ONE, wait 1 seconds, then click button TWO.", "1"),
        ("Press Start, wait for 2 seconds and click Stop", "2"),
        ("Click Start, pause for a second, then click Stop", "1"),
        ("Click Start then wait 2.5 s then click Stop", "2.5"),
    ],
)
def test_a_wait_the_goal_asks_for_is_a_step_in_its_place(goal: str, seconds: str) -> None:
    understanding = understand(goal)
    assert understanding.contract.complete, understanding.contract.unaccounted
    kinds = [s.kind for s in understanding.plan.steps]
    assert kinds == ["click", "wait", "click"]
    assert understanding.plan.steps[1].value == seconds
    assert [c.kind for c in understanding.contract.clauses] == ["activated", "activated"]  # the wait proves nothing


@pytest.mark.parametrize(
    ("goal", "target", "edge"),
    [
        ("Scroll the textarea to the bottom of the text hit submit.", "field", "bottom"),
        ("scroll the terms all the way to the end", "terms", "bottom"),
        ("Scroll the comments list to the very top", "comments list", "top"),
        ("Scroll the log to the beginning, then click Clear", "log", "top"),
    ],
)
def test_scrolling_a_box_to_an_end_is_a_state_of_that_box(goal: str, target: str, edge: str) -> None:
    reading = understand(goal)
    first = reading.plan.steps[0]
    assert (first.kind, first.target, first.value) == ("find", target, edge)
    clause = reading.contract.clauses[0]
    assert (clause.kind, clause.state) == ("control", f"scrolled-{edge}") and reading.contract.unaccounted == ()


@pytest.mark.parametrize("goal", ["Scroll to the bottom of the page", "scroll the page to the top"])
def test_scrolling_the_page_to_an_end_needs_no_box(goal: str) -> None:
    steps, missing = _read(goal)
    assert steps[0][0] == "find" and steps[0][1] is None and steps[0][2] in ("top", "bottom") and missing == ()


@pytest.mark.parametrize(
    ("goal", "clauses"),
    [
        ("Type hello press submit", ["Type hello", "press submit"]),
        ("Click the button labelled hit submit", ["Click the button labelled hit submit"]),
    ],
)
def test_a_run_on_ending_in_a_bare_commit_is_two_clauses(goal: str, clauses: list[str]) -> None:
    from agent.policy.decompose import split_clauses

    assert split_clauses(goal) == clauses


@pytest.mark.parametrize(
    ("goal", "name", "record"),
    [
        ("Find Casie in the contact book and click on their address.", "address", "casie"),
        ("Locate Ana Silva in the directory, then open her profile", "profile", "ana silva"),
        ("Look up Bob Stone in the staff list and click his phone number", "phone number", "bob stone"),
        ("find Acme Ltd and click its website", "website", "acme ltd"),
    ],
)
def test_find_then_their_thing_is_that_records_thing(goal: str, name: str, record: str) -> None:
    reading = understand(goal)
    assert [s.kind for s in reading.plan.steps] == ["click"]
    ref = reading.contract.clauses[0].target
    assert ref is not None and (ref.name, ref.container) == (name, record)
    assert reading.contract.unaccounted == ()


def test_a_find_without_a_pronoun_after_it_is_not_merged() -> None:
    from agent.policy.decompose import merge_find

    clauses = ["Find Casie in the contact book", "click Submit"]
    assert merge_find(clauses) == (clauses, ())


@pytest.mark.parametrize(
    ("goal", "owner"),
    [
        ("Remove Bob Smith from the team", "Bob Smith"),
        ("Remove Milk from the cart", "Milk"),
        ("Remove Ana from my contacts list", "Ana"),
    ],
)
def test_where_a_record_is_removed_from_is_not_part_of_its_name(goal: str, owner: str) -> None:
    understood = understand(goal)
    [clause] = understood.contract.clauses
    assert clause.target is not None and clause.target.container == owner.lower()
    assert understood.contract.unaccounted == ()


@pytest.mark.parametrize("goal", ["Send the message", "Send the email", "Publish the post", "Submit the application", "Post the reply"])
def test_sending_the_thing_a_page_composes_is_its_commit(goal: str) -> None:
    understood = understand(goal)
    assert [s.kind for s in understood.plan.steps] == ["submit"], understood.plan.steps
    assert understood.contract.unaccounted == ()
