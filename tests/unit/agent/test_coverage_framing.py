"""Words that only frame a request (agent.policy.coverage.unaccounted): a correct contract
accounts for the whole goal without them — and the same words, where they do ask for
something, stay requirements."""

from __future__ import annotations

from agent.policy.coverage import unaccounted
from verification.contract import Clause, ElementRef


def _field(n: int, name: str, value: str) -> Clause:
    return Clause(id=f"c{n}", kind="field_value", description=f"{name} holds {value}", target=ElementRef(name=name), value=value)


def _press(n: int, name: str, container: str | None = None) -> Clause:
    target = ElementRef(name=name, container=container)
    return Clause(id=f"c{n}", kind="activated", description=f"{name} pressed", target=target, action="click", effect=True)


def test_a_name_with_an_apostrophe_and_a_possessive_is_one_word() -> None:
    goal = "grace o'connell's name should be Grace O'Connell-Byrne now"
    assert unaccounted(goal, [_field(1, "Name", "Grace O'Connell-Byrne")]) == ()


def test_a_search_operator_is_not_a_web_address() -> None:
    goal = "search my mail for is:unread"
    assert unaccounted(goal, [_field(1, "Search mail", "is:unread"), _press(2, "Search")]) == ()
    assert unaccounted("show me only my unread mail (is:unread)", [_field(1, "Search mail", "is:unread"), _press(2, "Search")]) == ()


def test_no_before_a_number_says_number() -> None:
    goal = "add Kowalski Plumbing as a payee sort code 309950 acc no 11223344"
    clauses = [_field(1, "Payee name", "Kowalski Plumbing"), _field(2, "Sort code", "309950"), _field(3, "Account number", "11223344"), _press(4, "Add payee")]
    assert unaccounted(goal, clauses) == ()
    assert unaccounted("add Kowalski Plumbing as a payee, no reference", clauses[:1] + clauses[3:]) == ("no", "reference")


def test_a_request_word_after_the_user_only_says_the_rest_is_asked() -> None:
    delete = _press(1, "Delete", container="Spring menu")
    assert unaccounted("I'd like to delete the Spring menu", [delete]) == ()
    assert unaccounted("we really need to delete the Spring menu", [delete]) == ()
    assert unaccounted("Like the Spring menu", [delete]) == ("Like",)  # a verb of its own here


def test_what_you_sell_is_the_sites_catalogue() -> None:
    add = _press(1, "Add to cart", container="Blue backpack")
    assert unaccounted("add the blue backpack you sell to my cart", [add]) == ()
    assert unaccounted("add the blue backpack to my cart, then sell it", [add]) == ("sell",)
    assert unaccounted("whats the blue backpack you have? add it to my cart", [add]) == ()


def test_add_a_checkbox_and_go_on_with_the_page_s_move_on_button() -> None:
    insurance = Clause(id="c1", kind="control", description="Travel insurance is on", target=ElementRef(name="Travel insurance"), state="checked")
    goal = "add travel insurance and then go on to payment"
    assert unaccounted(goal, [insurance, _press(2, "Continue to payment")]) == ()
    assert unaccounted(goal, [insurance]) == ("go", "payment")


def _choice(n: int, name: str, value: str) -> Clause:
    return Clause(id=f"c{n}", kind="choice", description=f"{name} is {value}", target=ElementRef(name=name), value=value)


def test_words_of_one_intent_and_changes_said_otherwise() -> None:
    require = Clause(id="c1", kind="control", description="on", target=ElementRef(name="Require two-factor authentication for all users"), state="checked")
    assert unaccounted("Turn on mandatory two-factor auth for everyone", [require, _press(2, "Save settings")]) == ()  # "auth" cut short
    goal = "Priya Raman is moving to the Design team; downgrade her to Member while you're at it"
    clauses = [_choice(1, "Team", "Design"), _choice(2, "Role", "Member"), _press(3, "Save changes", container="Priya Raman")]
    assert unaccounted(goal, clauses) == ()


def test_a_word_cut_short_is_a_labels_word_never_a_verbs() -> None:
    cancel = Clause(id="c1", kind="activated", description="x", target=ElementRef(name="Cancel subscription", role="button"), action="click", effect=True)
    assert unaccounted("Cancel my Pro subscription", [cancel]) == ("Pro",)  # not "promote" cut short


def test_my_record_said_to_be_wrong_anywhere_in_its_part_is_why() -> None:
    goal = "On the check your answers page my date of birth is wrong – it should be 21/09/1987. Fix it and then send the application."
    clauses = [_field(1, "Date of birth", "21/09/1987"), _press(2, "Accept and send application")]
    assert unaccounted(goal, clauses) == ()


def test_a_list_beside_the_records_it_holds_says_where() -> None:
    delete = _press(1, "Delete", container="Greenfield Nursery")
    payees = Clause(id="c2", kind="shown", description="the payees", value="payees")
    assert unaccounted("please remove the nursery from my list of payees", [delete, payees]) == ()
    name = Clause(id="c1", kind="field_value", description="Name holds Bob", target=ElementRef(name="Name", role="textbox"), value="Bob")
    save = Clause(id="c2", kind="activated", description="Save", target=ElementRef(name="Save", role="button"), action="click", effect=True)
    assert unaccounted("put Bob on the VIP list", [name, save]) == ("VIP", "list")  # which list: unsaid


def test_a_verb_and_its_particle_mean_what_the_pair_means() -> None:
    remove = _press(1, "Remove Ember down jacket from wishlist")
    assert unaccounted("take the Ember down jacket off my wishlist", [remove]) == ()
    assert unaccounted("take the Ember down jacket to my wishlist", [remove]) == ("take",)  # no particle: no meaning
    resend = _press(1, "Resend invitation", container="Emily Nakamura")
    assert "send" not in unaccounted("send Emily Nakamura's invitation again", [resend])
    assert unaccounted("take a photo of the Ember down jacket", [remove]) == ("take", "photo")


def test_a_word_that_says_what_kind_of_value_follows_is_that_values() -> None:
    born, phone = _field(1, "Date of birth", "1985-03-14"), _field(2, "Mobile number", "(617) 555-0142")
    assert unaccounted("David Osei, born 14 March 1985, phone (617) 555-0142", [_field(3, "Name", "David Osei"), born, phone]) == ()
    # Without a held value after it, the word asks for something no clause does.
    assert unaccounted("David Osei, born 14 March 1985, phone him", [_field(3, "Name", "David Osei"), born]) == ("phone",)


def test_a_period_said_as_an_adverb_is_the_period() -> None:
    often = Clause(id="c1", kind="choice", description="How often is Every month", target=ElementRef(name="How often"), value="Every month")
    assert unaccounted("a monthly standing order to J. Okafor", [often, _press(2, "Set up standing order", container="J. Okafor")]) == ()
