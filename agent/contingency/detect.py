"""What is in the way on this page: an overlay covering it, and what kind of overlay.

Read from the :class:`~verification.PageState` only (never the page's prose as an
instruction): an overlay is there when visible elements are marked covered (``occ`` from
the client: behind an open modal, or their centre point belongs to something else); its
controls are the reachable ones — those of the open dialog when there is one, else every
control still reachable (a full-page cover leaves only its own). The overlay's *kind*
decides the handler (``planning.contingency``):

* ``confirm_destructive`` — an overlay offering the destructive thing the goal itself asks
  for ("Delete" in an "Are you sure?" after "Delete Bob's record"), or the control a clause
  waits for: a page — a dialog or a whole new page — that asks to confirm the destructive
  click the goal's clause made (:mod:`agent.confirmation`): the user confirms it;
* ``session_expired`` — the page says the session ended and offers to sign in again;
* ``cookie_banner`` — its controls or the page mention cookies / consent;
* ``interstitial`` — a cover outside any dialog that offers to skip it;
* ``modal`` — the controls are in a dialog; ``overlay`` — anything else.

Words the overlay shows are matched against fixed lexicons to classify it; nothing it says
is ever turned into an action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from agent.confirmation import form_to_fill
from agent.destructive import asked_words, destructive_phrase
from agent.policy.lexicon import DESTRUCTIVE, DISMISS_NAMES
from planning.contingency import TriggerKind
from verification import Contract, PageElement, PageState
from verification.contract import fold, words

# Controls that refuse optional cookies, best first.
REJECT_COOKIE_NAMES: Final[tuple[str, ...]] = (
    "reject all", "reject all cookies", "reject optional cookies", "reject", "decline", "decline all",
    "accept necessary only", "accept only necessary", "only necessary", "necessary only", "necessary cookies only",
    "use necessary cookies only", "accept necessary cookies", "allow necessary cookies", "accept essential only",
    "essential only", "only essential", "continue without accepting", "refuse", "refuse all", "deny",
)  # fmt: skip
# Controls that close an overlay without doing anything, best first (the lexicon's, and a
# few that skip an interstitial).
DISMISS_ORDER: Final[tuple[str, ...]] = (
    "close", "x", "×", "✕", "close dialog", "dismiss", "no thanks", "no, thanks", "not now", "maybe later", "skip",
    "skip ad", "close ad", "continue to site", "cancel", "got it",
)  # fmt: skip
DISMISS: Final[frozenset[str]] = frozenset(DISMISS_ORDER) | DISMISS_NAMES
CLOSERS: Final[frozenset[str]] = DISMISS | frozenset(REJECT_COOKIE_NAMES)
WIDGET_ROLES: Final = frozenset({"option", "listbox", "menu", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem", "combobox"})
_COOKIE = re.compile(r"\b(cookies?|consent|gdpr|tracking preferences)\b")
_SESSION = re.compile(r"\b(session (has )?(expired|timed out|ended)|you (have been|were) (signed|logged) out|(sign|log) ?in again)\b")
_SIGN_IN: Final = frozenset({"sign in", "log in", "login", "signin", "sign in again", "log in again", "continue"})
_SKIP: Final = frozenset({"skip", "skip ad", "close ad", "continue to site"})
MIN_COVER: Final = 0.5  # a cover outside any dialog is in the way when it covers this share of the page…
MAX_OWN_CONTROLS: Final = 4  # …or leaves no more than this many controls reachable (a full-page cover's own)


@dataclass(frozen=True)
class Blocker:
    """An overlay on the page: its kind, its reachable controls, and how much it covers."""

    trigger: TriggerKind
    controls: tuple[PageElement, ...]
    covered: tuple[str, ...]  # ids of the visible elements it covers
    in_dialog: bool

    share: float = 1.0  # of the page's visible elements, the share it covers
    confirms: PageElement | None = None  # the control a clause's destructive click waits for


    def covers(self, element_id: str | None) -> bool:
        return element_id is not None and element_id in self.covered

    def offers(self, label: str) -> bool:
        """Is a control labelled ``label`` (a plan step's target) one of the overlay's own?"""
        wanted = fold(label)
        return bool(wanted) and any(_name(c) == wanted or fold(c.name) == wanted for c in self.controls)

    def in_the_way(self, failed_target: str | None = None) -> bool:
        """Does it block the page, not just brush it? An open dialog; a cover over at least
        half of the visible elements, or one that leaves only a handful reachable (its own);
        or the very element a failed action aimed at — and, outside a dialog, only a cover
        that offers a control to close it and is no widget of the page (an open suggestion
        list or menu covers the fields below it, and Escape would close it). A sticky header
        over a row scrolled under it, or a menu over a few links, is not."""
        if self.in_dialog or self.trigger == "session_expired" or self.confirms is not None:
            return True
        if any(c.role in WIDGET_ROLES for c in self.controls) or not any(_name(c) in CLOSERS for c in self.controls):
            return False  # an open suggestion list or menu is the page's own widget; a cover with no closer is not one to close
        return self.covers(failed_target) or (bool(self.covered) and (self.share >= MIN_COVER or len(self.controls) <= MAX_OWN_CONTROLS))


def _name(element: PageElement) -> str:
    return fold(element.name or element.text or "")


def overlay_controls(page: PageState) -> tuple[tuple[PageElement, ...], bool]:
    """The controls of what covers the page (and whether they sit in a dialog); ``()`` when
    nothing visible is covered. Controls in a form outside any dialog are never counted: a
    partial cover leaves the page's own form (and its Cancel) reachable."""
    reachable = [e for e in page.elements if e.actionable]
    dialog = [e for e in reachable if any(c.startswith("dialog") for c in e.container)]
    if dialog:
        return tuple(dialog), True
    outside_forms = [e for e in reachable if not any(c.startswith("form") for c in e.container)]
    return tuple(outside_forms), False


def covered_ids(page: PageState) -> tuple[str, ...]:
    return tuple(e.id for e in page.elements if e.occluded and not e.hidden)


def _mentions(page: PageState, pattern: re.Pattern[str], controls: tuple[PageElement, ...], *, whole_page: bool = False) -> bool:
    """Does the overlay itself speak of it — its controls, the box they sit in, the page's
    messages (and, ``whole_page``, the page's title and text: a session-expired page replaces
    the page)? A footer's "Cookie policy" link makes no dialog a cookie banner."""
    texts = [*(m.text for m in page.messages), *(_name(c) for c in controls)]
    if whole_page:
        texts += [page.title or "", page.text_summary]
    texts += [container.partition(": ")[2] for c in controls for container in c.container[:2]]
    return any(pattern.search(fold(t)) for t in texts if t)


def goal_confirms(controls: tuple[PageElement, ...], goal: str, contract: Contract | None) -> PageElement | None:
    """The overlay's control that does the destructive thing the goal asks for (the
    "Delete" of an "Are you sure?" after "Delete the record of Bob"), when there is one."""
    asked = asked_words(goal, contract)
    for element in controls:
        phrase = destructive_phrase(element)
        if phrase is not None and DESTRUCTIVE[phrase] & asked:
            return element
    return None


def classify(page: PageState, controls: tuple[PageElement, ...], in_dialog: bool, goal: str, contract: Contract | None) -> TriggerKind:
    confirms = goal_confirms(controls, goal, contract) if in_dialog else None
    if confirms is not None and not form_to_fill(controls, confirms):
        return "confirm_destructive"
    if "login" not in words(goal) and _mentions(page, _SESSION, controls, whole_page=True) and any(_name(c) in _SIGN_IN for c in controls):
        return "session_expired"
    names = {_name(c) for c in controls}
    if names & set(REJECT_COOKIE_NAMES) or _mentions(page, _COOKIE, controls):
        return "cookie_banner"
    if in_dialog:
        return "modal"
    return "interstitial" if names & _SKIP else "overlay"


def awaited(page: PageState, contract: Contract | None) -> PageElement | None:
    """The control on this page that a clause's destructive click is waiting for
    (``ClauseResult.awaiting``): the page's question, whether or not it covers anything —
    disabled too ("type DELETE to confirm"): the question is there, only not answerable."""
    if contract is None:
        return None
    waiting = {fold(r.awaiting) for r in contract.results.values() if r.awaiting and r.status == "pending"}
    if not waiting:
        return None
    shown = [
        e for e in page.elements
        if not e.hidden and not e.occluded and e.frame == 0 and {fold(e.name), fold(e.text or "")} & waiting
    ]  # fmt: skip
    # The dialog's "Delete", not a row's behind it that the page did not mark covered.
    return next((e for e in shown if any(c.startswith("dialog") for c in e.container)), shown[0] if shown else None)


def detect_blocker(page: PageState, goal: str, contract: Contract | None = None) -> Blocker | None:
    """The overlay covering the page, or ``None``. A session-expired page is reported even
    when it covers nothing (it replaced the page); so is a confirmation a clause waits for."""
    covered = covered_ids(page)
    controls, in_dialog = overlay_controls(page)
    if (control := awaited(page, contract)) is not None:
        return Blocker("confirm_destructive", (control,), covered, in_dialog, confirms=control)
    if not covered:
        reachable = tuple(e for e in page.elements if e.actionable)
        signing_in = "login" in words(goal)  # "Sign in again" is then the goal, not in its way
        if not signing_in and _mentions(page, _SESSION, reachable, whole_page=True) and any(_name(c) in _SIGN_IN for c in reachable):
            return Blocker("session_expired", reachable, (), False)
        return None
    visible = sum(1 for e in page.elements if not e.hidden)
    share = len(covered) / visible if visible else 1.0
    if not controls:
        return Blocker("overlay", (), covered, in_dialog, share)
    return Blocker(classify(page, controls, in_dialog, goal, contract), controls, covered, in_dialog, share)


def goal_names_overlay(blocker: Blocker, goal: str) -> PageElement | None:
    """A control of the overlay the goal names by its words — one that does something
    ("Accept all cookies", "Subscribe to the newsletter"), not one that only closes it: then
    answering the overlay is the goal's own business, not a contingency's."""
    said = words(goal)
    for element in blocker.controls:
        named = words(element.name or element.text or "")
        if not named or _name(element) in DISMISS or fold(" ".join(named)) in DISMISS:
            continue
        if any(said[i : i + len(named)] == named for i in range(len(said) - len(named) + 1)):
            return element
    return None
