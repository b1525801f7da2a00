"""Typed errors of the reference client."""

from __future__ import annotations

from typing import Literal

ActionErrorCode = Literal[
    "ELEMENT_NOT_FOUND",
    "NOT_ACTIONABLE",
    "BAD_ACTION",
    "NAVIGATION_FAILED",
    "UNSUPPORTED",
]


class ActionError(RuntimeError):
    """An action could not be executed on the page (reported to the server as
    ``lastActionStatus: "failure"`` with this message as ``lastActionError``)."""

    def __init__(self, message: str, *, code: ActionErrorCode = "NOT_ACTIONABLE") -> None:
        super().__init__(message)
        self.code: ActionErrorCode = code
        self.message = message
