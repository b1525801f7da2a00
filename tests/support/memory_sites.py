"""Small simulated sites for the memory tests: V3 pages that change as actions run.

``Clinic`` is a patient register whose obvious "Add patient" control is a dead end (it
does nothing) while a second control carrying the same words opens the form — the shape
the skills library learns from. It comes in several layouts (where the two controls are,
what they are called, what the form is), and its ids can be renumbered on every render, as
real sites re-render. ``drive`` plays a goal against a site through the API, as the
extension would: execute the answer's action(s), send the new page with the same task.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from verification import ActionSyntaxError, parse_action

LAYOUTS = ("nav", "sidebar", "cards")


@dataclass
class Clinic:
    layout: str = "nav"
    origin: str = "https://clinic-a.example"
    id_offset: int = 0  # renumbers every id (a re-render)
    dead_first: bool = True  # the dead control comes first in the tree
    overlay: bool = False  # a notice covers the form the first time it opens, until closed
    twin_save: bool = False  # the form has two look-alike Save buttons (only one works)
    broken_live: bool = False  # the working control stops working too
    focusable: bool = False  # the controls are real buttons and links: a click gives them the focus
    banner: str | None = None  # a promotional box on the list page, with a "checkbox" or a "tab": another skeleton, the same flow
    state: str = "home"
    first: str = ""
    last: str = ""
    saved: list[str] = field(default_factory=list)
    clicks: list[str] = field(default_factory=list)  # semantic names of what was clicked
    wrong: int = 0  # actions on an element that does not exist
    focused: str = ""  # the key of the element holding the focus

    @property
    def url(self) -> str:
        return f"{self.origin}/patients" if self.state != "form" else f"{self.origin}/patients/new"

    def _id(self, key: str) -> str:
        return f"e{self.id_offset + KEYS.index(key)}"

    def _controls(self) -> list[dict[str, Any]]:
        dead_name, live_name, dead_ctx, live_ctx = {
            "nav": ("Add patient", "Add patient record", ["navigation: Main menu"], ["section: Patients"]),
            "sidebar": ("New patient", "New patient (full form)", ["section: Shortcuts"], ["section: Register"]),
            "cards": ("Create patient", "Create patient now", ["section: Quick actions"], ["card: Patients"]),
        }[self.layout]
        dead = {"i": self._id("dead"), "r": "btn", "n": dead_name, "ctx": dead_ctx, "xy": [120, 40], "box": [60, 25, 120, 30]}
        live = {"i": self._id("live"), "r": "link", "n": live_name, "ctx": live_ctx, "xy": [400, 300], "box": [330, 290, 140, 20]}
        for key, node in (("dead", dead), ("live", live)):
            if self.focused == key:
                node["s"] = "focused"
        return [dead, live] if self.dead_first else [live, dead]

    def tree(self) -> list[dict[str, Any]]:
        other = {"i": self._id("help"), "r": "link", "n": "Help", "xy": [900, 40], "box": [880, 30, 40, 20]}
        if self.state == "form":
            form = ["form: New patient"]
            covered = {"occ": True} if self.overlay else {}
            nodes = [
                {"i": self._id("first"), "r": "textbox", "n": "First name", "v": self.first, "ctx": form, "xy": [300, 200], "box": [200, 190, 200, 24], **covered},
                {"i": self._id("last"), "r": "textbox", "n": "Last name", "v": self.last, "ctx": form, "xy": [300, 240], "box": [200, 230, 200, 24], **covered},
                {"i": self._id("save"), "r": "btn", "n": "Save", "ctx": form, "xy": [250, 300], "box": [220, 290, 60, 30], **covered},
                other,
            ]
            if self.twin_save:
                nodes.insert(2, {"i": self._id("twin"), "r": "btn", "n": "Save", "ctx": form, "xy": [350, 300], "box": [320, 290, 60, 30], **covered})
            if self.overlay:
                nodes.append({"i": self._id("close"), "r": "btn", "n": "Close", "ctx": ["dialog: Cookie notice"], "xy": [600, 100], "box": [580, 90, 40, 20]})
            return nodes
        nodes = [*self._controls(), other]
        if self.banner is not None:
            role = {"checkbox": "checkbox", "tab": "tab"}[self.banner]
            nodes.append({"i": "promo", "r": role, "n": "Subscribe to news", "ctx": ["section: News"], "xy": [900, 600], "box": [850, 590, 120, 20]})
        nodes += [{"i": f"row{n}", "r": "link", "n": name, "ctx": ["list: Patients"], "xy": [300, 400 + 20 * n], "box": [250, 390 + 20 * n, 100, 18]} for n, name in enumerate(self.saved)]
        if self.state == "saved":
            nodes.append({"i": "msg", "r": "status", "n": f"Patient {self.saved[-1]} saved"})
        return nodes

    def page(self) -> dict[str, Any]:
        return {"url": self.url, "title": "Clinic", "interactiveTree": self.tree(), "viewport": {"width": 1280, "height": 800}}

    def apply(self, text: str) -> None:
        try:
            action = parse_action(text)
        except ActionSyntaxError:
            return
        if action.name in ("wait", "finish", "fail", "scroll"):
            return
        by_id = {self._id(k): k for k in KEYS}
        key = by_id.get(action.target or "")
        if key is None:
            self.wrong += 1
            return
        if action.name == "click":
            self.clicks.append(key)
            self.focused = key if key in ("dead", "live") and self.focusable else ""  # a link that navigates loses it with its page
            if key == "close":
                self.overlay = False
            elif self.overlay and key in ("first", "last", "save", "twin"):
                return  # covered: the click lands on the notice
            elif key == "live" and self.state != "form" and not self.broken_live:
                self.state = "form"
            elif key == "save" and self.state == "form" and self.first and self.last:
                self.saved.append(f"{self.first} {self.last}")
                self.first = self.last = ""
                self.state = "saved"
        elif action.name == "setValue" and self.state == "form" and not self.overlay:
            if key == "first":
                self.first = action.value or ""
            elif key == "last":
                self.last = action.value or ""

    def done(self, name: str) -> bool:
        return name in self.saved


KEYS = ("dead", "live", "help", "first", "last", "save", "twin", "close")


@dataclass
class SignIn:
    """A sign-in form whose "Sign in" button is dead; "Sign in now" below it works."""

    origin: str = "https://portal.example"
    id_offset: int = 0
    user: str = ""
    password: str = ""
    signed_in: str | None = None
    clicks: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"{self.origin}/login" if self.signed_in is None else f"{self.origin}/home"

    def _id(self, key: str) -> str:
        return f"s{self.id_offset + SIGN_IN_KEYS.index(key)}"

    def page(self) -> dict[str, Any]:
        if self.signed_in is not None:
            tree = [{"i": "msg", "r": "status", "n": f"Signed in as {self.signed_in}"}, {"i": self._id("out"), "r": "btn", "n": "Sign out"}]
        else:
            form = ["form: Sign in"]
            tree = [
                {"i": self._id("user"), "r": "textbox", "n": "Username", "v": self.user, "ctx": form},
                {"i": self._id("password"), "r": "textbox", "n": "Password", "ty": "password", "v": self.password, "ctx": form},
                {"i": self._id("dead"), "r": "btn", "n": "Sign in", "ctx": form},
                {"i": self._id("live"), "r": "btn", "n": "Sign in now", "ctx": ["section: Secure sign-in"]},
            ]
        return {"url": self.url, "title": "Portal", "interactiveTree": tree, "viewport": {"width": 1280, "height": 800}}

    def apply(self, text: str) -> None:
        try:
            action = parse_action(text)
        except ActionSyntaxError:
            return
        key = {self._id(k): k for k in SIGN_IN_KEYS}.get(action.target or "")
        if key is None:
            return
        if action.name == "setValue":
            if key == "user":
                self.user = action.value or ""
            elif key == "password":
                self.password = action.value or ""
        elif action.name == "click":
            self.clicks.append(key)
            if key == "live" and self.user and self.password:
                self.signed_in = self.user


SIGN_IN_KEYS = ("user", "password", "dead", "live", "out")

Interact = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


async def drive(interact: Interact, site: Any, goal: str, *, max_steps: int = 20) -> list[dict[str, Any]]:
    """Every answer of one task, the site executing each answer's actions in turn."""
    answers = [await interact({"url": site.url, "query": goal, **site.page()})]
    while answers[-1]["status"] == "active" and len(answers) < max_steps:
        last = answers[-1]
        actions = [item["action"] for item in last.get("actions") or []] or [last["action"]]
        for text in actions:
            site.apply(text)
        body: dict[str, Any] = {
            "taskId": last["taskId"],
            "sessionId": last["sessionId"],
            "stepIndex": last["stepIndex"],
            "url": site.url,
            **site.page(),
        }
        if last.get("actions"):
            body["lastExecutedActionIndex"] = len(actions) - 1
        answers.append(await interact(body))
    return answers
