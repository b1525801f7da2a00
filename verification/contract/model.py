"""The goal contract's shapes: element references, clauses, their results, the contract.

A **clause** is one predicate Stepwise checks itself — over the page, over the task's
verified action log, or over what changed since the task began. Its ``mode`` follows from
its kind:

* ``state`` clauses may already hold ("turn on X" when X is on) and must hold *now* — or,
  when a later event depends on them (``before``), must have held on the page where that
  event's action was issued ("enter the name, then save": the name was in the field when
  Save was pressed, even if the saved form is gone);
* ``event`` clauses must happen during the task (a verified click on the element, a
  message that appeared) and stay true once they did.

Element references are semantic (role, accessible name, the row/card/dialog/section the
element is in) and are resolved on each page; stored element ids are never trusted.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from verification.elements import ContainerKind

RefRole = Literal[
    "button", "link", "textbox", "checkbox", "radio", "switch", "combobox", "option", "tab", "menuitem", "treeitem",
    "slider", "spinbutton",
]
ClauseKind = Literal["field_value", "choice", "control", "activated", "message", "shown", "url", "presence"]
ClauseMode = Literal["state", "event"]
ClauseStatus = Literal["pending", "holds", "failed"]
ControlState = Literal["checked", "unchecked", "expanded", "collapsed", "scrolled-top", "scrolled-bottom"]
SCROLL_STATES: Final[frozenset[str]] = frozenset({"scrolled-top", "scrolled-bottom"})
ActivationKind = Literal["click", "type", "select", "press", "hover", "navigate", "back", "scroll"]
ValueMatch = Literal["verbatim", "exact", "casefold", "number", "date", "time", "contains", "starts", "ends"]
ContractSource = Literal["policy", "model", "merged"]

EVENT_KINDS: Final[frozenset[str]] = frozenset({"activated", "message"})
# What each kind needs to be checkable at all.
_NEEDS_TARGET: Final[frozenset[str]] = frozenset({"field_value", "control", "presence"})
_NEEDS_VALUE: Final[frozenset[str]] = frozenset({"field_value", "choice", "shown", "url"})


class ElementRef(BaseModel):
    """An element described as a person would: "the Edit button in the row for Bob Stone"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(
        default="",
        max_length=200,
        description="The words of the element's visible label, e.g. 'Save' or 'Email notifications'. Empty for "
        "'the button' (any element of the role).",
    )
    role: RefRole | None = Field(default=None, description="The kind of element, when the goal says it; null otherwise.")
    container: str | None = Field(
        default=None,
        max_length=200,
        description="Text that identifies the row, card, list item, dialog or section the element is in, e.g. "
        "'Bob Stone' for 'the Edit button in the row for Bob Stone'. Null when the goal does not say.",
    )
    container_kind: ContainerKind | None = Field(
        default=None, description="What the container is (row, item, card, dialog, section, form), when the goal says it."
    )
    ordinal: int | None = Field(
        default=None, ge=-1, le=50, description="1 for the first matching element, 2 for the second…, -1 for the last."
    )
    every: bool = Field(default=False, description="True for every matching element ('both text fields').")
    any: bool = Field(
        default=False,
        description="True when any element of the kind will do ('click a checkbox'): the first visible one is used.",
    )
    exact: bool = Field(
        default=False,
        description="True when the goal quotes the label: where elements differ only in case, the spelling counts.",
    )
    commit: bool = Field(
        default=False,
        description="True for the control that commits the form (Save, Submit, Create, Send, OK…), whatever its "
        "exact label, when the goal does not name it exactly.",
    )
    named: bool = Field(
        default=False,
        description="With commit: the goal names the control's label ('Click Submit', 'press the Save button'), "
        "so only a control that carries that label will do — never the form's other commit control.",
    )
    record: bool = Field(
        default=False,
        description="True when the container is a record of a list (an email, message, ticket, order) that opens: "
        "the control is in that record's row/card/item, or in the one open view of that record.",
    )
    field_kind: Literal["textarea", "line"] | None = Field(
        default=None,
        description="The kind of text field the goal names: 'textarea' for a multi-line text area, 'line' for a "
        "one-line text box. Preferred where the page has both; null when the goal does not say.",
    )
    label_or_container: bool = Field(
        default=False,
        description="True when the label after a container phrase may name either the element or its container "
        "('the button in the dialog labeled \"Cancel\"': name 'Cancel', container_kind 'dialog'): the page decides; "
        "a page where both readings find an element is ambiguous.",
    )

    @model_validator(mode="after")
    def _meaningful(self) -> ElementRef:
        if self.ordinal == 0:
            raise ValueError("ordinal counts from 1 (-1 for the last)")
        if not self.name.strip() and self.role is None and not self.container and not self.commit:
            raise ValueError("an element reference needs a name, a role, a container or commit")
        return self

    def describe(self) -> str:
        ordinal = {1: "first ", 2: "second ", 3: "third ", -1: "last "}.get(self.ordinal or 0, f"#{self.ordinal} " if self.ordinal else "")
        quantity = "every " if self.every else "any " if self.any else "the "
        role = self.role or ("submit control" if self.commit else "element")
        if self.field_kind is not None:
            role = "text area" if self.field_kind == "textarea" else "one-line text box"
        text = f"{quantity}{ordinal}{role}"
        if self.name.strip():
            text += f" {self.name.strip()!r}"
        if self.container and self.record:
            text += f" of the record for {self.container!r}"
        elif self.container:
            text += f" in the {self.container_kind or 'part'} for {self.container!r}"
        elif self.container_kind:
            text += f" in the {self.container_kind}"
        return text


