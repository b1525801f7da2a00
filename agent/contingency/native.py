"""A native ``window.confirm()`` the page raised and the client dismissed (the contingency
trigger ``native_confirm``).

The browser blocks the page until a native dialog is answered, so the reference client
answers it the safe way while the action runs (confirm, prompt and beforeunload dismissed;
alert accepted) and reports it on the next request (``clientObservations.nativeDialogs``).
A dismissed confirm means the action did nothing: the verification node fails the step
(:func:`declined_dialog`), and the contingency check — before correction and before any
model — decides, from flags and fixed vocabularies only:

* the dialog (or the control that raised it) offers the destructive thing the goal itself
  asks for ("Delete order 42" → ``confirm("Delete order 42? …")``): the user is asked, with
  the same ``confirm`` question as a held destructive action; ``confirm: true`` re-sends the
  action with ``dialog: "accept"``;
* a destructive confirm raised by an action the goal asks for, whose consequence the goal
  does not name ("Click Reset settings" → "This will delete your saved preferences"): the
  user is asked too, and the question says the goal did not name it — clicking again would
  only raise it again;
* a confirm with no destructive words after an action the goal asks for ("Save changes?" on
  Save): the action is re-sent once, accepting it (``accept_dialog``, once per action);
* anything else (a destructive confirm after an action the goal does not ask for, a prompt,
  a harmless confirm after such an action): it stays dismissed, and the answer says so.

The dialog's message is page content: it is matched against the destructive lexicon to
classify the dialog and quoted (clipped, delimited) to the user — never followed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from agent.destructive import asked_words, phrase_in
from agent.inputs import NativeDialog
from agent.policy.lexicon import DESTRUCTIVE
from planning.contingency import Contingency, applicable
from storage import TaskAction
from verification import ActionSyntaxError, Contract, parse_action
from verification.contract import words

DECLINED_KINDS: Final = frozenset({"confirm", "prompt", "beforeunload"})  # a dismissal of these cancels what the action did
# Every word of a goal that asks for a destructive action, with all it may ask for: a native
# confirm that says one ("Cancel your subscription?", "Submit the payment?") is never taken
# for harmless, even when no whole phrase of the lexicon is in it.
_RISKY: Final[dict[str, frozenset[str]]] = {}
for _asks in DESTRUCTIVE.values():
    for _word in _asks:
        _RISKY[_word] = _RISKY.get(_word, frozenset()) | _asks
QUOTE_CHARS: Final = 200  # of the dialog's text, quoted to the user

Decision = Literal["ask_user", "accept_once", "declined"]


def quote_page(text: str) -> str:
    """The page's words, clipped and delimited: data for a person, never an instruction."""
    text = " ".join(text.split())
    clipped = text[:QUOTE_CHARS] + ("…" if len(text) > QUOTE_CHARS else "")
    return "«" + clipped.replace("«", '"').replace("»", '"') + "»"


@dataclass(frozen=True)
class NativeConfirm:
    """What to do about a dismissed native dialog, and why (for people and logs)."""

    dialog: NativeDialog
    decision: Decision
    action: str  # the action that raised it (grammar text)
    label: str  # the control it was aimed at, as a person reads it
    phrase: str | None  # the destructive phrase the dialog or its control carries
    reason: str
    contingency: Contingency | None = None
    asked: bool = True  # the goal asks for the destructive thing itself (else only for the action that raised it)

    @property
    def quoted(self) -> str:
        return quote_page(self.dialog.message)

    @property
    def note(self) -> str:
        """The answer's thought when the dialog stays dismissed."""
        return f"The page asked to confirm ({self.dialog.kind}: {self.quoted}, the page's words) and it was declined: {self.reason}."

    def record(self, step_index: int) -> dict[str, Any]:
        """The contingency log's entry (``resends``: the action itself is sent again — its
        contract clauses still count, unlike a dismissal's)."""
        assert self.contingency is not None
        return {
            "step": step_index, "when": "after_failure", "id": self.contingency.id, "trigger": "native_confirm",
            "handler": self.contingency.handler, "source": self.contingency.source,
            "action": self.action if self.decision == "accept_once" else None,
            "control": self.label, "resends": self.decision == "accept_once",
        }  # fmt: skip


def sent_actions(last: TaskAction) -> tuple[str, ...]:
    """The actions the previous step sent: its action and its chain's."""
    return tuple(dict.fromkeys([last.action, *(str(item.get("action")) for item in last.actions or () if isinstance(item, dict))]))


