"""A record's control ("the Reply button of the email from Ana"): in the record's own entry
of the list, or in the record's open view once the list is gone — never another record's,
never a toolbar's beside a list, and never one of two senders who differ by a letter."""

from __future__ import annotations

from typing import Any

from agent.correction import find_alternative
from agent.policy.explore import record_entry
from agent.policy.references import read_ref
from verification import Action, ElementRef, PageState, resolve_ref
from verification.contract import Clause, Contract, evaluate, start

URL = "https://mail.example/inbox"


def page(*nodes: dict[str, Any], text: str | None = None) -> PageState:
    return PageState.from_v3(list(nodes), url=URL, text=text)


def ref(phrase: str) -> ElementRef:
    found = read_ref(phrase).ref
    assert found is not None and found.record
    return found


def table_inbox() -> PageState:
    nodes: list[dict[str, Any]] = [{"i": "del", "r": "btn", "n": "Delete", "ctx": ["section: Toolbar"]}]
    for n, (sender, subject) in enumerate([("Bettina Moss", "Numbers"), ("Bettine Moss", "Lunch"), ("Audrey Hale", "Trip")]):
        ctx = [f"row: {sender} · {subject}"]
        nodes += [
            {"i": f"s{n}", "r": "link", "n": subject, "ctx": [f"row: {sender}"]},
            {"i": f"t{n}", "r": "btn", "n": "trash", "ctx": ctx},
            {"i": f"r{n}", "r": "btn", "n": "star", "ctx": ctx},
        ]
    return page(*nodes, text="Inbox\nBettina Moss · Numbers\nBettine Moss · Lunch\nAudrey Hale · Trip")


def test_the_control_in_the_records_row_and_never_a_near_namesakes() -> None:
    inbox = table_inbox()
    assert resolve_ref(ref("the star button of the email from Bettine Moss"), inbox).element.id == "r1"  # type: ignore[union-attr]
    assert resolve_ref(ref("the star button of the email from Bettina Moss"), inbox).element.id == "r0"  # type: ignore[union-attr]
    # "delete" and a trash icon are the same control; the toolbar's Delete is not the record's
    assert resolve_ref(ref("the delete button of the email from Audrey Hale"), inbox).element.id == "t2"  # type: ignore[union-attr]


def test_a_control_the_rows_do_not_have_is_not_found_while_the_list_shows() -> None:
    inbox = table_inbox()
    assert not resolve_ref(ref("the reply button of the email from Audrey Hale"), inbox).found
    # the toolbar's Delete beside the list is never the record's own
    toolbar = page({"i": "del", "r": "btn", "n": "Delete"}, {"i": "a", "r": "link", "n": "Audrey Hale — Trip"}, text="Audrey Hale — Trip")
    assert not resolve_ref(ref("the delete button of the email from Audrey Hale"), toolbar).found


def test_the_open_view_of_the_record_holds_its_controls() -> None:
    view = page(
        {"i": "back", "r": "btn", "n": "Back"},
        {"i": "rep", "r": "btn", "n": "Reply"},
        {"i": "fwd", "r": "link", "n": "Forward"},
        text="From: Audrey Hale · Trip\nThe trip went well.",
    )
    assert resolve_ref(ref("the reply button of the email from Audrey Hale"), view).element.id == "rep"  # type: ignore[union-attr]
    # another sender's open view is not this record's
    assert not resolve_ref(ref("the reply button of the email from Coletta Ruiz"), view).found
    # a thread whose only Reply is in another message's entry: not this record's
    thread = page({"i": "a", "r": "btn", "n": "Reply", "ctx": ["item: Coletta Ruiz · Re: Trip"]}, text="From: Audrey Hale\nColetta Ruiz · Re: Trip")
    assert not resolve_ref(ref("the reply button of the email from Audrey Hale"), thread).found


def test_the_entry_that_opens_a_record_is_its_own_and_never_an_icon_or_a_namesake() -> None:
    inbox = table_inbox()
    entry, _why = record_entry(inbox, ref("the reply button of the email from Bettine Moss"))
    assert entry is not None and entry.id == "s1"  # the subject link of Bettine's row, not its trash icon
    divs = page(
        {"i": "a", "r": "btn", "n": "Audrey Hale Trip report"},
        {"i": "b", "r": "btn", "n": "Audrey Hale Re: Trip report"},
        text="Audrey Hale Trip report\nAudrey Hale Re: Trip report",
    )
    entry, why = record_entry(divs, ref("the reply button of the email from Audrey Hale"))
    assert entry is None and "2 entries" in why
    entry, why = record_entry(divs, ref("the reply button of the email from Zed Quinn"))
    assert entry is None and "no entry" in why


def test_a_deleted_record_is_proven_by_its_sender_gone_from_the_page() -> None:
    gone = Clause(id="c1", kind="shown", appear=False, value="Bettine Moss", description="the email from Bettine Moss is gone")
    contract = start(Contract(clauses=(gone,)), table_inbox())
    assert contract.result("c1").status == "pending"
    still = page({"i": "x", "r": "btn", "n": "trash", "ctx": ["row: Bettine Moss · Lunch"]}, text="Bettine Moss · Lunch")
    assert evaluate(contract, still, step=1).result("c1").status == "pending"
    after = page({"i": "x", "r": "btn", "n": "trash", "ctx": ["row: Bettina Moss · Numbers"]}, text="Bettina Moss · Numbers")
    assert evaluate(contract, after, step=1).result("c1").status == "holds"


def test_a_corrections_alternative_is_never_another_records_control() -> None:
    inbox = table_inbox()
    assert find_alternative(Action(name="click", target="r1"), inbox, "star", ()) is None
    loose = page({"i": "a", "r": "btn", "n": "Save"}, {"i": "b", "r": "btn", "n": "Save"})
    assert find_alternative(Action(name="click", target="a"), loose, "Save", ()) == Action(name="click", target="b")
