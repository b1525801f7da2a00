from __future__ import annotations

from dataclasses import dataclass

from agent.reasoning import is_private, resolve_missing_info


@dataclass(frozen=True)
class Msg:
    role: str
    content: str


def test_private_or_external() -> None:
    assert is_private("the patient's middle name")
    assert is_private("your order number")
    assert is_private("E-mail address")
    assert not is_private("the ZIP code of the Louvre museum")
    assert not is_private("current EUR to USD exchange rate")


def test_private_values_are_asked_for() -> None:
    analysis = resolve_missing_info(["the patient's middle name"], search_available=True)
    assert analysis.source == "ASK_USER" and analysis.missing_information == [
        "the patient's middle name"
    ]


def test_private_values_from_memory() -> None:
    history = [Msg("user", "Her email is jas@example.com")]
    analysis = resolve_missing_info(["the patient's e-mail"], history=history)
    assert analysis.source == "MEMORY" and analysis.required_sources == ["MEMORY", "PAGE"]


def test_external_values_are_searched_or_asked() -> None:
    searched = resolve_missing_info(["the ZIP code of the Louvre museum"], search_available=True)
    assert (
        searched.source == "WEB_SEARCH"
        and searched.search_query == "the ZIP code of the Louvre museum"
    )
    asked = resolve_missing_info(["the ZIP code of the Louvre museum"], search_available=False)
    assert asked.source == "ASK_USER" and asked.missing_information == [
        "the ZIP code of the Louvre museum"
    ]


def test_mixed_and_empty() -> None:
    history = [Msg("user", "my name is Jas")]
    mixed = resolve_missing_info(
        ["your name", "the Louvre ZIP code"], history=history, search_available=True
    )
    assert mixed.source == "WEB_SEARCH" and mixed.required_sources == [
        "WEB_SEARCH",
        "MEMORY",
        "PAGE",
    ]
    assert resolve_missing_info([" "]).source == "ASK_USER"
