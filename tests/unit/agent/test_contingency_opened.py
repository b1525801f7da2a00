"""A dialog the task's own last action opened (or worked in) is the task's, read from the page
before the action and the page after it: kept, not closed as a distraction. A dialog that was
there before, came up after a dismissal, or after an unrelated click (a newsletter on a
timer) is still one to close."""

from __future__ import annotations

from agent.contingency import detect_blocker
from agent.contingency.opened import task_opened
from storage import TaskAction
from verification import PageElement, PageState

URL = "https://admin.example/users/63"
GOAL = "Open Diego Alvarez's profile and delete him"
CONFIRM = ("dialog: Delete user",)
NEWSLETTER = ("dialog: Newsletter",)


def el(i: str, role: str, name: str, *, occluded: bool = False, container: tuple[str, ...] = (), states: frozenset[str] = frozenset()) -> PageElement:
    return PageElement(id=i, role=role, name=name, occluded=occluded, container=container, states=states)


def profile(*, covered: bool = False, expanded: bool = False) -> tuple[PageElement, ...]:
    return (
        el("10", "link", "Users", occluded=covered),
        el("11", "button", "Edit", occluded=covered),
        el("12", "button", "Delete user", occluded=covered),
        el("13", "button", "More", occluded=covered, states=frozenset({"expanded"}) if expanded else frozenset()),
    )


def confirmation() -> tuple[PageElement, ...]:
    """The page's "type the name to confirm" dialog; its "Delete permanently" is disabled."""
    return (
        el("20", "button", "Close dialog", container=CONFIRM),
        el("21", "textbox", "Type the user's full name to confirm", container=CONFIRM),
        el("22", "button", "Cancel", container=CONFIRM),
        el("23", "button", "Delete permanently", container=CONFIRM, states=frozenset({"disabled"})),
    )


def newsletter() -> tuple[PageElement, ...]:
    return (el("30", "button", "Subscribe", container=NEWSLETTER), el("31", "button", "No thanks", container=NEWSLETTER))


def page(*elements: PageElement) -> PageState:
    return PageState.from_elements(elements, url=URL)


def sent(action: str, before: PageState, *, contingency: dict[str, str] | None = None) -> TaskAction:
    """The previous step as the task stored it: the action and the page it was decided on."""
    return TaskAction(tenant_id="t", task_id="k", step_index=3, thought="", action=action, decided_by="model",
                      before_state={"url": URL, "dom_hash": before.dom_hash, "skeleton": dict(before.skeleton)},
                      metrics={"contingency": contingency})  # fmt: skip


def opened(after: PageState, last: TaskAction, *, ran: bool = True) -> bool:
    blocker = detect_blocker(after, GOAL)
    assert blocker is not None and blocker.trigger == "modal" and blocker.in_the_way()
    return task_opened(blocker, after, last, ran=ran)


def test_the_confirmation_the_tasks_click_opened_is_the_tasks() -> None:
    before, after = page(*profile()), page(*profile(covered=True), *confirmation())
    assert opened(after, sent('click("12")', before))


def test_typing_into_that_confirmation_keeps_it_the_tasks() -> None:
    before = after = page(*profile(covered=True), *confirmation())
    assert opened(after, sent('setValue("21", "Diego Alvarez")', before))


def test_a_control_that_says_it_expanded_opened_its_dialog() -> None:
    """A "More" whose dialog shares no word with it, but which now says it is expanded."""
    actions = (el("40", "button", "Suspend", container=("dialog: Account actions",)), el("41", "button", "Close", container=("dialog: Account actions",)))
    before, after = page(*profile()), page(*profile(covered=True, expanded=True), *actions)
    assert opened(after, sent('click("13")', before))


def test_a_dialog_that_was_there_before_the_click_is_not_the_tasks() -> None:
    before = after = page(*profile(covered=True), *confirmation())
    assert not opened(after, sent('click("12")', before))


def test_a_newsletter_that_comes_up_right_after_an_unrelated_click_is_not_the_tasks() -> None:
    before, after = page(*profile()), page(*profile(covered=True), *newsletter())
    assert not opened(after, sent('click("11")', before))


