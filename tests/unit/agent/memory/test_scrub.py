"""The memory scrub: secrets of the task and secret-shaped text never get stored."""

from __future__ import annotations

import pytest

from agent.memory.scrub import leaks, looks_secret, secret_kind

JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("4111 1111 1111 1111", "key or card number"),
        ("card 4242-4242-4242-4242 exp", "key or card number"),
        ("sk-proj-abcdefghijklmnopqrstuvwx", "key or card number"),
        ("AKIAIOSFODNN7EXAMPLE", "key or card number"),
        ("ghp_" + "a1B2c3D4e5" * 4, "key or card number"),
        (JWT, "JWT"),
        (PEM, "PEM block"),
        ("token=8fK2mQz9LpX4vR7tYw3NbC6hJd1", "random token"),
        ("/reset?t=Qm9vZ2xlS2V5MTIzNDU2Nzg5MGFiY2RlZg", "random token"),
    ],
)
def test_secret_shapes(value: str, kind: str) -> None:
    assert looks_secret(value) and secret_kind(value) == kind


@pytest.mark.parametrize(
    "value",
    [
        "Add a new patient named Jas",
        "Jean-Pierre Dupont",
        "alice.smith@example.org",
        "4111 1111 1111 1112",  # not Luhn valid
        "1234567890123",  # an order number, not Luhn valid
        "550e8400-e29b-41d4-a716-446655440000",  # a UUID
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",  # a sha256 digest
        "ThisIsALongIdentifierName2024",
        "AddPatientFormSubmitButton12",
        "MyCompanyName_Production_Server01",
        "JeanPierreDuPontDeLaRochelle1980",
        "/products/red-running-shoes-size-42?page=2",
        "Ordinary words, names and 2024-03-12 dates",
        "",
    ],
)
def test_ordinary_text_is_not_secret(value: str) -> None:
    assert not looks_secret(value)


def test_known_values_found_inside_nested_records() -> None:
    record = {
        "template": 'Log in as "{v1}"',
        "steps": [
            {"action": "setValue", "target": {"role": "textbox", "name": "User"}, "value": {"var": "v1"}},
            {"action": "setValue", "target": {"role": "textbox", "name": "Password"}, "value": {"text": "hunter22"}},
        ],
    }
    reason = leaks(record, known=["hunter22"])
    assert reason == "steps[1].value.text: holds a task secret"
    assert "hunter22" not in reason
    assert leaks(record, known=["nothere"]) is None
    assert leaks(record) is None


def test_short_known_values_count_as_whole_tokens_only() -> None:
    assert leaks({"name": "Room 10042"}, known=["0042"]) is None
    assert leaks({"name": "PIN 0042"}, known=["0042"]) == "name: holds a task secret"


def test_secret_shapes_and_placeholders_anywhere() -> None:
    assert leaks(["ok", ("fine", {"deep": [JWT]})]) == "$[1][1].deep[0]: looks like a secret (JWT)"
    assert leaks({"AKIAIOSFODNN7EXAMPLE": 1}) == "AKIAIOSFODNN7EXAMPLE (key): looks like a secret (key or card number)"
    assert leaks({"value": {"text": "[secret:1]"}}) == "value.text: holds a secret placeholder"
    assert leaks("4111111111111111") == "$: looks like a secret (key or card number)"


def test_other_scalars_and_empty_known_values_are_ignored() -> None:
    assert leaks({"n": 4111111111111111, "ok": True, "none": None}, known=["", "  ", None]) is None  # type: ignore[list-item]


def test_most_random_tokens_are_caught() -> None:
    import random
    import string

    rng = random.Random(15)
    alphabet = string.ascii_letters + string.digits
    caught = sum(looks_secret("".join(rng.choice(alphabet) for _ in range(32))) for _ in range(500))
    assert caught >= 450
