"""Plan step + current page → the concrete action, without a model.

Each step kind knows when the page already satisfies it (a field that holds its value, a
box already ticked) so the policy skips ahead instead of repeating work, and how to reveal
a target that is not visible yet (expand a collapsed section, open a menu, scroll).
"""

from __future__ import annotations


from dataclasses import dataclass

from agent.policy.decompose import ALL_FIELDS
from agent.policy.explore import MAX_OPENS, dismiss_control, open_submenu, record_entry, reveal, wait_until_enabled
from agent.policy.goal import TargetRef, parse_target
from agent.policy.matching import MatchResult, match_elements
from agent.policy.overflow import record_overflow
from agent.policy.steppers import is_stepper, stepper_move
from agent.policy.text import fold, similarity, words
from agent.policy.suggestions import suggest_move
from agent.policy.widgets import pick_date, wants_calendar
from planning import Plan, PlanStep
from verification import Action, ElementRef, PageElement, PageState, resolve_ref

MAX_GOAL_WAIT = 10.0  # seconds: the longest wait a goal can ask for in one step
TEXT_ROLES = frozenset({"textbox", "searchbox", "spinbutton", "combobox", "slider"})
_TYPABLE = frozenset({"textbox", "searchbox", "spinbutton"})
_CHOICE_ROLES = frozenset({"checkbox", "radio", "switch", "option", "menuitemcheckbox", "menuitemradio"})
_SUBMIT_NAMES = ("submit", "save", "create", "add", "ok", "done", "confirm", "continue", "send", "log in", "login", "sign in", "next", "apply")
_OPEN_PREFIXES = ("new", "add", "create", "register", "add new")
_SYNONYMS = {"x": ("close", "×", "✕", "dismiss"), "close": ("x", "×", "✕"), "login": ("log in", "sign in"), "log in": ("login", "sign in")}


@dataclass(frozen=True)
class StepDecision:
    action: Action | None
    thought: str
    confidence: float = 0.0
    satisfied: bool = False  # the page already shows this step done: move on
    reason: str = ""
    completes_step: bool = True  # False when the action is one of several the step needs
    probe: bool = False  # an exploring move: that it changes nothing is information, not a failure
    explored: tuple[str, ...] = ()  # the exploring move's keys: the step remembers them, never to repeat it


def _act(name: str, element: PageElement | None = None, value: str | None = None, seconds: float | None = None) -> Action:
    return Action(name=name, target=element.id if element else None, value=value, seconds=seconds)  # type: ignore[arg-type]


def _label(element: PageElement) -> str:
    return element.name or element.placeholder or element.context or f"element {element.id}"


def _find(page: PageState, phrase: str | None, roles: frozenset[str] | None = None) -> MatchResult:
    target = parse_target(phrase or "")
    result = match_elements(page, target, roles=roles)
    if result.best is None and target.text in _SYNONYMS:
        for synonym in _SYNONYMS[target.text]:
            result = match_elements(page, TargetRef(synonym, target.role, target.ordinal), roles=roles)
            if result.best is not None:
                break
    return result


def _unique(result: MatchResult) -> PageElement | None:
    return result.best.element if result.best is not None and result.unique else None


class _Ambiguous(Exception):
    """The step's contract reference matches several different elements: acting on one of
    them would be a guess (the Edit button of which row?)."""


def _locate(step: PlanStep, page: PageState, ref: ElementRef | None, roles: frozenset[str] | None = None) -> PageElement | None:
    """The element a step acts on: the one its contract clause's reference resolves to
    (strict, never a look-alike), else — for steps that only lead the way — the best match."""
    if ref is None:
        return _unique(_find(page, step.target, roles))
    found = resolve_ref(ref, page, roles=roles)
    if found.ambiguous:
        raise _Ambiguous(found.reason)
    return found.element


def refine_step(step: PlanStep, page: PageState, plan: Plan, ref: ElementRef | None = None) -> StepDecision:
    """The action for ``step`` on ``page``. ``ref``: the reference of the contract clause
    the step makes true — then only the element it resolves to is ever acted on."""
    try:
        return _refine(step, page, plan, ref)
    except _Ambiguous as exc:
        return StepDecision(None, "", reason=str(exc))


