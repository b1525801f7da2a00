"""A goal, read without a model: the plan to do it and the contract that proves it done.

Both come from one reading of the goal, so every plan step that produces something the
user asked for is linked to the clause that checks it (``PlanStep.clause``), and the
policy acts only on the element that clause's reference resolves to.

Step kinds become clauses like this (a step that only reveals or opens something on the
way — expand a section, open the "New patient" form, scroll — is *how*, not *what*, unless
it is the whole goal):

====================  =============================================================
fill                  ``field_value`` (a precondition of the next click, if any)
select                ``choice``
check / uncheck       ``control`` checked / unchecked (a precondition likewise)
click                 ``activated`` click
submit                ``activated`` click on the commit control, with a visible effect
press                 ``activated`` press (Enter needs a visible effect)
hover, focus          ``activated`` hover / click
navigate              ``url``; "go back" is ``activated`` back
find (last step)      ``control`` expanded; a bare scroll is ``activated`` scroll
new record            its fields, its commit, and the record's name ``shown`` after it
====================  =============================================================

What the goal says that no clause accounts for is ``unaccounted`` (see
:mod:`agent.policy.coverage`); the task then cannot be proven and, without a model, is not
attempted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from agent.policy.coverage import context_spans, unaccounted
from agent.policy.lexicon import CONTROL_NOUNS
from agent.policy.decompose import ALL_FIELDS, merge_find, name_opened, normalise_clause, read_clause, split_clauses
from agent.policy.feed_frames import merge_record_scope
from agent.policy.field_lists import swallowed
from agent.policy.goal_values import placeholder, quoted_values, table_cell
from agent.policy.record_frames import merge_record_find
from agent.policy.references import names_a_label, read_ref
from agent.policy.suggest import merge_suggest
from planning import Plan, PlanStep
from verification.contract import COMMIT_WORDS, Clause, Contract, ElementRef, ValueSource, fold, match_for, words

# Controls whose click must show a result to count (a commit, or a change of a record).
_EFFECT_WORDS: Final[frozenset[str]] = COMMIT_WORDS | frozenset(
    "delete remove archive deactivate activate enable disable upload export import reply share invite subscribe "
    "unsubscribe approve reject transfer checkout star flag pin".split()
)
_CASE: Final = re.compile(r"\s+(?:in|using|with)\s+(?:all\s+)?(?P<case>upper|lower)[\s-]?case(?:\s+letters)?\b", re.IGNORECASE)
_NOTHING: Final = re.compile(r"^(?:select|choose|pick|check|tick)\s+(?:nothing|none)$")


@dataclass(frozen=True)
class Understanding:
    plan: Plan
    contract: Contract  # not started: no baseline yet


@dataclass
class _Reading:
    goal: str
    steps: list[PlanStep]
    clauses: list[Clause]
    means: list[str]
    unread: list[str]
    results: list[Clause]  # what shows once the work is committed, added after the steps'
    reads: dict[int, ValueSource] = field(default_factory=dict)  # fill step (id) → where its value is read
    unverifiable: list[str] = field(default_factory=list)  # done, but the page cannot show it
    cased: set[int] = field(default_factory=set)  # fill steps (id) whose value the goal put in a case

    def add(self, clause: Clause | None, step: PlanStep | None) -> None:
        if clause is not None:
            clause = clause.model_copy(update={"id": f"c{len(self.clauses) + 1}"})
            self.clauses.append(clause)
        if step is not None:
            if clause is not None:
                step.clause = clause.id
            self.steps.append(step)


def _without_why(goal: str) -> str:
    """The goal without the parts that only say why (``coverage.context_spans``): "Remove the
    Winter menu, we no longer serve it" is read as "Remove the Winter menu"."""
    spans = context_spans(goal)
    if not spans:
        return goal
    kept, start = [], 0
    for a, b in spans:
        kept.append(goal[start:a])
        start = b
    kept.append(goal[start:])
    said = " ".join(part.strip(" ,;–—-") for part in kept if part.strip(" ,;.!?–—-"))
    return said.lstrip(" .!?") or goal


