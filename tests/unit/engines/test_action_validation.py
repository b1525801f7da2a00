from __future__ import annotations

import pytest

from agent.action_validation import ActionRejected, ValidatedAction, validate_action
from tests.unit.engines.support import el, page
from verification import Action

ALLOWED = ("example.com",)


def check(
    text: str | Action,
    *,
    allowed_domains: tuple[str, ...] = ALLOWED,
    search_available: bool = False,
) -> ValidatedAction | ActionRejected:
    return validate_action(
        text, page(), allowed_domains=allowed_domains, search_available=search_available
    )


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("click(5)", 'click("5")'),
        ("setValue('3', 'Jas')", 'setValue("3", "Jas")'),
        ('select("7", "female")', 'select("7", "Female")'),
        ("scroll(down)", 'scroll("down")'),
        ('scroll("4")', 'scroll("4")'),
        ('press("Enter")', 'press("Enter")'),
        ('press("3", "Tab")', 'press("3", "Tab")'),
        ('hover("1")', 'hover("1")'),
        (
            'navigate("https://app.example.com/patients")',
            'navigate("https://app.example.com/patients")',
        ),
        (
            'navigate("/patients?page=2")',
            'navigate("https://app.clinic.example.com/patients?page=2")',
        ),
        ("goBack()", "goBack()"),
        ("wait(0.5)", "wait(0.5)"),
        ("wait(10)", "wait(10)"),
        ("finish()", "finish()"),
        ('fail("cannot find the form")', 'fail("cannot find the form")'),
    ],
)
def test_valid_actions(text: str, canonical: str) -> None:
    result = check(text)
    assert isinstance(result, ValidatedAction), result
    assert result.text == canonical


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("clik(5)", "SYNTAX"),
        ("click(", "SYNTAX"),
        ("click(99)", "UNKNOWN_ELEMENT"),
        ('setValue("99", "x")', "UNKNOWN_ELEMENT"),
        ('setValue("10", "x")', "HIDDEN_ELEMENT"),
        ('scroll("10")', "HIDDEN_ELEMENT"),
        ("click(9)", "DISABLED_ELEMENT"),
        ('setValue("5", "x")', "NOT_TEXT_FIELD"),
        ('setValue("8", "x")', "NOT_TEXT_FIELD"),
        ('setValue("11", "x")', "READONLY_ELEMENT"),
        ('select("3", "Female")', "NOT_SELECTABLE"),
        ('select("7", "Robot")', "UNKNOWN_OPTION"),
        ('navigate("https://evil.example.net/")', "URL_NOT_ALLOWED"),
        ('navigate("https://example.com.evil.net/")', "URL_NOT_ALLOWED"),
        ('navigate("javascript:alert(1)")', "URL_NOT_ALLOWED"),
        ('navigate("ftp://example.com/x")', "URL_NOT_ALLOWED"),
        ("wait()", "BAD_WAIT"),
        ("wait(0)", "BAD_WAIT"),
        ("wait(11)", "BAD_WAIT"),
        ('googleSearch("kettles")', "SEARCH_UNAVAILABLE"),
    ],
)
def test_rejected_actions(text: str, code: str) -> None:
    result = check(text)
    assert isinstance(result, ActionRejected), result
    assert result.code == code and result.text == text and result.reason


def test_google_search_needs_a_client() -> None:
    assert isinstance(check('googleSearch("kettles")', search_available=True), ValidatedAction)


def test_empty_allow_list_allows_no_navigation() -> None:
    assert isinstance(
        check('navigate("https://app.example.com/")', allowed_domains=()), ActionRejected
    )


def test_action_objects_and_element_returned() -> None:
    result = check(Action(name="click", target="5"))
    assert isinstance(result, ValidatedAction)
    assert (
        result.element is not None and result.element.name == "Save" and result.text == 'click("5")'
    )


def test_select_without_known_options_accepts_any_value() -> None:
    plain = page(el("c", "listbox", "Colour"))
    result = validate_action('select("c", "Teal")', plain, allowed_domains=ALLOWED)
    assert isinstance(result, ValidatedAction) and result.action.value == "Teal"


@pytest.mark.parametrize(
    "url",
    [
        "http://evil.com\\@app.example.com/",  # urlsplit reads app.example.com; the browser goes to evil.com
        "https://evil.com\\@example.com/",
        "https://example.com@evil.com/",
        "https://app.example.com:6379/",  # an allowed host, another service on it
        "http://app.example.com/",  # a downgrade from the https page
        "https://app.example.com:8443/",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "http://",
        "//evil.com/x",  # scheme-relative: another host
    ],
)
def test_navigation_is_checked_where_the_browser_would_go(url: str) -> None:
    result = check(Action(name="navigate", value=url))
    assert isinstance(result, ActionRejected) and result.code == "URL_NOT_ALLOWED", result


@pytest.mark.parametrize(
    ("page_url", "url", "expected"),
    [
        ("http://app.example.com/", "https://app.example.com/x", "https://app.example.com/x"),  # the upgrade
        ("http://10.0.0.5:8080/home", "/admin", "http://10.0.0.5:8080/admin"),
        ("https://App.Example.com./", "HTTPS://APP.EXAMPLE.COM:443/a/../b", "https://app.example.com/b"),
    ],
)
def test_navigation_on_the_same_origin_or_an_upgrade_is_allowed_in_the_browsers_spelling(page_url: str, url: str, expected: str) -> None:
    allowed = ("example.com", "10.0.0.5")
    result = validate_action(Action(name="navigate", value=url), page(url=page_url), allowed_domains=allowed)
    assert isinstance(result, ValidatedAction), result
    assert result.action.value == expected


def test_another_port_of_an_internal_host_is_refused() -> None:
    result = validate_action(Action(name="navigate", value="http://10.0.0.5:6379/"), page(url="http://10.0.0.5:8080/"), allowed_domains=("10.0.0.5",))
    assert isinstance(result, ActionRejected) and "port" in result.reason
