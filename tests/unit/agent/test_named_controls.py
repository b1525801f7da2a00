"""A goal that is a control's name, read on its first page (agent/named_controls.py): "Log
out", "Clear the filters", "Cancel my Pro subscription". Pages in several layouts, HTML and
the extension's V3 tree; what must stay unread stays unread."""

from __future__ import annotations

import pytest

from agent.contracts import contract_for_new_task
from tests.unit.verification.support import page_from_html, v3_page
from verification import Contract, PageState


def _read(goal: str, page: PageState) -> Contract:
    contract, plan = contract_for_new_task(goal, page)
    if contract.complete:
        assert [s.kind for s in plan.steps] == ["click"] and plan.steps[0].clause == contract.clauses[0].id
    return contract


def _clicked(contract: Contract) -> tuple[str, str | None] | None:
    if not contract.complete:
        return None
    [clause] = contract.clauses
    assert clause.kind == "activated" and clause.action == "click" and clause.effect  # a visible effect proves it
    assert clause.target is not None
    return clause.target.name, clause.target.container


PLANS = "<section><h2>Pro plan</h2><p>$12/month</p><button>Cancel subscription</button></section>"


@pytest.mark.parametrize(
    ("goal", "body", "expected"),
    [
        ("Log out", "<nav><a href='/'>Home</a> <a href='/me'>Profile</a> <button>Log out</button></nav>", ("Log out", None)),
        ("Please log out", "<nav><a href='/'>Home</a> <button>Log out</button></nav>", ("Log out", None)),
        ("Sign out", "<header><a href='/'>Home</a><a href='/logout'>Sign out</a></header>", ("Sign out", None)),
        ("Clear the filters", "<aside><span>Red</span> <span>Size M</span> <button>Clear filters</button></aside><button>Apply</button>", ("Clear filters", None)),
        ("Mark all as read", "<button>Mark all as read</button><ul><li><a href='/m/1'>Lunch?</a></li></ul>", ("Mark all as read", None)),
        # The goal's other words are where the control sits.
        ("Cancel my Pro subscription", PLANS + "<section><h2>Team plan</h2><button>Upgrade</button></section>", ("Cancel subscription", "Pro")),
        ("Cancel my Pro subscription", PLANS + "<section><h2>Team plan</h2><button>Cancel subscription</button></section>", ("Cancel subscription", "Pro")),
        ("Add the mug to the cart", "<div class='card'><h3>Mug</h3><button>Add to cart</button></div><div class='card'><h3>Cup</h3><button>Add to cart</button></div>", ("Add to cart", "mug")),
        # A glyph before the label is not a word of it.
        ("Discard", "<div><button>✕ Discard</button><button>Publish</button></div>", ("Discard", None)),
        # The longest label the goal says wins over a shorter one.
        ("Delete my account", "<section><h2>Account</h2><button>Delete</button><button>Delete account</button></section>", ("Delete account", None)),
    ],
)
def test_a_goal_that_names_one_control_is_a_click_on_it(goal: str, body: str, expected: tuple[str, str | None]) -> None:
    assert _clicked(_read(goal, page_from_html(body))) == expected


@pytest.mark.parametrize(
    ("goal", "body"),
    [
        # Two controls the goal names alike: never a guess.
        ("Cancel my subscription", PLANS + "<section><h2>Team plan</h2><button>Cancel subscription</button></section>"),
        ("Add to cart", "<div class='card'><h3>Mug</h3><button>Add to cart</button></div><div class='card'><h3>Cup</h3><button>Add to cart</button></div>"),
        # Words no control carries, and no container explains.
        ("Book a flight to Paris", "<button>Book</button><button>Search</button>"),
        ("Log out of the admin console", "<button>Log out</button>"),
        # The label's first word is not the goal's verb.
        ("Out", "<button>Log out</button>"),
        # A goal that says more than a click.
        ("Cancel the subscription of my sister's old Pro plan today", PLANS),
        # No such control at all.
        ("Log out", "<form><input name='q'><button>Search</button></form>"),
    ],
)
def test_what_no_single_control_names_stays_unread(goal: str, body: str) -> None:
    contract = _read(goal, page_from_html(body))
    assert not contract.complete and contract.unaccounted


def test_the_extension_tree_reads_the_same() -> None:
    page = v3_page(
        {"i": "1", "r": "link", "n": "Inbox"},
        {"i": "2", "r": "btn", "n": "Archive", "ctx": ["row: Ana · Lunch on Friday?"]},
        {"i": "3", "r": "btn", "n": "Archive", "ctx": ["row: Bob · Invoice 42"]},
        {"i": "4", "r": "btn", "n": "Sign out"},
    )
    assert _clicked(_read("Sign out", page)) == ("Sign out", None)
    assert _read("Archive", page).complete is False  # two rows: which one the goal does not say


def test_a_goal_the_policy_already_reads_is_left_as_it_is() -> None:
    page = page_from_html("<button>Save</button><button>Save draft</button>")
    contract, plan = contract_for_new_task("Click Save", page)
    assert [s.kind for s in plan.steps] == ["submit"]  # the policy's own reading: a commit, named
    assert contract.clauses[0].target is not None and contract.clauses[0].target.commit
