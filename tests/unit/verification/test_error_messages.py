"""An alert, status line or toast that reports a failure is an error message, on both page
forms, whatever its role says; the action it followed then fails verification. Words never
make a message a success."""

from __future__ import annotations

import pytest

from tests.unit.verification.support import before_of
from verification import PageState, verify_action_with_observations
from verification.elements import message_kind_of

FAILURES = [
    "Wrong username or password",
    "Incorrect password. Try again.",
    "Invalid e-mail address",
    "Your card was declined",
    "Something went wrong",
    "Passwords do not match",
    "Please enter your name",
    "Name is required",
    "We couldn't find that account",
    "Session expired",
    "Access denied",
]
NOT_FAILURES = ["Saved", "Welcome back, alice", "No errors found", "Your order is on its way", "3 items in your cart", "Loading…"]


@pytest.mark.parametrize("text", FAILURES)
@pytest.mark.parametrize("kind", ["alert", "status", "toast"])
def test_a_message_reporting_a_failure_is_an_error(kind: str, text: str) -> None:
    assert message_kind_of(kind, text) == "error"  # type: ignore[arg-type]


@pytest.mark.parametrize("text", NOT_FAILURES)
def test_other_messages_keep_their_kind_and_never_become_a_success(text: str) -> None:
    assert message_kind_of("alert", text) == "alert"
    assert message_kind_of("success", text) == "success"


def _v3(alert: str | None) -> PageState:
    nodes = [{"i": "1", "r": "inp", "n": "Username", "v": "alice"}, {"i": "3", "r": "btn", "n": "Log in"}]
    return PageState.from_v3(nodes + ([{"i": "8", "r": "alert", "n": alert}] if alert else []), url="https://portal.example/login")


def _html(alert: str | None, layout: str) -> PageState:
    message = ""
    if alert and layout == "role":
        message = f'<div role="alert">{alert}</div>'
    elif alert:
        message = f'<p aria-live="assertive" class="notice">{alert}</p>'
    html = f'<form><label>Username <input value="alice"></label><button>Log in</button></form>{message}'
    return PageState.from_html(html, url="https://portal.example/login")


@pytest.mark.parametrize("build", [_v3, lambda a: _html(a, "role"), lambda a: _html(a, "live")])
async def test_a_click_followed_by_a_failure_message_does_not_verify(build) -> None:  # type: ignore[no-untyped-def]
    before, after = build(None), build("Wrong username or password")
    assert [m.kind for m in after.messages] == ["error"]
    button = next(e.id for e in before.elements if e.name == "Log in")
    result = await verify_action_with_observations(
        before=before_of(before), after=after, action=f'click("{button}")', goal="Log in as alice"
    )
    assert not result.action_succeeded and result.error_category == "error_message"