def _refine(step: PlanStep, page: PageState, plan: Plan, ref: ElementRef | None) -> StepDecision:
    match step.kind:
        case "fill":
            return _fill(step, page, ref)
        case "select":
            return _select(step, page, ref)
        case "suggest":
            return _suggest(step, page, ref)
        case "check" | "uncheck":
            return _check(step, page, want=step.kind == "check", ref=ref)
        case "click" | "submit":
            return _click(step, page, ref)
        case "focus":
            return _focus(step, page, ref)
        case "hover":
            element = _locate(step, page, ref)
            return StepDecision(_act("hover", element), f"Hover over {_label(element)!r}.", 0.8) if element else _reveal(page, step)
        case "press":
            element = _locate(step, page, ref, TEXT_ROLES)
            return StepDecision(_act("press", element, step.value or "Enter"), f"Press {step.value} in {_label(element)!r}.", 0.8) if element else _reveal(page, step)
        case "open":
            return _open(step, page, plan)
        case "find":
            return _expand(step, page, ref, plan)
        case "wait":
            seconds = min(float(step.value or 1), MAX_GOAL_WAIT)
            if step.attempts:
                return StepDecision(None, "Waited.", satisfied=True)
            return StepDecision(Action(name="wait", seconds=seconds), f"Wait {seconds:g} s, as the goal says.", 0.9, probe=True)
        case "navigate":
            if step.value == "back":
                return StepDecision(_act("goBack"), "Go back.", 0.9)
            if step.value and fold(page.url).rstrip("/") == fold(step.value).rstrip("/"):
                return StepDecision(None, "Already on that page.", satisfied=True)
            return StepDecision(_act("navigate", value=step.value), f"Open {step.value}.", 0.9)
    return StepDecision(None, "", reason=f"no deterministic way to do a {step.kind!r} step")


def _fill(step: PlanStep, page: PageState, ref: ElementRef | None) -> StepDecision:
    if step.value is None:
        return StepDecision(None, "", reason="the value to type has not been read on the page")
    value = step.value
    if step.target == ALL_FIELDS or (ref is not None and ref.every):
        if ref is not None:
            fields = list(resolve_ref(ref, page, roles=_TYPABLE).elements)
        else:
            fields = [e for e in page.elements if e.actionable and e.role in _TYPABLE]
        pending = [e for e in fields if (e.value or "") != value]
        if pending:
            element = pending[0]
            return StepDecision(_act("setValue", element, value), f"Type {value!r} into {_label(element)!r}.", 0.85, completes_step=len(pending) == 1)
        return StepDecision(None, "Every field holds the value.", satisfied=bool(fields), reason="no text field on the page")
    element = _locate(step, page, ref, TEXT_ROLES)
    if element is None and ref is None and not parse_target(step.target or "").text:
        empty = [e for e in page.elements if e.actionable and e.role in _TYPABLE and not e.value]
        element = empty[0] if empty else None
    if element is None:
        if dismiss_control(page) is not None:  # a popup came over the form: close it, then type
            return _reveal(page, step)
        return StepDecision(None, "", reason=f"no field matches {step.target!r}")
    if is_stepper(element):  # a shop's "−  2  +": clicked toward the number, re-read each time
        move = stepper_move(element, value, page, step.attempts)
        if move.done:
            return StepDecision(None, move.thought, satisfied=True)
        return StepDecision(_act("click", move.element) if move.element else None, move.thought, 0.8, reason=move.reason, completes_step=False)
    if (element.value or "") == value:
        return StepDecision(None, f"{_label(element)!r} already holds {value!r}.", satisfied=True)
    if "readonly" in element.states:
        wanted = wants_calendar(element, value)
        if wanted is None:
            return StepDecision(None, "", reason=f"{_label(element)!r} is read-only and {value!r} is not a date to pick")
        move = pick_date(element, wanted, page, step.attempts)
        return StepDecision(move.action, move.thought, 0.8, reason=move.reason, completes_step=move.done_after, probe=not move.done_after)
    return StepDecision(_act("setValue", element, value), f"Type {value!r} into {_label(element)!r}.", 0.85)


def _suggest(step: PlanStep, page: PageState, ref: ElementRef | None) -> StepDecision:
    """An autocomplete: type, wait for the suggestions, choose the one that fits; the step
    is done when the field holds it (:mod:`agent.policy.suggestions`)."""
    element = _locate(step, page, ref or ElementRef(role="textbox"), TEXT_ROLES)
    if element is None:
        return _reveal(page, step)
    move = suggest_move(step, element, page)
    waiting = move.action is not None and move.action.name == "wait"
    return StepDecision(move.action, move.thought, 0.8, satisfied=move.satisfied, reason=move.reason, completes_step=False, probe=waiting)


