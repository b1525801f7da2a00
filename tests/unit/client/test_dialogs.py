"""The client's native-dialog handler (client/dialogs.py) with a fake tab: safe answers by
construction, the accept instruction for one action only, one listener per tab, reports."""

from __future__ import annotations

from typing import Any

from client.dialogs import MESSAGE_CHARS, DialogWatch, running


class FakeDialog:
    def __init__(self, kind: str, message: str = "Sure?") -> None:
        self.type, self.message, self.answer = kind, message, None

    async def accept(self) -> None:
        self.answer = "accepted"

    async def dismiss(self) -> None:
        self.answer = "dismissed"


class FakePage:
    def __init__(self) -> None:
        self.listeners: list[Any] = []

    def on(self, event: str, handler: Any) -> None:
        assert event == "dialog"
        self.listeners.append(handler)

    def remove_listener(self, event: str, handler: Any) -> None:
        self.listeners.remove(handler)

    async def raise_dialog(self, dialog: FakeDialog) -> None:
        for handler in list(self.listeners):
            await handler(dialog)


async def test_every_kind_is_answered_the_safe_way_and_reported() -> None:
    page = FakePage()
    watch = DialogWatch(page)  # type: ignore[arg-type]
    dialogs = [FakeDialog(kind, "Delete order 42?\n" + "x" * 400) for kind in ("confirm", "prompt", "beforeunload", "alert")]
    with running(page, 'click("2")'):  # type: ignore[arg-type]
        for dialog in dialogs:
            await page.raise_dialog(dialog)
    assert [d.answer for d in dialogs] == ["dismissed", "dismissed", "dismissed", "accepted"]
    seen = watch.take()
    assert [(s["kind"], s["answered"], s["action"]) for s in seen] == [
        ("confirm", "dismissed", 'click("2")'), ("prompt", "dismissed", 'click("2")'),
        ("beforeunload", "dismissed", 'click("2")'), ("alert", "accepted", 'click("2")'),
    ]  # fmt: skip
    assert seen[0]["message"].startswith("Delete order 42? xxx") and len(seen[0]["message"]) == MESSAGE_CHARS
    assert watch.take() == []


async def test_the_accept_instruction_holds_for_one_action_and_confirm_only() -> None:
    page = FakePage()
    watch = DialogWatch(page)  # type: ignore[arg-type]
    watch.arm(accept=True)
    confirm, prompt = FakeDialog("confirm"), FakeDialog("prompt")
    with watch.running('click("2")'):
        await page.raise_dialog(confirm)
        await page.raise_dialog(prompt)
    assert (confirm.answer, prompt.answer) == ("accepted", "dismissed")
    assert [s["answered"] for s in watch.take()] == ["accepted", "dismissed"]
    later = FakeDialog("confirm")
    with watch.running('click("2")'):  # the next action: the instruction was spent by take()
        await page.raise_dialog(later)
    assert later.answer == "dismissed"
    watch.arm(accept=True)
    outside = FakeDialog("confirm")
    await page.raise_dialog(outside)  # raised while no action runs (a timer): never accepted
    assert outside.answer == "dismissed" and "action" not in watch.take()[-1]


async def test_one_listener_per_tab() -> None:
    page = FakePage()
    first = DialogWatch(page)  # type: ignore[arg-type]
    second = DialogWatch(page)  # type: ignore[arg-type]
    assert page.listeners == [second._answer] and DialogWatch.of(page) is second  # type: ignore[arg-type]
    second.close()
    assert page.listeners == [] and DialogWatch.of(page) is None  # type: ignore[arg-type]
    assert DialogWatch.of(page) is not first  # the first one was closed when the second came
    with running(page, 'click("1")'):  # type: ignore[arg-type]  # no watch: nothing to attribute
        pass