def understand(goal: str) -> Understanding:
    """The policy's plan and contract for ``goal`` (see the module doc)."""
    reading = _Reading(goal, [], [], [], [], [])
    named, opened = name_opened(split_clauses(_without_why(goal)))
    records, record_found = merge_record_find(merge_record_scope(named))
    segments, found = merge_find(merge_suggest(records))
    reading.means.extend([*record_found, *found, *opened])
    flat: list[PlanStep] = []
    editing = False
    carried: ValueSource | None = None  # "find the 5th word …", for the next "type it …"
    for segment in segments:
        case = _CASE.search(segment)
        if case is not None:  # "type it in upper case into the box": the value's shape, not a name
            segment = segment[: case.start()] + segment[case.end() :]
        read = read_clause(segment)
        reading.means.extend(read.means)
        reading.results.extend(read.results)
        normalised, _ = normalise_clause(segment)
        if normalised is not None and _NOTHING.match(fold(normalised)):
            reading.means.append(normalised)  # "select nothing": no box to tick
        if read.read is not None and not read.steps:
            carried = read.read
        for step in read.steps:
            if step.kind == "fill" and read.read is not None and step.value is None:
                reading.reads[id(step)] = read.read
            elif step.kind == "fill" and carried is not None and placeholder(step.value):
                reading.reads[id(step)], step.value, carried = carried, None, None
            if case is not None and step.kind == "fill" and _apply_case(reading, step, case.group("case").lower()):
                reading.means.extend(case.group(0).split())
                case = None
        if case is not None:  # a case the goal asks for that no value here takes: not done, so not read
            reading.unread.append(case.group(0).strip())
        flat.extend(read.steps)
        editing = editing or read.edits
    if editing:
        flat = _with_implied_save(flat)
    for position, step in enumerate(flat):
        later = flat[position + 1 :]
        _read_step(reading, step, last=not later, later=later)
    for result in reading.results:
        reading.add(result, None)
    clauses = with_preconditions(reading.clauses)
    for index, step in enumerate(reading.steps):
        step.index = index
    missing = list(unaccounted(goal, clauses, reading.means))
    missing += [w for w in reading.unread if w not in missing]
    plan = Plan(goal=goal, steps=reading.steps, source="policy")
    contract = Contract(
        clauses=tuple(clauses),
        unaccounted=tuple(missing),
        means=tuple(reading.means),
        unverifiable=tuple(reading.unverifiable),
        source="policy",
        goal=goal,
    )
    return Understanding(plan=plan, contract=contract)


def _with_implied_save(steps: list[PlanStep]) -> list[PlanStep]:
    """"Edit Dana Kim and set her role to Admin": the record's form is saved once its
    values are set — a change left unsaved is not done. Nothing is added when the goal
    already says how the form is committed."""
    opened = next((i for i, s in enumerate(steps) if s.kind == "click"), None)
    if opened is None:
        return steps
    after = steps[opened + 1 :]
    if not any(s.kind in ("fill", "select", "check", "uncheck") for s in after) or any(s.kind in ("click", "submit", "press") for s in after):
        return steps
    save = PlanStep(index=0, kind="submit", description="Save the changes", target="save", success_criterion="the changes are saved")
    return [*steps, save]


def _apply_case(reading: _Reading, step: PlanStep, case: str) -> bool:
    """Give a fill step's value the case the goal asks for ("type "ann" in all upper case"):
    a value read on the page is cased when read; a value the goal gives is cased now and must
    then be found in exactly that case."""
    if id(step) in reading.reads:
        reading.reads[id(step)] = reading.reads[id(step)].model_copy(update={"case": case})
        return True
    if step.value is None or placeholder(step.value, reading.goal):
        return False
    step.value = step.value.upper() if case == "upper" else step.value.lower()
    reading.cased.add(id(step))
    return True



def _swallowed(reading: _Reading, step: PlanStep) -> bool:
    """A value or field that reads as more pairs of a list ("Ada into First name, …,
    London" into City) is never typed: its words stay unread and the goal is declined."""
    quoted = quoted_values(reading.goal)
    bad = [text for text in (step.value, step.target) if swallowed(text, quoted)]
    reading.unread.extend(t for t in bad if t is not None)
    return bool(bad)


