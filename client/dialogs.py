"""Native dialogs (``window.confirm/alert/prompt``, ``beforeunload``) while an action runs.

The browser blocks the page until a native dialog is answered; Playwright, with no
listener, dismisses it silently — the server never learns why a click on "Delete" changed
nothing. :class:`DialogWatch` listens on the tab for the whole run and answers every dialog
the safe way, by construction: confirm, prompt and beforeunload are dismissed (Cancel /
stay on the page), alert accepted (OK, its only button). Only for the one action an answer
marks ``actionDetails.dialog: "accept"`` does it accept a confirm (after the user confirmed
it, or once for a harmless confirm of the goal's own action; docs/contingencies.md).

What was shown is reported on the next request, in ``clientObservations.nativeDialogs``:
``{kind, message (clipped), action (the grammar text of the action that raised it),
answered}``. The message is page content: the server treats it as data.
"""

from __future__ import annotations

import logging
import weakref
from contextlib import contextmanager
from collections.abc import Iterator
from typing import Any, Final

from playwright.async_api import Dialog, Page
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger("stepwise.client")

MESSAGE_CHARS: Final = 300
MAX_REPORTED: Final = 10
_WATCHES: weakref.WeakKeyDictionary[Page, DialogWatch] = weakref.WeakKeyDictionary()


class DialogWatch:
    """The tab's dialog handler: what it answered since the last :meth:`take`."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.action: str | None = None  # the action running now (grammar text)
        self.accept: bool = False  # accept a confirm raised by the action running now
        self.seen: list[dict[str, Any]] = []
        if (earlier := _WATCHES.get(page)) is not None:
            earlier.close()  # one answer per dialog: two listeners would both answer it
        page.on("dialog", self._answer)
        _WATCHES[page] = self

    def close(self) -> None:
        """Stop listening (Playwright dismisses dialogs again, unreported)."""
        self.page.remove_listener("dialog", self._answer)
        if _WATCHES.get(self.page) is self:
            del _WATCHES[self.page]

    @classmethod
    def of(cls, page: Page) -> DialogWatch | None:
        return _WATCHES.get(page)

    def arm(self, *, accept: bool) -> None:
        """Before the next action: accept its confirm (``actionDetails.dialog: "accept"``) or not."""
        self.accept = accept

    @contextmanager
    def running(self, action: str) -> Iterator[None]:
        """Dialogs raised meanwhile are ``action``'s."""
        self.action = action
        try:
            yield
        finally:
            self.action = None

    def take(self) -> list[dict[str, Any]]:
        """The dialogs answered since the last call (and the accept instruction spent)."""
        seen, self.seen, self.accept = self.seen[:MAX_REPORTED], [], False
        return seen

    async def _answer(self, dialog: Dialog) -> None:
        kind = dialog.type
        accept = kind == "alert" or (kind == "confirm" and self.accept and self.action is not None)
        record = {"kind": kind, "message": " ".join(dialog.message.split())[:MESSAGE_CHARS], "answered": "accepted" if accept else "dismissed"}
        if self.action is not None:
            record["action"] = self.action
        self.seen.append(record)
        log.info("client.native_dialog kind=%s answered=%s action=%s", kind, record["answered"], self.action)
        try:
            await (dialog.accept() if accept else dialog.dismiss())
        except PlaywrightError:  # the page went away meanwhile: nothing left to answer
            pass


@contextmanager
def running(page: Page, action: str) -> Iterator[None]:
    """Attribute the dialogs raised on ``page`` meanwhile to ``action`` (no watch: nothing)."""
    watch = DialogWatch.of(page)
    if watch is None:
        yield
        return
    with watch.running(action):
        yield
