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


def _login(password: str, extra: list[dict[str, str]] | None = None) -> PageState:
    nodes = [
        {"i": "1", "r": "inp", "n": "Username", "v": "alice"},
        {"i": "2", "r": "inp", "n": "Password", "ty": "password", "v": password},
        {"i": "3", "r": "btn", "n": "Sign in"},
    ]
    return PageState.from_v3(nodes + (extra or []), url="https://portal.example/login")


def _login_html(password: str, extra: str = "") -> PageState:
    html = (
        '<form><label>Username <input value="alice"></label>'
        f'<label>Password <input type="password" value="{password}"></label><button>Sign in</button></form>{extra}'
    )
    return PageState.from_html(html, url="https://portal.example/login")


async def _click_sign_in(before: PageState, after: PageState) -> object:
    button = next(e.id for e in before.elements if e.name == "Sign in")
    return await verify_action_with_observations(
        before=before_of(before), after=after, action=f'click("{button}")', goal="Sign in as alice"
    )


@pytest.mark.parametrize(
    "before, after",
    [
        # the form stays, its password emptied, and only a plain heading tells (no alert role)
        (_login("s3cret-pass"), _login("", [{"i": "9", "r": "heading", "n": "Please sign in"}])),
        (_login("s3cret-pass"), _login("")),
    ],
)
async def test_a_refused_sign_in_is_not_the_clicks_proof(before: PageState, after: PageState) -> None:
    result = await _click_sign_in(before, after)
    assert not result.action_succeeded and "sign-in was refused" in result.reason  # type: ignore[attr-defined]
    assert result.error_category == "sign_in_refused"  # type: ignore[attr-defined]


async def test_a_refused_sign_in_in_html_is_not_the_clicks_proof_either() -> None:
    before, after = _login_html("s3cret-pass"), _login_html("", "<p>Those details did not work</p>")
    result = await _click_sign_in(before, after)
    assert not result.action_succeeded  # type: ignore[attr-defined]


async def test_a_password_change_confirmed_by_a_success_message_is_not_refused() -> None:
    before = _login("s3cret-pass")
    after = _login("", [{"i": "9", "r": "success", "n": "Your password was changed"}])
    result = await _click_sign_in(before, after)
    assert result.action_succeeded  # type: ignore[attr-defined]


async def test_a_sign_in_that_leaves_its_form_is_not_refused() -> None:
    before = _login("s3cret-pass")
    after = PageState.from_v3([{"i": "9", "r": "heading", "n": "Welcome, alice"}, {"i": "10", "r": "btn", "n": "Sign out"}], url="https://portal.example/login")
    result = await _click_sign_in(before, after)
    assert result.action_succeeded  # type: ignore[attr-defined]