def _ref(reading: _Reading, phrase: str | None, *, commit: bool = False) -> ElementRef | None:
    read = read_ref(phrase or "", commit=commit)
    reading.unread.extend(read.unread)
    return read.ref


def _read_step(reading: _Reading, step: PlanStep, *, last: bool, later: list[PlanStep]) -> None:
    description = step.description
    match step.kind:
        case "fill" if id(step) in reading.reads:
            ref = _ref(reading, step.target) or ElementRef(role="textbox")
            source = reading.reads[id(step)]
            description = f"{description.split(' into ')[0] if ' into ' in description else 'Enter'} — the value read from {source.describe()}"
            # What is read is typed exactly, and proven exactly: spacing and case are the text's own.
            clause = Clause(id="", kind="field_value", description=description[:300], target=ref, read=source, match="verbatim")
            reading.add(clause, step)
        case "fill" if (cell := table_cell(step.value, reading.goal)) is not None:
            ref = _ref(reading, step.target) or ElementRef(role="textbox")
            step.value = None  # known once the cell is read on the page
            description = f"Enter {cell.describe()}"
            reading.add(Clause(id="", kind="field_value", description=description[:300], target=ref, read=cell, match="verbatim"), step)
        case "fill" | "select" if _swallowed(reading, step):
            return
        case "fill":
            if placeholder(step.value, reading.goal):
                reading.unread.append(step.value or "the value")
                return
            assert step.value is not None
            ref = ElementRef(role="textbox", every=True) if step.target == ALL_FIELDS else _ref(reading, step.target)
            if ref is None:
                ref = ElementRef(role="textbox")
            match = "exact" if id(step) in reading.cased else match_for(step.value)
            reading.add(Clause(id="", kind="field_value", description=description, target=ref, value=step.value, match=match), step)
        case "select":
            if placeholder(step.value, reading.goal):
                reading.unread.append(step.value or "the option")
                return
            ref = _ref(reading, step.target) if step.target and fold(step.target) not in ("the list", "list") else None
            if ref is not None and not ref.name and ref.role is None and not ref.container:
                ref = None
            reading.add(Clause(id="", kind="choice", description=description, target=ref, value=step.value, match=match_for(step.value or "")), step)
        case "check" | "uncheck":
            ref = _ref(reading, step.target)
            if ref is None:
                reading.unread.append(step.target or step.kind)
                return
            state = "checked" if step.kind == "check" else "unchecked"
            reading.add(Clause(id="", kind="control", description=description, target=ref, state=state), step)
        case "click" | "submit":
            ref = _ref(reading, step.target)
            if ref is None:
                reading.unread.append(step.target or "the control")
                return
            label = [w for w in words(ref.name) if w not in CONTROL_NOUNS]
            generic = len(label) == 1 and label[0] in COMMIT_WORDS  # "press submit", "click save"
            effect = step.kind == "submit" or bool(label and label[0] in _EFFECT_WORDS)
            if generic:
                # "submit the form", "… and submit", "press login": the form's commit control,
                # whatever its label. "Click Save", "press the Submit button" name a label: only a
                # commit control that carries it will do (never a "Save" for "Submit", nor a button
                # whose visible text says something else).
                ref = ref.model_copy(update={"commit": True, "named": names_a_label(step)})
            reading.add(Clause(id="", kind="activated", description=description, target=ref, action="click", effect=effect), step)
        case "press":
            ref = _ref(reading, step.target)
            key = step.value or "Enter"
            reading.add(
                Clause(id="", kind="activated", description=description, target=ref, action="press", value=key, effect=fold(key) == "enter"),
                step,
            )
        case "hover":
            reading.add(Clause(id="", kind="activated", description=description, target=_ref(reading, step.target), action="hover"), step)
        case "focus":
            ref = _ref(reading, step.target) or ElementRef(role="textbox")
            reading.add(Clause(id="", kind="activated", description=description, target=ref, action="click"), step)
        case "navigate":
            if step.value == "back":
                reading.add(Clause(id="", kind="activated", description=description, action="back"), step)
            elif step.value:
                reading.add(Clause(id="", kind="url", description=description, value=step.value, match="exact"), step)
        case "find":
            _read_reveal(reading, step, last=last)
        case "suggest":
            _read_suggest(reading, step)
        case "open":
            reading.means.append(step.description)
            reading.add(None, step)
            _read_record(reading, step, later)
        case "wait":  # how the work is paced: done, but how long it really lasted the page cannot show
            reading.means.append(step.description)
            reading.unverifiable.append(f"that the wait between the steps was {step.value} s")
            reading.add(None, step)
        case _:
            reading.unread.append(step.description)