def test_what_comes_up_after_a_dismissal_or_a_click_the_client_could_not_run_is_not_the_tasks() -> None:
    before, after = page(*profile()), page(*profile(covered=True), *confirmation())
    dismissal = {"trigger": "modal", "handler": "dismiss", "action": 'click("12")'}
    assert not opened(after, sent('click("12")', before, contingency=dismissal))
    assert not opened(after, sent('click("12")', before), ran=False)



def test_a_dialog_about_the_record_whose_control_was_clicked_is_the_tasks() -> None:
    """A row's "Cancel" (a word that also closes things) opens "Cancel standing order to Easy Saver?"."""
    rows = (el("50", "button", "Cancel", container=("row: Easy Saver · £200 monthly",)), el("51", "button", "Cancel", container=("row: J. Okafor · £850 monthly",)))
    question = ("dialog: Cancel standing order to Easy Saver?",)
    dialog = (el("60", "button", "Yes, cancel it", container=question), el("61", "button", "Keep it", container=question))
    before = page(*rows)
    after = page(*(el(e.id, e.role, e.name, occluded=True, container=e.container) for e in rows), *dialog)
    last = sent('click("50")', before)
    last.metrics["target"] = "button 'Cancel' in row: Easy Saver · £200 monthly"
    blocker = detect_blocker(after, "stop the £200 savings standing order")
    assert blocker is not None and task_opened(blocker, after, last, ran=True)
    other = sent('click("51")', before)
    other.metrics["target"] = "button 'Cancel' in row: J. Okafor · £850 monthly"
    assert not task_opened(blocker, after, other, ran=True)  # a dialog about another record


def test_a_dialog_about_the_section_the_clicked_control_sat_in_is_the_tasks() -> None:
    """The bank's own question names no row: "Cancel standing order?" after a "Cancel" in a
    row under "Your standing orders" — the section says what the dialog is about."""
    section = "section: Your standing orders"
    rows = (el("50", "button", "Cancel", container=("row: Easy Saver · £200.00 · Every month", section)),)
    question = ("dialog: Cancel standing order?",)
    dialog = (el("60", "button", "Close", container=question), el("61", "button", "Yes, cancel it", container=question), el("62", "button", "Keep it", container=question))
    before = page(*rows, el("70", "link", "Payments"))
    after = page(el("50", "button", "Cancel", occluded=True, container=rows[0].container), el("70", "link", "Payments", occluded=True), *dialog)
    last = sent('click("50")', before)
    last.metrics["within"] = list(rows[0].container)
    blocker = detect_blocker(after, "stop my £200 monthly savings standing order")
    assert blocker is not None and task_opened(blocker, after, last, ran=True)
    elsewhere = sent('click("70")', before)
    elsewhere.metrics["within"] = ["section: Main menu"]
    assert not task_opened(blocker, after, elsewhere, ran=True)


def test_a_dialog_that_redraws_itself_after_the_click_in_it_stays_the_tasks() -> None:
    """A cart drawer's "+" re-draws the drawer: the "+" comes back under a new id, its title
    and "Close cart" keep theirs. The click worked in the drawer — it is the task's."""
    cart = ("dialog: Your cart",)
    item = ("item: Merino Trail Socks M 2", *cart)
    before = page(el("100", "button", "Close cart", container=cart), el("103", "button", "Increase quantity", container=item), el("9", "link", "Shop", occluded=True))
    after = page(el("100", "button", "Close cart", container=cart), el("110", "button", "Increase quantity", container=("item: Merino Trail Socks M 3", *cart)), el("9", "link", "Shop", occluded=True))
    last = sent('click("103")', before)
    last.metrics["within"] = list(item)
    blocker = detect_blocker(after, "bump the socks up to 3 packs")
    assert blocker is not None and task_opened(blocker, after, last, ran=True)
    last.metrics["within"] = []  # an action that did not remember where it was: only its id counts
    assert not task_opened(blocker, after, last, ran=True)