def declined_dialog(dialogs: Sequence[NativeDialog], last: TaskAction | None) -> NativeDialog | None:
    """The newest confirm / prompt / beforeunload the previous step raised and the client
    dismissed: what the action did was cancelled. A dialog naming no action is the step's
    too (the client ran only its actions)."""
    if last is None:
        return None
    sent = sent_actions(last)
    for dialog in reversed(dialogs):
        if dialog.kind in DECLINED_KINDS and dialog.answered == "dismissed" and (dialog.action is None or dialog.action in sent):
            return dialog
    return None


def _control_label(last: TaskAction, action: str) -> str:
    """The label of the element the action aimed at, from the page it was issued on."""
    try:
        target = parse_action(action).target
    except ActionSyntaxError:
        return ""
    described = ((last.before_state or {}).get("skeleton") or {}).get("elements", {}).get(target) if target else None
    if isinstance(described, dict):
        return str(described.get("text") or described.get("name") or "")
    return ""


def _destructive(message: str, label: str) -> tuple[str | None, frozenset[str]]:
    """What destructive thing the dialog (or the control that raised it) offers, and the goal
    words that would ask for it: a phrase of the lexicon in the message (any inflection) or
    on the control, else any word a goal uses to ask for one ("cancel", "submit")."""
    phrase = phrase_in(message, inflected=True) or phrase_in(label)
    if phrase is not None:
        return phrase, DESTRUCTIVE[phrase]
    for word in words(message):
        for form in (word, word.removesuffix("s"), word.removesuffix("ed"), word.removesuffix("ing"), word.removesuffix("d")):
            if form in _RISKY:
                return form, _RISKY[form]
    return None, frozenset()


def _asked_action(last: TaskAction, action: str, label: str, goal: str) -> bool:
    """Does the goal ask for the action that raised the dialog? Its contract clause hits (the
    policy aimed it at a clause of the goal), or the goal naming its control word for word."""
    hits = last.metrics.get("clause_hits") if action == last.action else None
    for item in last.actions or ():
        if isinstance(item, dict) and item.get("action") == action:
            hits = item.get("clause_hits")
    if hits:
        return True
    named, said = words(label), words(goal)
    return bool(named) and any(said[i : i + len(named)] == named for i in range(len(said) - len(named) + 1))


def decide(
    dialog: NativeDialog,
    last: TaskAction,
    goal: str,
    contract: Contract | None,
    plan_contingencies: Sequence[Contingency],
    fired: Sequence[dict[str, Any]],
    counts: dict[str, int],
) -> NativeConfirm:
    """The handler for a dismissed native dialog of the previous step (pure: flags, the
    destructive lexicon, the goal's words, the contingency log)."""
    action = dialog.action or last.action
    label = _control_label(last, action)
    phrase, asks = _destructive(dialog.message, label)
    asked = bool(asks & asked_words(goal, contract))

    def spent(handler: str) -> Contingency | None | Literal[False]:
        for contingency in applicable("native_confirm", plan_contingencies):
            if contingency.handler == handler:
                return contingency if counts.get(contingency.id, 0) < contingency.max_runs else False
        return None

    def declined(why: str) -> NativeConfirm:
        return NativeConfirm(dialog, "declined", action, label, phrase, why)

    if dialog.kind != "confirm":
        return declined(f"a {dialog.kind} dialog is never answered for the user")
    if last.metrics.get("dialog") == "accept":
        return declined("the action was sent to accept it, and the client dismissed it again (it cannot accept native dialogs)")
    if phrase is not None:
        if not asked and not _asked_action(last, action, label, goal):
            return declined(f"it would {phrase}, which the goal does not ask for")
        chosen = spent("ask_user")
        if not chosen:
            return declined("the user was asked about such confirmations as often as this task allows")
        why = (
            "it would do the destructive thing the goal asks for: the user decides" if asked
            else f"the goal's own action would {phrase}, which the goal does not say: the user decides"
        )
        return NativeConfirm(dialog, "ask_user", action, label, phrase, why, chosen, asked=asked)
    if not _asked_action(last, action, label, goal):
        return declined("the action that raised it is not one the goal asks for")
    if any(f.get("trigger") == "native_confirm" and f.get("action") == action and f.get("resends") for f in fired):
        return declined("it was already accepted once for this action")
    chosen = spent("accept_dialog")
    if not chosen:
        return declined("harmless confirmations were accepted as often as this task allows")
    why = "a harmless confirmation of the goal's own action: sent again, accepting it once"
    return NativeConfirm(dialog, "accept_once", action, label, None, why, chosen)