def _read_suggest(reading: _Reading, step: PlanStep) -> None:
    """An autocomplete: the field's value — not the click on a suggestion — proves it. One
    clause per condition (starts / ends with, contains), or the item the goal names."""
    pick = step.pick
    assert pick is not None
    ref = _ref(reading, step.target) or ElementRef(role="textbox")
    field_ = f"the {step.target}" if step.target else "the field"
    wanted: list[tuple[str, str, str]] = []
    if pick.equals is not None:
        wanted.append((pick.equals, "casefold", f"{field_} holds {pick.equals!r}"))
    for value, match, words_ in ((pick.starts, "starts", "starts with"), (pick.ends, "ends", "ends with"), (pick.contains, "contains", "contains")):
        if value is not None:
            wanted.append((value, match, f"{field_}'s value {words_} {value!r}"))
    first: Clause | None = None
    for value, match, description in wanted:
        clause = Clause(id="", kind="field_value", description=description[:300], target=ref, value=value, match=match)  # type: ignore[arg-type]
        reading.add(clause, step if first is None else None)
        first = first or clause
    reading.means.append(step.value or "")


def _read_reveal(reading: _Reading, step: PlanStep, *, last: bool) -> None:
    """Expand / scroll: a goal of its own only when nothing follows it — except scrolling a
    box to its top or bottom, which is what the goal asks for wherever it stands."""
    if step.value in ("top", "bottom") and step.target:
        ref = _ref(reading, step.target)
        if ref is None:
            reading.unread.append(step.target)
            return
        state = "scrolled-top" if step.value == "top" else "scrolled-bottom"
        reading.add(Clause(id="", kind="control", description=step.description, target=ref, state=state), step)
        return
    if not last:
        reading.means.append(step.description)
        reading.add(None, step)
        return
    if step.value in ("up", "down", "top", "bottom") and not step.target:
        reading.add(Clause(id="", kind="activated", description=step.description, action="scroll"), step)
        return
    ref = _ref(reading, step.target)
    if ref is None:
        reading.unread.append(step.target or step.description)
        return
    reading.add(Clause(id="", kind="control", description=step.description, target=ref, state="expanded"), step)


def _read_record(reading: _Reading, opener: PlanStep, later: list[PlanStep]) -> None:
    """A new record: once its form is committed, its name (first value) is shown."""
    values = [s.value for s in later if s.kind == "fill" and s.value]
    if values and any(s.kind == "submit" for s in later):
        name = values[0]
        reading.results.append(
            Clause(
                id="",
                kind="shown",
                description=f"{name!r} is shown once the new {opener.target or 'record'} is saved",
                value=name,
            )
        )


def with_preconditions(clauses: list[Clause]) -> list[Clause]:
    """A field value or control state followed by a click is a precondition of that click:
    it must have held when the click was made (the form it was in may be gone after).
    Clauses that already name their event keep it."""
    out: list[Clause] = []
    for position, clause in enumerate(clauses):
        if clause.before is None and clause.kind in ("field_value", "choice", "control") and clause.state not in ("expanded", "collapsed"):
            following = next(
                (c for c in clauses[position + 1 :] if c.kind == "activated" and c.action in ("click", "press")), None
            )
            if following is not None:
                clause = clause.model_copy(update={"before": following.id})
        out.append(clause)
    return out
