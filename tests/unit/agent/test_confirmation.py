"""Reading "are you sure?" after a destructive click (agent/confirmation.py): the page after
the click offers a new control that does the same thing, inside a dialog or beside a new
way back. Pages in several layouts, HTML and the extension's V3 tree."""

from __future__ import annotations

import pytest

from agent.confirmation import confirmation_asked
from bench.confirm_questions import CASES, Case, run_case
from verification import BeforeState, PageState
from tests.unit.verification.support import page_from_html, v3_page


def _asked(before: PageState, label: str, after: PageState) -> str | None:
    target = next(e.id for e in before.elements if (e.text or e.name) == label)
    skeleton = BeforeState.from_page(before).skeleton
    found = confirmation_asked(target, skeleton, after)
    return (found.text or found.name) if found is not None else None


ACCOUNT = """<h1>Account</h1><section><h2>Pro plan</h2><p>$12/month</p>
<button>Cancel subscription</button><button>Upgrade</button></section><a href="/help">Help</a>"""


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        # A page of its own, the action repeated with a way back.
        ("<h1>Are you sure?</h1><button>Yes, cancel subscription</button><a href='/account'>Keep my plan</a>", "Yes, cancel subscription"),
        # Other words for the same thing.
        ("<h1>We are sorry to see you go</h1><button>Confirm cancellation</button><button>Go back</button>", "Confirm cancellation"),
        # A dialog over the page (its own "Cancel" is the way back, not the action).
        (
            ACCOUNT + "<div role='dialog' aria-modal='true'><h2>Cancel your plan?</h2><button>Cancel</button><button>OK</button></div>",
            "OK",
        ),
        # A dialog with a plain "Yes".
        (ACCOUNT + "<dialog open><p>End your Pro plan now?</p><button>Yes</button><button>No</button></dialog>", "Yes"),
    ],
)
def test_a_page_that_asks_to_confirm_the_click_is_read(after: str, expected: str) -> None:
    assert _asked(page_from_html(ACCOUNT), "Cancel subscription", page_from_html(after)) == expected


@pytest.mark.parametrize(
    "after",
    [
        # Done, with a way to undo it: nothing is asked.
        "<p role='status'>Your subscription has been cancelled.</p><button>Resubscribe</button><a href='/help'>Help</a>",
        # Done, and the shop offers to go on: "Continue shopping" is no "yes".
        "<p>Thanks!</p><button>Continue shopping</button><a href='/'>Keep browsing</a>",
        # A "Confirm" with no way back and in no dialog: a wizard's next step, not a question.
        "<h1>Step 2</h1><button>Confirm address</button>",
        # The same page, unchanged.
        ACCOUNT,
    ],
)
def test_a_page_that_asks_nothing_is_not_read_as_a_question(after: str) -> None:
    assert _asked(page_from_html(ACCOUNT), "Cancel subscription", page_from_html(after)) is None


def test_a_click_that_is_not_destructive_never_waits_for_a_confirmation() -> None:
    before = page_from_html("<form><input name='q'><button>Save</button></form>")
    after = page_from_html("<dialog open><p>Save changes?</p><button>Yes</button><button>No</button></dialog>")
    assert _asked(before, "Save", after) is None  # a harmless question is the native-dialog rules' business


def test_the_extension_tree_reads_the_same() -> None:
    rows = [{"i": f"d{n}", "r": "btn", "n": "Delete", "ctx": [f"row: {who}"]} for n, who in enumerate(("Ana", "Bob"))]
    before = v3_page(*rows)
    dialog = [
        {"i": "ok", "r": "btn", "n": "Delete permanently", "ctx": ["dialog: Delete Bob?"]},
        {"i": "no", "r": "btn", "n": "Keep", "ctx": ["dialog: Delete Bob?"]},
    ]
    after = v3_page(*[dict(r, occ=True) for r in rows], *dialog)
    assert confirmation_asked("d1", BeforeState.from_page(before).skeleton, after) is not None
    # A row's own "Delete" is not new: the list after a deletion asks nothing.
    assert confirmation_asked("d1", BeforeState.from_page(before).skeleton, v3_page(rows[0])) is None