class ValueSource(BaseModel):
    """Where a clause's value is read on the page, when the goal points at a value instead of
    giving it ("copy the text of the 2nd text area", "type the 5th word of the paragraph")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    element: ElementRef | None = Field(
        default=None, description="The element whose value (a field) or text is read; null: the page's paragraph"
    )
    word: int | None = Field(default=None, ge=-1, le=1000, description="Only its n-th word (1-based, -1 the last)")
    case: Literal["upper", "lower"] | None = Field(default=None, description="The case the goal asks the value in")
    row: str | None = Field(
        default=None, max_length=200, description="A table cell: the words of its row ('Ana Silva'); with column"
    )
    column: str | None = Field(default=None, max_length=100, description="A table cell: its column header ('Phone')")

    def describe(self) -> str:
        if self.row is not None and self.column is not None:
            return f"the {self.column!r} cell of the row for {self.row!r}"
        where = self.element.describe() if self.element is not None else "the paragraph"
        if self.word is not None:
            nth = "last" if self.word == -1 else f"word {self.word}"
            return f"the {nth} of {where}" if self.word == -1 else f"{nth} of {where}"
        return f"the text of {where}"


class Clause(BaseModel):
    """One checkable part of what "done" means for a task."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Stable id within the task's contract, e.g. 'c2'")
    kind: ClauseKind
    description: str = Field(max_length=300, description="The clause for a person")
    target: ElementRef | None = None
    value: str | None = Field(default=None, max_length=2000)
    match: ValueMatch = "casefold"
    state: ControlState | None = None
    action: ActivationKind | None = None
    effect: bool = Field(
        default=False,
        description="activated: the page must show an effect beyond the focus moving (a commit: Save, Submit…)",
    )
    appear: bool = Field(default=True, description="message / presence: appeared (true) or disappeared (false)")
    message_kind: Literal["success", "error", "any"] = "any"
    before: str | None = Field(
        default=None, description="state clauses: the id of the event this must hold at (a precondition)"
    )
    read: ValueSource | None = Field(
        default=None, description="field_value: the value is read on the page (once), not given by the goal"
    )
    covers: tuple[str, ...] = Field(default=(), description="The goal words this clause accounts for")
    source: Literal["policy", "model"] = "policy"

    @property
    def mode(self) -> ClauseMode:
        return "event" if self.kind in EVENT_KINDS else "state"

    def problems(self) -> list[str]:
        """Why this clause cannot be checked (empty when it can)."""
        out: list[str] = []
        if self.kind in _NEEDS_TARGET and self.target is None:
            out.append(f"a {self.kind} clause needs a target element")
        if self.kind in _NEEDS_VALUE and not (self.value or "").strip() and self.read is None:
            out.append(f"a {self.kind} clause needs a value")
        if self.kind == "control" and self.state is None:
            out.append("a control clause needs the state (checked, unchecked, expanded, collapsed, scrolled-top, scrolled-bottom)")
        if self.kind == "activated":
            if self.action is None:
                out.append("an activated clause needs the action (click, type, select, press, hover, …)")
            elif self.action in ("click", "type", "select", "press", "hover") and self.target is None:
                out.append(f"a {self.action} on the page needs a target element")
        if self.kind == "presence" and self.target is not None and self.target.every:
            out.append("a presence clause names one element, not every one")
        if self.before is not None and self.mode != "state":
            out.append("only a state clause can be a precondition of an event")
        return out