def _select(step: PlanStep, page: PageState, ref: ElementRef | None) -> StepDecision:
    value = step.value or ""
    lists = frozenset({"combobox", "listbox"})
    element = _locate(step, page, ref, lists) if ref is not None or step.target else None
    if element is None:
        shown = [e for e in page.elements if e.actionable and e.role in lists]
        element = shown[0] if len(shown) == 1 else None
    if element is not None:
        if element.value is not None and fold(element.value) == fold(value):
            return StepDecision(None, f"{value!r} is already chosen.", satisfied=True)
        option = next((o for o in element.options if fold(o) == fold(value)), value)
        return StepDecision(_act("select", element, option), f"Choose {option!r} in {_label(element)!r}.", 0.85)
    # A radio group or option list instead of a dropdown.
    option_ref = ElementRef(name=value, container=ref.container, container_kind=ref.container_kind) if ref is not None and value.strip() else None
    as_check = PlanStep(index=step.index, kind="check", description=step.description, target=value, success_criterion=step.success_criterion)
    return _check(as_check, page, want=True, ref=option_ref)


def _check(step: PlanStep, page: PageState, *, want: bool, ref: ElementRef | None = None) -> StepDecision:
    element = _locate(step, page, ref, _CHOICE_ROLES)
    if element is None:
        return _reveal(page, step)
    checked = "checked" in element.states or "selected" in element.states
    if checked == want:
        return StepDecision(None, f"{_label(element)!r} is already {'selected' if want else 'clear'}.", satisfied=True)
    return StepDecision(_act("click", element), f"{'Select' if want else 'Clear'} {_label(element)!r}.", 0.85)


def _click(step: PlanStep, page: PageState, ref: ElementRef | None) -> StepDecision:
    element = _locate(step, page, ref)
    if element is None and step.kind == "submit" and ref is None:
        element = _submit_control(page)
    if element is None and ref is not None and ref.record:
        # A record's control behind the record's own overflow menu ("⋯", "more"): open it once.
        overflow = record_overflow(page, ref, step.explored)
        if overflow.element is not None:
            thought = f"Open the menu of the record for {ref.container!r} to find {ref.name!r}."
            return StepDecision(_act("click", overflow.element), thought, 0.7, completes_step=False, probe=True, explored=(overflow.key,))
        if overflow.reason:
            return StepDecision(None, "", reason=overflow.reason)
    if element is None and ref is not None and ref.record and step.attempts < MAX_OPENS:
        # A record's control that only shows once the record is open: open it from the list.
        entry, why = record_entry(page, ref)
        if entry is not None:
            return StepDecision(_act("click", entry), f"Open {_label(entry)!r} to find its {ref.name or 'control'}.", 0.7, completes_step=False, probe=True)
        if "match" in why:
            return StepDecision(None, "", reason=why)
    if element is None:
        return _reveal(page, step)
    if step.value == "on" and "checked" in element.states:
        return StepDecision(None, f"{_label(element)!r} is already on.", satisfied=True)
    if element.disabled:
        move = wait_until_enabled(element, step.attempts)
        return StepDecision(move.action, move.thought, move.confidence, reason=move.reason, completes_step=False, probe=True)
    return StepDecision(_act("click", element), f"Click {_label(element)!r}.", 0.85)


def _submit_control(page: PageState) -> PageElement | None:
    buttons = [e for e in page.elements if e.actionable and e.role == "button"]
    typed = [e for e in buttons if e.input_type == "submit"]
    if len(typed) == 1:
        return typed[0]
    for name in _SUBMIT_NAMES:
        named = [e for e in buttons if fold(e.name) == name]
        if len(named) == 1:
            return named[0]
    return None


def _focus(step: PlanStep, page: PageState, ref: ElementRef | None) -> StepDecision:
    if ref is not None:
        element = _locate(step, page, ref, _TYPABLE)
    else:
        target = parse_target(step.target or "")
        fields = [e for e in page.elements if e.actionable and e.role in _TYPABLE]
        element = _unique(match_elements(page, target, roles=_TYPABLE)) if target.text else None
        if element is None and fields:
            index = (target.ordinal or 1) - 1 if (target.ordinal or 1) > 0 else len(fields) + (target.ordinal or 0)
            element = fields[index] if 0 <= index < len(fields) else None
    if element is None:
        return StepDecision(None, "", reason="no field to focus")
    return StepDecision(_act("click", element), f"Focus {_label(element)!r}.", 0.8)


