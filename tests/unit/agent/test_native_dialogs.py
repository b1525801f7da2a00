"""A native confirm() the client dismissed (agent/contingency/native.py): which dialog of the
previous step counts, and the handler the rules choose — ask the user (destructive, asked
for), accept once (harmless, the goal's action), or leave it declined (anything else)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from agent.contingency.native import decide, declined_dialog
from agent.destructive import phrase_in
from agent.inputs import NativeDialog
from app.schemas.interact import InteractRequest
from planning.contingency import BUILTIN_CONTINGENCIES, Contingency, ContingencyDraft, drop_unknown, is_safe
from storage import TaskAction

CLICK = 'click("2")'


def step(action: str = CLICK, label: str = "Delete", hits: tuple[str, ...] = (), **metrics: Any) -> TaskAction:
    skeleton = {"elements": {"2": {"role": "button", "name": label, "text": label}}}
    return TaskAction(
        tenant_id="t", task_id="x", step_index=0, thought="", action=action,
        before_state={"url": "https://a.example/", "skeleton": skeleton}, metrics={"clause_hits": list(hits), **metrics},
    )  # fmt: skip


def confirm(message: str, action: str | None = CLICK, answered: str = "dismissed", kind: str = "confirm") -> NativeDialog:
    return NativeDialog.of(kind, message, action, answered)


def choose(dialog: NativeDialog, last: TaskAction, goal: str, fired: list[dict[str, Any]] | None = None, counts: dict[str, int] | None = None, own: list[Contingency] | None = None) -> Any:
    return decide(dialog, last, goal, None, own or [], fired or [], counts or {})


def test_a_message_is_read_in_any_inflection_a_label_in_whole_words() -> None:
    assert phrase_in("Order 42 will be deleted. OK?", inflected=True) == "delete"
    assert phrase_in("Are you sure you want to remove Bob?", inflected=True) == "remove"
    assert phrase_in("Save changes to your profile?", inflected=True) is None
    assert phrase_in("Order 42 will be deleted") is None  # labels: whole words only, as before


def test_the_dismissed_dialog_is_the_newest_of_the_previous_steps_actions() -> None:
    last = step()
    dialogs = (confirm("Old one", action='click("9")'), confirm("Hello", kind="alert", answered="accepted"), confirm("Delete order 42?"))
    assert declined_dialog(dialogs, last) == dialogs[2]
    assert declined_dialog((confirm("Delete?", answered="accepted"),), last) is None  # accepted: the action ran
    assert declined_dialog((confirm("Hello", kind="alert", answered="accepted"),), last) is None
    assert declined_dialog((confirm("Delete?", action='click("9")'),), last) is None  # another action's
    assert declined_dialog((confirm("Delete?", action=None),), last) is not None  # no action named: the step's
    assert declined_dialog((confirm("Leave?", kind="beforeunload"),), last) is not None
    chained = step().model_copy(update={"actions": [{"action": 'setValue("1", "x")'}, {"action": 'click("5")'}]})
    assert declined_dialog((confirm("Delete?", action='click("5")'),), chained) is not None
    assert declined_dialog((confirm("Delete?"),), None) is None


def test_a_destructive_confirm_the_goal_asks_for_goes_to_the_user() -> None:
    native = choose(confirm("Delete order 42? This cannot be undone."), step(), "Delete order 42")
    assert native.decision == "ask_user" and native.phrase == "delete" and native.contingency.id == "builtin:native_confirm"
    assert native.quoted == "«Delete order 42? This cannot be undone.»"
    entry = native.record(3)
    assert entry["trigger"] == "native_confirm" and entry["handler"] == "ask_user" and entry["resends"] is False
    # Another phrasing and control: "remove" asked by "Remove Bob Smith".
    assert choose(confirm("Are you sure you want to remove Bob Smith from the team?"), step(label="Remove member"), "Remove Bob Smith").decision == "ask_user"
    # A destructive label with a message that says nothing destructive: still the user's.
    assert choose(confirm("Are you sure?"), step(label="Delete"), "Delete order 42").decision == "ask_user"


def test_a_destructive_confirm_of_the_goals_own_action_that_the_goal_does_not_name_goes_to_the_user() -> None:
    """"Click Reset settings" → "This will delete your saved preferences": the goal asks for the
    click, not for the deletion — never accepted by the rules, never retried into the same
    dialog: the user decides, told that the goal did not say it."""
    native = choose(confirm("Reset all settings? This will delete your saved preferences."), step(label="Reset settings", hits=("c1",)), "Click Reset settings")
    assert native.decision == "ask_user" and not native.asked and "does not say" in native.reason
    # A word a goal uses to ask for something destructive, with no whole phrase: still not harmless.
    for message, label in (("Cancel your subscription?", "Manage plan"), ("Submit the payment now?", "Continue")):
        native = choose(confirm(message), step(label=label, hits=("c1",)), f"Click {label}")
        assert native.decision == "ask_user" and not native.asked, message


def test_a_destructive_confirm_after_an_action_the_goal_does_not_ask_for_stays_declined() -> None:
    native = choose(confirm("Reset all settings? This will delete your saved preferences."), step(label="Reset settings"), "Turn on dark mode")
    assert native.decision == "declined" and "does not ask" in native.reason
    assert "asked to confirm" in native.note and "declined" in native.note and "«Reset all settings?" in native.note


def test_a_harmless_confirm_after_the_goals_own_action_is_accepted_once() -> None:
    last = step(label="Save", hits=("c1",))
    native = choose(confirm("Save changes to your profile?"), last, "Click Save")
    assert native.decision == "accept_once" and native.contingency.handler == "accept_dialog"
    assert native.record(1)["resends"] is True
    # Once per action: a second dismissal of it after an accept is declined.
    again = choose(confirm("Save changes to your profile?"), last, "Click Save", fired=[native.record(1)])
    assert again.decision == "declined" and "once" in again.reason
    # The goal naming the control is enough when no clause was aimed (a model's action).
    assert choose(confirm("Apply the new theme?"), step(label="Apply theme"), "Apply theme now").decision == "accept_once"


def test_a_harmless_confirm_after_an_action_the_goal_does_not_ask_for_stays_declined() -> None:
    native = choose(confirm("Leave this page?"), step(label="Help"), "Click Save")
    assert native.decision == "declined" and "not one the goal asks for" in native.reason


def test_prompts_and_beforeunload_are_never_answered_for_the_user() -> None:
    last = step(label="Save", hits=("c1",))
    assert choose(confirm("Your name?", kind="prompt"), last, "Click Save").decision == "declined"
    assert choose(confirm("Leave site?", kind="beforeunload"), last, "Click Save").decision == "declined"


def test_a_client_that_dismissed_the_accept_again_is_not_asked_again() -> None:
    last = step(hits=("c1",), dialog="accept")
    assert choose(confirm("Delete order 42?"), last, "Delete order 42").decision == "declined"
    assert choose(confirm("Save changes?"), step(label="Save", hits=("c1",), dialog="accept"), "Click Save").decision == "declined"


def test_the_budget_bounds_both_handlers() -> None:
    spent = {"builtin:native_confirm": 3, "builtin:native_confirm_accept": 3}
    assert choose(confirm("Delete order 42?"), step(), "Delete order 42", counts=spent).decision == "declined"
    assert choose(confirm("Save changes?"), step(label="Save", hits=("c1",)), "Click Save", counts=spent).decision == "declined"


def test_native_confirm_is_built_in_only_a_model_cannot_name_it() -> None:
    native = [c for c in BUILTIN_CONTINGENCIES if c.trigger == "native_confirm"]
    assert {c.handler for c in native} == {"ask_user", "accept_dialog"} and all(is_safe(c.trigger, c.handler) for c in native)
    assert drop_unknown([{"trigger": "native_confirm", "handler": "accept_dialog"}, {"trigger": "modal", "handler": "dismiss"}]) == [
        {"trigger": "modal", "handler": "dismiss"}
    ]
    with pytest.raises(ValidationError):
        ContingencyDraft(trigger="native_confirm", handler="ask_user")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        ContingencyDraft(trigger="modal", handler="accept_dialog")  # type: ignore[arg-type]


PAGE = {"url": "https://a.example/", "interactiveTree": [{"i": "1", "r": "btn", "n": "Save"}], "taskId": "t1"}


def test_the_request_field_is_validated() -> None:
    good = {"kind": "confirm", "message": "Delete order 42?", "action": CLICK, "answered": "dismissed"}
    body = InteractRequest.model_validate({**PAGE, "clientObservations": {"didDomMutate": False, "nativeDialogs": [good]}})
    assert body.client_observations is not None and body.client_observations.native_dialogs is not None
    assert body.client_observations.native_dialogs[0].kind == "confirm"
    assert InteractRequest.model_validate({**PAGE, "clientObservations": {"nativeDialogs": [{"kind": "alert", "answered": "accepted"}]}})
    for bad in (
        [{**good, "kind": "popup"}],
        [{**good, "answered": "maybe"}],
        [{**good, "message": "x" * 2001}],
        [{"kind": "confirm", "message": "no answer"}],
        [good] * 11,
        "not a list",
    ):
        with pytest.raises(ValidationError):
            InteractRequest.model_validate({**PAGE, "clientObservations": {"nativeDialogs": bad}})


def test_the_server_keeps_a_clipped_single_line_message() -> None:
    dialog = NativeDialog.of("confirm", "Delete\n order   42?" + "x" * 500, CLICK, "dismissed")
    assert dialog.message.startswith("Delete order 42?") and len(dialog.message) == 300