class Evidence(BaseModel):
    """What satisfied (or last decided) a clause: where, on which element, with which value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    step: int | None = Field(default=None, description="The step whose action or page showed it")
    observation: str = Field(description="The observation, in words")
    element: str | None = Field(default=None, description="The element, described (role, name, container)")
    value: str | None = None


class ClauseResult(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    status: ClauseStatus = "pending"
    detail: str = ""
    evidence: Evidence | None = None
    unproven: bool = Field(
        default=False,
        description="The work for it was done and verified, but the page shows no result to prove it",
    )
    awaiting: str | None = Field(
        default=None,
        description="The page asks to confirm the clause's action with this control; a verified click on it proves the clause",
    )
    confirmed: str | None = Field(
        default=None, description="The control the clause's action was confirmed with (the press that completed it)"
    )
    pressed_at: int | None = Field(
        default=None,
        description="For a confirmed press: the step of the press the page asked to confirm — the form it "
        "commits held its values then (the confirming click is the evidence's step)",
    )


class Contract(BaseModel):
    """A task's goal contract and where it stands. Stored with the task."""

    model_config = ConfigDict(extra="forbid")

    clauses: tuple[Clause, ...] = ()
    unaccounted: tuple[str, ...] = Field(default=(), description="Goal words no clause accounts for")
    means: tuple[str, ...] = Field(default=(), description="Goal phrases that say how, not what (not checked)")
    unverifiable: tuple[str, ...] = Field(
        default=(),
        description="Parts of the goal Stepwise carries out but cannot prove on the page (how long a wait "
        "between two clicks really was): while any is left, the task ends asking for confirmation, never completed",
    )
    source: ContractSource = "policy"
    goal: str = Field(default="", description="The goal as the user wrote it (a page that shows it is not what it points at)")
    results: dict[str, ClauseResult] = Field(default_factory=dict)
    held_at: dict[str, list[int]] = Field(
        default_factory=dict, description="State clause id → steps whose page showed it holding"
    )
    baseline: dict[str, int] = Field(
        default_factory=dict, description="Clause id → how often its text or element was on the first page"
    )
    reads: dict[str, Evidence] = Field(
        default_factory=dict, description="Clause id → the value read on the page for it, and where"
    )
    proposed: tuple[Clause, ...] = Field(
        default=(),
        description="A model's clauses that name what no page has shown yet (a later page's labels): "
        "merged once a page shows it, never counted before",
    )

    @property
    def complete(self) -> bool:
        """Every part of the goal is bound to a clause Stepwise can check."""
        return bool(self.clauses) and not self.unaccounted

    @property
    def satisfied(self) -> bool:
        return self.complete and not self.unverifiable and all(self.result(c.id).status == "holds" for c in self.clauses)

    def result(self, clause_id: str) -> ClauseResult:
        return self.results.get(clause_id) or ClauseResult(id=clause_id)

    def clause(self, clause_id: str) -> Clause | None:
        return next((c for c in self.clauses if c.id == clause_id), None)

    def preconditions(self, event_id: str) -> list[Clause]:
        return [c for c in self.clauses if c.before == event_id]

    def pending(self) -> list[Clause]:
        return [c for c in self.clauses if self.result(c.id).status != "holds"]