def form_opened(step: PlanStep, page: PageState, plan: Plan) -> bool | None:
    """After a click that should lead to a form (an ``open`` step, or a ``click`` step the
    plan follows with typing): is any field the next step fills on ``page``? ``None`` when
    the plan does not say what comes next."""
    following = plan.steps[step.index + 1] if step.index + 1 < len(plan.steps) else None
    if step.kind not in ("open", "click") or following is None or following.kind != "fill" or not following.target:
        return None
    if following.target == ALL_FIELDS:
        return any(e.actionable and e.role in _TYPABLE for e in page.elements)
    return _find(page, following.target, TEXT_ROLES).best is not None


def _open(step: PlanStep, page: PageState, plan: Plan) -> StepDecision:
    following = plan.steps[step.index + 1] if step.index + 1 < len(plan.steps) else None
    if following is not None and following.kind == "fill" and _unique(_find(page, following.target, TEXT_ROLES)) is not None:
        return StepDecision(None, "The form is open.", satisfied=True)
    entity = fold(step.target or "")
    openers = [f"{p} {entity}" for p in _OPEN_PREFIXES]
    entity_words = set(words(entity))
    candidates: list[tuple[float, PageElement]] = []
    for element in page.elements:
        if not element.actionable or element.role in _TYPABLE or not element.name:
            continue
        name = fold(element.name)
        # Only a label sharing a word with the entity (or its plural) can open it.
        name_words = set(words(name))
        if entity_words and not (entity_words & name_words) and not any(w.rstrip("s") in entity_words for w in name_words):
            continue
        opener = max(similarity(o, name) for o in openers)
        section = similarity(entity + "s", name) * 0.8 if entity else 0.0
        score = max(opener, section, similarity(entity, name) * 0.75)
        if score >= 0.6:
            candidates.append((score, element))
    if not candidates:
        return _reveal(page, step)
    candidates.sort(key=lambda c: c[0], reverse=True)
    score, element = candidates[0]
    return StepDecision(_act("click", element), f"Open {_label(element)!r} to add a new {entity}.", score)


def _expand(step: PlanStep, page: PageState, ref: ElementRef | None, plan: Plan) -> StepDecision:
    if step.value in ("up", "down", "top", "bottom") and not step.target:
        return StepDecision(_act("scroll", value=step.value), f"Scroll {step.value}.", 0.8)
    if ref is not None and step.value in ("top", "bottom"):
        element = _locate(step, page, ref)
        if element is None:
            return _reveal(page, step)
        if f"scrolled-{step.value}" in element.states:
            return StepDecision(None, f"{_label(element)!r} is scrolled to the {step.value}.", satisfied=True)
        return StepDecision(_act("scroll", element, value=step.value), f"Scroll {_label(element)!r} to the {step.value}.", 0.8)
    if ref is not None:
        element = _locate(step, page, ref)
        if element is None:
            return _reveal(page, step)
        if "expanded" in element.states:
            return StepDecision(None, f"{_label(element)!r} is expanded.", satisfied=True)
        return StepDecision(_act("click", element), f"Expand {_label(element)!r}.", 0.8)
    target = parse_target(step.target or "")
    if target.text:
        named = _unique(match_elements(page, target))
        if named is not None and named.role == "menuitem":
            following = plan.steps[step.index + 1] if step.index + 1 < len(plan.steps) else None
            if following is not None and following.target and _unique(_find(page, following.target)) is not None:
                return StepDecision(None, f"The {_label(named)!r} menu is open.", satisfied=True)
            move = open_submenu(named, step.attempts)
            return StepDecision(move.action, move.thought, move.confidence, reason=move.reason, completes_step=False, probe=True)
        if named is not None:
            if "expanded" in named.states:
                return StepDecision(None, f"{_label(named)!r} is expanded.", satisfied=True)
            return StepDecision(_act("click", named), f"Expand {_label(named)!r}.", 0.8)
    # "the section below": any section counts — once one is open, the step is done.
    if any("expanded" in e.states for e in page.elements if not e.hidden):
        return StepDecision(None, "The section is expanded.", satisfied=True)
    collapsed = [e for e in page.elements if e.actionable and "collapsed" in e.states]
    if collapsed:
        return StepDecision(_act("click", collapsed[0]), f"Expand {_label(collapsed[0])!r}.", 0.7)
    return StepDecision(None, "", reason="nothing to expand")


def _reveal(page: PageState, step: PlanStep) -> StepDecision:
    move = reveal(page, step.target, step.explored)
    return StepDecision(move.action, move.thought, move.confidence, reason=move.reason, completes_step=False, probe=True, explored=move.keys)