def test_a_long_entry_that_mentions_the_verb_is_not_a_control() -> None:
    before = v3_page({"i": "s", "r": "btn", "n": "Send"})
    after = v3_page(
        {"i": "m1", "r": "link", "n": "Send me the quarterly report before the board meeting please"},
        {"i": "c", "r": "btn", "n": "Cancel"},
    )
    assert confirmation_asked("s", BeforeState.from_page(before).skeleton, after) is None


def test_no_stored_page_or_unknown_target_reads_nothing() -> None:
    after = page_from_html("<dialog open><button>Yes</button><button>No</button></dialog>")
    assert confirmation_asked(None, {"elements": {}}, after) is None
    assert confirmation_asked("zz", BeforeState.from_page(page_from_html(ACCOUNT)).skeleton, after) is None
    assert confirmation_asked("zz", None, after) is None


@pytest.mark.parametrize(
    ("before", "label", "after", "expected"),
    [
        # The dialog repeats the very label clicked, over the rows that carry it too.
        (
            "<table><tr><td>notes.txt</td><td><button>Delete</button></td></tr><tr><td>a.pdf</td><td><button>Delete</button></td></tr></table>",
            "Delete",
            "<table><tr><td>notes.txt</td><td><button>Delete</button></td></tr><tr><td>a.pdf</td><td><button>Delete</button></td></tr></table>"
            "<div role='dialog' aria-label='Delete notes.txt?'><p>This cannot be undone.</p><button>Cancel</button><button>Delete</button></div>",
            "Delete",
        ),
        # A page of its own that offers the same word again, with a way to stay.
        (
            "<h2>Newsletter</h2><p>Weekly digest</p><a href='/unsub'>Unsubscribe</a>",
            "Unsubscribe",
            "<h1>Unsubscribe from all emails?</h1><button>Unsubscribe</button><a href='/'>Stay subscribed</a>",
            "Unsubscribe",
        ),
        # An inline question in the row itself.
        (
            "<ul><li>Dana Ruiz <button>Remove</button></li><li>Eli Park <button>Remove</button></li></ul>",
            "Remove",
            "<ul><li>Dana Ruiz · Remove Dana? <button>Yes</button> <button>No</button></li><li>Eli Park <button>Remove</button></li></ul>",
            "Yes",
        ),
    ],
)
def test_the_question_is_read_whatever_its_words(before: str, label: str, after: str, expected: str) -> None:
    before_page = page_from_html(before)
    found = _asked(before_page, label, page_from_html(after))
    assert found == expected


def test_a_deletion_done_at_once_leaves_the_other_rows_delete_buttons_unquestioned() -> None:
    rows = "<tr><td>a.pdf</td><td><button>Delete</button></td></tr><tr><td>b.pdf</td><td><button>Delete</button></td></tr>"
    before = page_from_html(f"<table><tr><td>notes.txt</td><td><button>Delete</button></td></tr>{rows}</table>")
    after = page_from_html(f"<p role='status'>notes.txt deleted <button>Undo</button></p><table>{rows}</table>")
    assert _asked(before, "Delete", after) is None


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.split}:{c.name}")
def test_every_layout_of_the_bench_reads_as_expected(case: Case) -> None:
    row = run_case(case)
    assert row.ok, row


def test_a_compose_window_is_a_form_to_fill_not_a_question() -> None:
    from agent.confirmation import form_to_fill

    def window(to: str) -> PageState:
        return page_from_html(
            "<div role='dialog' aria-label='Forward'><input role='combobox' aria-label='To' value='" + to + "'>"
            "<input aria-label='Subject' value='Fwd: Logo concepts'><button>Send</button></div>"
        )

    empty, filled = window(""), window("dana@x.test")
    send = next(e for e in empty.elements if e.name == "Send")
    assert form_to_fill(empty.elements, send)  # a recipient to fill first: the work goes on in the window
    assert form_to_fill(filled.elements, send)  # filled too: a suggestion to pick, a file to attach before Send
    typed = page_from_html("<div role='dialog'><input aria-label='Type the repository name to confirm'><button>Delete</button></div>")
    assert not form_to_fill(typed.elements, next(e for e in typed.elements if e.name == "Delete"))  # the question's own field


def test_what_the_goal_says_not_to_do_is_not_asked_for() -> None:
    from agent.destructive import asked_words

    assert "send" not in asked_words("Start an email to Rachel, don't send it yet, save it as a draft", None)
    assert "delete" not in asked_words("archive it without deleting anything", None)
    assert "send" in asked_words("forward it to Dana and send", None)
