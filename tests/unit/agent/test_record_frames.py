"""Acting on a message found in a list: the readings of the goal (record_frames) — several
phrasings per action, the find and its pronoun only saying how, and goals that name no
message (or more than one) declined."""

from __future__ import annotations

import pytest

from agent.policy import understand
from agent.policy.decompose import split_clauses
from agent.policy.record_frames import merge_record_find


def _read(goal: str) -> tuple[list[tuple[str, str | None, str | None]], tuple[str, ...]]:
    found = understand(goal)
    return [(s.kind, s.target, s.value) for s in found.plan.steps], found.contract.unaccounted


FORWARD = [
    ("Find the email by Audrey and forward that email to Hedy.", "Audrey", "Hedy"),
    ("Locate the email by Audrey. Forward that email to Hedy.", "Audrey", "Hedy"),
    ("Look for the email from Audrey and forward to Hedy.", "Audrey", "Hedy"),
    ("Forward to Hedy the email from Audrey.", "Audrey", "Hedy"),
    ("Forward the email from Audrey to Hedy.", "Audrey", "Hedy"),
    ("Forward the mail by Audrey to Hedy.", "Audrey", "Hedy"),
    ("Please forward the information from Audrey to Hedy.", "Audrey", "Hedy"),
    ("Send Hedy the email you got from Audrey.", "Audrey", "Hedy"),
    ("Give Hedy the message you received from Audrey,", "Audrey", "Hedy"),
    ("Send Hedy the information Audrey sent to you.", "Audrey", "Hedy"),
    ("Forward Hedy the message Audrey sent you.", "Audrey", "Hedy"),
    ("Go to the email by Audrey. Send it to Hedy.", "Audrey", "Hedy"),
    ("Please find the message by Audrey, then send it to Hedy.", "Audrey", "Hedy"),
    ("Navigate to the message from Audrey and send it to Hedy.", "Audrey", "Hedy"),
    ("Search for the mail Audrey sent you and send it to Hedy.", "Audrey", "Hedy"),
    ("Forward Ana Silva's email to Bob Stone", "Ana Silva", "Bob Stone"),
]


@pytest.mark.parametrize(("goal", "sender", "dest"), FORWARD)
def test_forward_phrasings_open_the_message_address_it_and_send(goal: str, sender: str, dest: str) -> None:
    steps, unaccounted = _read(goal)
    assert unaccounted == ()
    assert [k for k, _t, _v in steps] == ["click", "fill", "submit"]
    assert steps[0][1] is not None and steps[0][1].startswith("the forward button of the ") and steps[0][1].endswith(f"from {sender}")
    assert steps[1] == ("fill", 'the "to" field', dest)
    assert steps[2][1] == "send"


@pytest.mark.parametrize(
    ("goal", "sender", "text"),
    [
        ('Find the email by Bettine and reply to them with the text "Gravida.".', "Bettine", "Gravida."),
        ('Find the email by Audrey and reply to them with the text "Vel quis varius. Semper.".', "Audrey", "Vel quis varius. Semper."),
        ('Reply to the email from Ana Silva with "See you at noon"', "Ana Silva", "See you at noon"),
        ("Reply to Ana's message with the text 'Thanks, Ana'", "Ana", "Thanks, Ana"),
        ('Open the message from Dana and reply to it saying "OK"', "Dana", "OK"),
    ],
)
def test_reply_phrasings_write_the_text_the_goal_quotes(goal: str, sender: str, text: str) -> None:
    steps, unaccounted = _read(goal)
    assert unaccounted == ()
    assert steps[0][1] is not None and steps[0][1].startswith("the reply button of the ") and steps[0][1].endswith(f"from {sender}")
    assert steps[1] == ("fill", "the text area", text)  # the user's case and full stops kept
    assert steps[2][0] == "submit"


@pytest.mark.parametrize(
    ("goal", "control", "sender", "value"),
    [
        ("Find the email by Coletta and click the trash icon to delete it.", "trash", "Coletta", None),
        ("Delete the email from Coletta", "delete", "Coletta", None),
        ("Remove Coletta's message", "delete", "Coletta", None),
        ("Move the email from Coletta to the trash", "delete", "Coletta", None),
        ("Find the email by Cathrine and click the star icon to mark it as important.", "star", "Cathrine", "on"),
        ("Star the email from Cathrine", "star", "Cathrine", "on"),
        ("Flag the message by Cathrine", "star", "Cathrine", "on"),
        ("Archive the email from Cathrine", "archive", "Cathrine", None),
    ],
)
def test_delete_star_and_archive_click_the_messages_own_control(goal: str, control: str, sender: str, value: str | None) -> None:
    steps, unaccounted = _read(goal)
    assert unaccounted == ()
    assert len(steps) == 1
    kind, target, got = steps[0]
    assert kind == "click" and got == value
    assert target is not None and target.startswith(f"the {control} button of the ") and target.endswith(f"from {sender}")


def test_the_control_is_a_record_reference_and_a_delete_is_proven_by_the_sender_gone() -> None:
    found = understand("Delete the email from Coletta Ruiz")
    click, gone = found.contract.clauses
    assert click.target is not None and click.target.record and click.target.container == "coletta ruiz"
    assert click.effect  # a delete must show a result
    assert gone.kind == "shown" and not gone.appear and gone.value == "Coletta Ruiz"


def test_a_reply_and_a_forward_need_their_fields_filled_when_send_is_clicked() -> None:
    for goal in ('Reply to the email from Ana with "Hi"', "Forward the email from Ana to Bob"):
        clauses = understand(goal).contract.clauses
        send = clauses[-1]
        assert send.kind == "activated" and send.effect and send.target is not None and send.target.commit
        assert clauses[1].kind == "field_value" and clauses[1].before == send.id


@pytest.mark.parametrize(
    "goal",
    [
        "delete my account",
        "Forward it to Bob",
        "forward the newsletter to my team",
        "Delete the email",
        "Find the email by Ana and forward the invoice to Bob",
        "Find the email by Ana and forward that email to Bob and Carl",
        "Bob wants the email Ana sent to you.",
    ],
)
def test_goals_that_name_no_message_or_more_than_one_recipient_are_declined(goal: str) -> None:
    steps, unaccounted = _read(goal)
    assert unaccounted, steps


def test_a_reply_without_text_stays_the_plain_record_click() -> None:
    steps, unaccounted = _read("Reply to the email from Ana")
    assert steps == [("click", "reply button for Ana", None)] and unaccounted == ()


def test_a_find_that_is_not_followed_by_a_reference_is_left_alone() -> None:
    clauses = split_clauses("Find the email by Ana and click Save")
    assert merge_record_find(clauses) == (clauses, ())


def test_quoted_values_are_not_split_at_their_own_sentence_ends() -> None:
    assert split_clauses('Reply to the email from Ana with "Yes. Then no." then click Back') == [
        'Reply to the email from Ana with "Yes. Then no."',
        "click Back",
    ]
