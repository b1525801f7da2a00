"""Does Stepwise read "are you sure?" after a destructive click (agent/confirmation.py)?

    PYTHONPATH=$PWD python -m bench.confirm_questions [--out bench/results/confirm_questions.json]

Each case is a page before a destructive click, the control clicked, the page after it, and
what the page after it is: a question (the control that confirms) or no question at all.
Two failures count, and they are not alike:

* a **missed question** — the page asks, Stepwise does not see it: the first click would be
  taken for the goal done, a false "completed" (the worst bug);
* a **question invented** — the page asks nothing, Stepwise waits for a confirmation: the
  task asks the user for nothing, or fails; slower, never wrong.

Cases are split: ``tune`` (the layouts the rules were written with, also in
tests/unit/agent/test_confirmation.py) and ``fresh`` (other sites' patterns — a review
step, a long "I understand…" button, an alertdialog, a thank-you page, a sign-in page —
written with their expectations before the first run, and reported as they came out; its
three misses were then fixed, so it is tuned on now) and ``fresh2`` (written after that run,
before those fixes, and run only after them: 7/8, its miss — "Back to settings" as the way
back — then fixed too) and ``fresh3`` (written after the retention-offer and "Confirm order"
rules, before any run with them: 10/10). The next untouched check needs new cases.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final

from agent.confirmation import confirm_label, confirmation_asked
from verification import BeforeState, PageState

URL: Final = "https://site.example/account"
OUT: Final = Path("bench/results/confirm_questions.json")


@dataclass(frozen=True)
class Case:
    split: str
    name: str
    before: str
    clicked: str
    after: str
    expected: str | None  # the confirming control's label, or None: the page asks nothing


ACCOUNT = """<h1>Account</h1><section><h2>Pro plan</h2><p>$12/month</p>
<button>Cancel subscription</button><button>Upgrade</button></section><a href="/help">Help</a>"""
FILES = "<table><tr><td>notes.txt</td><td><button>Delete</button></td></tr><tr><td>a.pdf</td><td><button>Delete</button></td></tr></table>"

CASES: Final[tuple[Case, ...]] = (
    Case("tune", "own page, action repeated", ACCOUNT, "Cancel subscription",
         "<h1>Are you sure?</h1><button>Yes, cancel subscription</button><a href='/account'>Keep my plan</a>", "Yes, cancel subscription"),
    Case("tune", "other words", ACCOUNT, "Cancel subscription",
         "<h1>Sorry to see you go</h1><button>Confirm cancellation</button><button>Go back</button>", "Confirm cancellation"),
    Case("tune", "modal with OK", ACCOUNT, "Cancel subscription",
         ACCOUNT + "<div role='dialog' aria-modal='true'><h2>Cancel your plan?</h2><button>Cancel</button><button>OK</button></div>", "OK"),
    Case("tune", "dialog with Yes/No", ACCOUNT, "Cancel subscription",
         ACCOUNT + "<dialog open><p>End your Pro plan now?</p><button>Yes</button><button>No</button></dialog>", "Yes"),
    Case("tune", "dialog repeats the label", FILES, "Delete",
         FILES + "<div role='dialog' aria-label='Delete notes.txt?'><button>Cancel</button><button>Delete</button></div>", "Delete"),
    Case("tune", "same word on its own page", "<h2>Newsletter</h2><a href='/unsub'>Unsubscribe</a>", "Unsubscribe",
         "<h1>Unsubscribe from all emails?</h1><button>Unsubscribe</button><a href='/'>Stay subscribed</a>", "Unsubscribe"),
    Case("tune", "inline in the row", "<ul><li>Dana Ruiz <button>Remove</button></li><li>Eli Park <button>Remove</button></li></ul>", "Remove",
         "<ul><li>Dana Ruiz · Remove Dana? <button>Yes</button> <button>No</button></li><li>Eli Park <button>Remove</button></li></ul>", "Yes"),
    Case("tune", "review step of an order", "<button>Place order</button>", "Place order",
         "<h1>Review your order</h1><p>1 × Mug</p><button>Confirm order</button><a href='/cart'>Edit cart</a>", "Confirm order"),
    Case("tune", "retention offer", ACCOUNT, "Cancel subscription",
         "<h1>Before you go</h1><p>Stay for 50% off your next 3 months.</p><button>Accept offer</button><a href='/cancel/confirm'>No thanks, cancel</a>",
         "No thanks, cancel"),
    Case("tune", "done, with a way back in", ACCOUNT, "Cancel subscription",
         "<p role='status'>Your subscription has been cancelled.</p><button>Resubscribe</button><a href='/help'>Help</a>", None),
    Case("tune", "thank-you page", "<button>Place order</button>", "Place order",
         "<p>Thanks!</p><button>Continue shopping</button><a href='/'>Keep browsing</a>", None),
    Case("tune", "deleted at once, undo", FILES, "Delete",
         "<p role='status'>notes.txt deleted <button>Undo</button></p><table><tr><td>a.pdf</td><td><button>Delete</button></td></tr></table>", None),
    # Written before the first run; not tuned on.
    Case("fresh", "long 'I understand' button", "<section><h3>Danger zone</h3><button>Delete this repository</button></section>", "Delete this repository",
         "<section><h3>Danger zone</h3><button>Delete this repository</button></section><div role='dialog' aria-modal='true'>"
         "<h2>Are you absolutely sure?</h2><input aria-label='Type the repository name to confirm'>"
         "<button>I understand the consequences, delete this repository</button><button aria-label='Close'>×</button></div>",
         "I understand the consequences, delete this repository"),
    Case("fresh", "same label, 'Don't cancel'", "<button>Cancel plan</button>", "Cancel plan",
         "<h1>Confirm cancellation</h1><p>Your plan ends on Jan 1</p><button>Cancel plan</button><a href='/'>Don't cancel</a>", "Cancel plan"),
    Case("fresh", "alertdialog OK/Cancel", "<button>Empty Trash now</button>", "Empty Trash now",
         "<button>Empty Trash now</button><div role='alertdialog'><p>You are about to permanently delete all messages</p>"
         "<button>OK</button><button>Cancel</button></div>", "OK"),
    Case("fresh", "cart emptied", "<ul><li>Mug <button>Remove</button></li></ul>", "Remove",
         "<p>Your cart is empty</p><a href='/'>Continue shopping</a>", None),
    Case("fresh", "signed out everywhere", "<button>Sign out of all devices</button>", "Sign out of all devices",
         "<h1>Sign in</h1><input name='email'><button>Sign in</button><a href='/forgot'>Forgot password?</a>", None),
    Case("fresh", "sent, with undo", "<form><input aria-label='To'><textarea aria-label='Body'></textarea><button>Send</button></form>", "Send",
         "<p role='status'>Message sent</p><button>Undo</button><a href='/inbox'>Inbox</a>", None),
    Case("fresh", "payment confirmation", "<button>Pay $20.00</button>", "Pay $20.00",
         "<div role='dialog'><p>Confirm payment of $20.00</p><button>Confirm</button><button>Cancel</button></div>", "Confirm"),
    Case("fresh", "review step", "<button>Transfer</button>", "Transfer",
         "<h1>Review transfer</h1><p>$500 to Savings</p><button>Confirm transfer</button><button>Edit</button>", "Confirm transfer"),
    Case("fresh", "deactivated in its row", "<table><tr><td>Bob</td><td>Active</td><td><button>Deactivate</button></td></tr></table>", "Deactivate",
         "<table><tr><td>Bob</td><td>Inactive</td><td><button>Reactivate</button></td></tr></table>", None),
    Case("fresh", "dialog Delete/Keep", "<ul><li>a.png</li><li>b.png</li></ul><button>Delete selected</button>", "Delete selected",
         "<ul><li>a.png</li><li>b.png</li></ul><dialog open><p>Delete 2 items?</p><button>Delete</button><button>Keep</button></dialog>", "Delete"),
    # Written after the fresh run, before the rules were changed for its misses; not tuned on.
    Case("fresh2", "team card, dialog repeats", "<div class='card'><h3>Ana Lima</h3><button>Remove member</button></div>", "Remove member",
         "<div class='card'><h3>Ana Lima</h3><button>Remove member</button></div><div role='dialog' aria-modal='true'>"
         "<p>Remove Ana from the team?</p><button>Remove member</button><button>Cancel</button></div>", "Remove member"),
    Case("fresh2", "exit survey page", "<button>Delete account</button>", "Delete account",
         "<h1>We'll miss you</h1><p>Please tell us why</p><label><input type='radio' name='why'> Too expensive</label>"
         "<button>Delete my account</button><a href='/settings'>Back to settings</a>", "Delete my account"),
    Case("fresh2", "unsubscribed", "<a href='/u'>Unsubscribe</a>", "Unsubscribe",
         "<p>You have been unsubscribed.</p><button>Resubscribe</button>", None),
    Case("fresh2", "close account dialog", "<button>Close account</button>", "Close account",
         "<button>Close account</button><dialog open><p>Close your account?</p><button>Close account</button><button>Keep account</button></dialog>",
         "Close account"),
    Case("fresh2", "revoke inline", "<ul><li>Zapier <button>Revoke access</button></li></ul>", "Revoke access",
         "<ul><li>Zapier · Are you sure? <button>Revoke</button> <button>Cancel</button></li></ul>", "Revoke"),
    Case("fresh2", "draft discarded", "<form><textarea aria-label='Body'>hi</textarea><button>Discard</button></form>", "Discard",
         "<p role='status'>Draft discarded</p><button>Undo</button><a href='/inbox'>Inbox</a>", None),
    Case("fresh2", "order placed", "<button>Buy now</button>", "Buy now",
         "<h1>Order placed!</h1><a href='/orders/1'>View order</a><a href='/'>Back to shop</a>", None),
    Case("fresh2", "send without subject", "<form><input aria-label='To'><button>Send</button></form>", "Send",
         "<form><input aria-label='To'><button>Send</button></form><div role='dialog'><p>Send without a subject?</p>"
         "<button>Send anyway</button><button>Don't send</button></div>", "Send anyway"),
    # Written after the retention-offer and "Confirm order" rules, before any run with them; not tuned on.
    Case("fresh3", "deleted, next rows shift in", FILES, "Delete",
         "<p role='status'>Deleted. <button>Undo</button></p><table><tr><td>a.pdf</td><td><button>Delete</button></td></tr>"
         "<tr><td>c.doc</td><td><button>Delete</button></td></tr></table>", None),
    Case("fresh3", "sent, send another", "<form><input aria-label='To'><button>Send</button></form>", "Send",
         "<p>Message sent.</p><button>Send another</button>", None),
    Case("fresh3", "reason, then cancel", "<button>Cancel order</button>", "Cancel order",
         "<h1>Why are you cancelling?</h1><select aria-label='Reason'><option>Too slow</option></select>"
         "<button>Submit and cancel order</button><button>Keep order</button>", "Submit and cancel order"),
    Case("fresh3", "unsubscribe modal", "<p>Weekly digest</p><button>Unsubscribe</button>", "Unsubscribe",
         "<p>Weekly digest</p><button>Unsubscribe</button><dialog open><p>Unsubscribe from Weekly?</p>"
         "<button>Unsubscribe</button><button>Cancel</button></dialog>", "Unsubscribe"),
    Case("fresh3", "member removed", "<ul><li>Ana <button>Remove</button></li></ul>", "Remove",
         "<p>Member removed.</p><button>Invite members</button>", None),
    Case("fresh3", "password to go on", "<button>Close account</button>", "Close account",
         "<h1>Enter your password to continue</h1><input type='password' aria-label='Password'><button>Continue</button><button>Cancel</button>",
         "Continue"),
    Case("fresh3", "paid", "<button>Pay now</button>", "Pay now",
         "<p>Payment successful.</p><a href='/r.pdf'>Download receipt</a><a href='/'>Back to home</a>", None),
    Case("fresh3", "deactivate dialog", "<table><tr><td>Bob</td><td><button>Deactivate</button></td></tr></table>", "Deactivate",
         "<table><tr><td>Bob</td><td><button>Deactivate</button></td></tr></table><div role='dialog' aria-modal='true'>"
         "<p>Deactivate Bob? He will lose access.</p><button>Deactivate user</button><button>Cancel</button></div>", "Deactivate user"),
    Case("fresh3", "empty trash dialog", "<button>Empty trash</button>", "Empty trash",
         "<button>Empty trash</button><dialog open><p>Permanently delete 12 items?</p><button>Empty trash</button><button>Cancel</button></dialog>",
         "Empty trash"),
    Case("fresh3", "discard changes", "<form><textarea aria-label='Notes'>x</textarea><button>Discard</button></form>", "Discard",
         "<form><textarea aria-label='Notes'>x</textarea><button>Discard</button></form><div role='dialog'><p>Discard unsaved changes?</p>"
         "<button>Discard changes</button><button>Keep editing</button></div>", "Discard changes"),
)  # fmt: skip


@dataclass(frozen=True)
class Row:
    split: str
    name: str
    expected: str | None
    got: str | None
    ok: bool
    missed_question: bool
    invented_question: bool


def _page(body: str) -> PageState:
    return PageState.from_html(f"<!doctype html><html><head><title>Site</title></head><body>{body}</body></html>", url=URL)


def run_case(case: Case) -> Row:
    before, after = _page(case.before), _page(case.after)
    target = next(e.id for e in before.elements if (e.text or e.name) == case.clicked)
    found = confirmation_asked(target, BeforeState.from_page(before).skeleton, after)
    got = confirm_label(found) if found is not None else None
    return Row(case.split, case.name, case.expected, got, got == case.expected,
               case.expected is not None and got is None, case.expected is None and got is not None)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = [run_case(case) for case in CASES]
    print("| split | case | expected | read | ok |\n|---|---|---|---|---|")
    for row in rows:
        print(f"| {row.split} | {row.name} | {row.expected or '(no question)'} | {row.got or '(no question)'} | {'yes' if row.ok else 'NO'} |")
    summary = {}
    for split in ("tune", "fresh", "fresh2", "fresh3"):
        mine = [r for r in rows if r.split == split]
        summary[split] = {
            "cases": len(mine), "as_expected": sum(r.ok for r in mine),
            "missed_questions": sum(r.missed_question for r in mine), "invented_questions": sum(r.invented_question for r in mine),
        }  # fmt: skip
        s = summary[split]
        print(f"\n{split}: {s['as_expected']}/{s['cases']} as expected, {s['missed_questions']} missed questions, {s['invented_questions']} invented")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "rows": [asdict(r) for r in rows]}, indent=2) + "\n")


if __name__ == "__main__":
    main()
