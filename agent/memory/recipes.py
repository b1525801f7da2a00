"""Recipes: a flow whose goal the page proved, replayed on a page that matches it.

A task that completed with its contract proven is recorded as a recipe (the steps the page
proved: decided by the rules, or by a model where the rules alone agree): the goal as a
template (its values as variables, bound again from the next goal and never stored), and
for each verified action the fingerprint of the page it was decided on
(:mod:`agent.memory.fingerprint`: the interactive skeleton, no text) and its target's
semantics (role, accessible name, label, container; never ids or positions). Waits,
scrolls, exploring moves (a tab or section opened, the next page, to find a target), failed
actions and the dead ends a correction left behind are not part of it.

Two verified runs of the same flow promote it (:data:`PROMOTE_AFTER`): one recipe per page
skeleton the flow was verified on, the runs counted over the flow (:func:`same_flow`), so a
flow verified once on a page with three distractor buttons and once on one with none is
served on those two skeletons, and on no other. A replayed step is
served only when the live page has the recorded fingerprint and the target is
re-identified on it uniquely (two candidates are a miss, never a guess); it is then sent
and verified like any other step. A replayed step that fails demotes the recipe.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import structlog

from agent.memory.fingerprint import page_fingerprint
from agent.memory.scrub import leaks, looks_secret
from agent.memory.targets import SemanticTarget, reidentify, templated
from agent.memory.templates import GoalTemplate, make_template
from storage import Recipe, TaskAction
from verification import Action, ActionSyntaxError, PageState, parse_action

log = structlog.get_logger(__name__)

PROMOTE_AFTER: Final = 2  # verified runs in distinct tasks before a recipe is replayed
RECIPE_CAP: Final = 10_000  # per tenant, like skills
REPLAYABLE: Final = frozenset({"click", "setValue", "select", "press", "hover"})
_VALUED: Final = frozenset({"setValue", "select", "press"})
_OTHER_PAGE: Final = "the page differs from the recorded one (fingerprint)"


@dataclass(frozen=True)
class Recorded:
    """One verified action of a finished task, as finalize noted it."""

    action: Action
    fingerprint: str
    target: dict[str, Any] | None
    changed: bool = False  # its verdict saw the page change (URL, content), not only the focus


def recorded(steps: Sequence[tuple[TaskAction, Mapping[str, Any] | None]]) -> list[Recorded]:
    """The verified actions of a task's steps, in order (each step with its verdict)."""
    out: list[Recorded] = []
    for step, verdict in steps:
        info = step.metrics.get("recall") or {}
        fingerprint, targets = info.get("fingerprint"), info.get("targets") or []
        if not verdict or not isinstance(fingerprint, str) or not _page_proved(verdict):
            continue  # only what the page proved (a model's verdict is a claim)
        if step.metrics.get("probe"):
            # An exploring move (a tab opened, a section expanded, a scroll, the next page) to
            # find a target: where the target is belongs to this page's data, not to the flow —
            # the link "{v1}" was behind Tab #3 once, it is in the open tab the next time. Never
            # replayed: at that step the policy looks again, and the recipe resumes after it.
            continue
        if step.metrics.get("user_confirmed"):
            # Sent because the user said yes to it (a held destructive click, a page's "are
            # you sure?"): a yes is for that task only. Never replayed: the next task asks again.
            continue
        texts = [str(link.get("action")) for link in step.actions] if step.actions else [step.action]
        checks = {int(c.get("index", -1)): c.get("status") for c in verdict.get("chain") or [] if isinstance(c, Mapping)}
        if not checks and not verdict.get("success"):
            continue  # a chain's actions are judged one by one: those the page shows held are kept
        for index, text in enumerate(texts):
            if checks and checks.get(index) != "verified":
                continue
            try:
                action = parse_action(text)
            except ActionSyntaxError:
                continue
            if action.name not in REPLAYABLE or (action.name != "press" and action.target is None):
                continue
            target = targets[index] if index < len(targets) else None
            changed = not checks and any(verdict.get(k) is True for k in ("url_changed", "meaningful_content_change", "client_witness_override"))
            out.append(Recorded(action, fingerprint, target if isinstance(target, dict) else None, changed))
    return out


def _page_proved(verdict: Mapping[str, Any]) -> bool:
    """The rules decided the step — or a model did, and the rules alone, reading the same
    page, say it worked too (``rules_success``): what a replayed step, judged by the rules
    alone, will be held to. A model's word by itself never records a step."""
    if verdict.get("decided_by") == "rules":
        return True
    return verdict.get("rules_success") is True and verdict.get("success") is True


def build_recipe(
    *, tenant_id: str, domain: str, goal: str, actions: Sequence[Recorded], secrets: Iterable[str], at: datetime, values: Iterable[str] = (),
    held: Iterable[str] = (),
) -> Recipe | None:
    """The recipe of a completed task, or None when it cannot be replayed safely: no
    action, an action without a recorded target, or anything that would store a secret."""
    if not actions:
        return _refused("no verified action to replay")
    if any(a.target is None and a.action.target is not None for a in actions):
        return _refused("an action's target was not recorded")
    typed = [a.action.value for a in actions if a.action.value and a.action.name in _VALUED]
    # The goal's values: what the contract names, what was typed, its quoted spans and
    # numbers. Target names are not made variables unless quoted: "Click Save" must not
    # become "Click {v1}", which would bind "Click Delete".
    template, bindings = make_template(goal, [*values, *typed])
    by_value = {v.casefold(): k for k, v in bindings.items()}
    secret_values = [s for s in secrets if s]
    steps: list[dict[str, Any]] = []
    for item in actions:
        value: dict[str, str] | None = None
        if item.action.value is not None and item.action.name in _VALUED:
            variable = by_value.get(item.action.value.casefold())
            if variable is not None:
                value = {"var": variable}
            elif looks_secret(item.action.value) or item.action.value in secret_values:
                return _refused("a secret value the goal does not give")  # never stored, so no recipe
            elif item.action.name != "press":
                # Typed or chosen, yet not in the goal: read off the page (the word to copy, the
                # 3rd word of a text) or made up — another visit needs another value, so the
                # flow cannot be replayed. Only a key (press "Enter") is the same every time.
                return _refused("a value typed or chosen that the goal does not give")
            else:
                value = {"text": item.action.value}
        target = templated(SemanticTarget.from_dict(item.target), bindings).to_dict() if item.target else None
        steps.append({"fingerprint": item.fingerprint, "action": item.action.name, "target": target, "value": value, **({"changed": True} if item.changed else {})})
    if unused := _unused(template, steps):
        # A value no step used cannot be honoured for another value: it stays literal (a later
        # goal must say the same). One a field had to hold and already held (a list showing the
        # option) means no recipe: replayed where the field shows another, the flow is wrong.
        kept = {_norm(v) for v in held}
        if any(_norm(bindings[v]) in kept for v in unused):
            return _refused("a value the goal wants a field to hold was set by no step (the field already held it)")
        template = GoalTemplate.parse(_literal(template.text, {v: bindings[v] for v in unused}))
    recipe = Recipe(
        id=_key(tenant_id, domain, template.text, steps),
        tenant_id=tenant_id,
        domain=domain,
        template=template.text,
        variables=list(template.variables),
        steps=steps,
        last_used=at,
        created_at=at,
    )
    if (leak := leaks({"template": recipe.template, "steps": recipe.steps}, secret_values)) is not None:
        return _refused(f"it would store a secret ({leak})")
    return recipe


def same_flow(a: Recipe, b: Recipe) -> bool:
    """Whether two recipes are one flow recorded on other page skeletons: the same template
    and the same actions on the same targets with the same values, fingerprints aside (a
    page with a promotional box, or another number of distractor controls, is the same
    flow on another skeleton)."""
    return a.tenant_id == b.tenant_id and a.domain == b.domain and a.template == b.template and _shape(a) == _shape(b)


def _shape(recipe: Recipe) -> list[dict[str, Any]]:
    return [{k: v for k, v in step.items() if k not in ("fingerprint", "changed")} for step in recipe.steps]


def _unused(template: GoalTemplate, steps: list[dict[str, Any]]) -> list[str]:
    """The template's variables no step binds (as a typed value or in a target's name)."""
    text = json.dumps(steps, ensure_ascii=False)
    return [v for v in template.variables if json.dumps({"var": v}) not in text and "{" + v + "}" not in text]


def _norm(value: str) -> str:
    return " ".join(value.split()).casefold()


def _literal(text: str, values: Mapping[str, str]) -> str:
    """``text`` with the variables of ``values`` written as their (escaped) values."""
    for name, value in values.items():
        text = text.replace("{" + name + "}", value.replace("{", "{{").replace("}", "}}"))
    return text


def _refused(reason: str) -> None:
    log.info("memory.recipe_not_recorded", reason=reason)
    return None


def _key(*parts: Any) -> str:
    raw = json.dumps(parts, sort_keys=True, ensure_ascii=False)
    return "recipe-" + hashlib.sha256(raw.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Served:
    """A recipe's next steps on this page: the actions to send, or why not."""

    recipe: Recipe | None
    step: int | None
    actions: tuple[Action, ...] = ()
    miss_reason: str | None = None

    @property
    def hit(self) -> bool:
        return bool(self.actions)


def choose(recipes: Iterable[Recipe], goal: str, page: PageState) -> Served:
    """The promoted recipe for this goal whose first page is this one, served from step 0;
    else a miss that says why."""
    matching = [r for r in recipes if GoalTemplate.parse(r.template).bind(goal) is not None]
    if not matching:
        return Served(None, None, miss_reason="no recipe for this goal on this site")
    promoted = sorted((r for r in matching if r.status == "promoted"), key=lambda r: r.verified_runs, reverse=True)
    if not promoted:
        best = max(matching, key=lambda r: r.verified_runs)
        if best.status == "demoted":
            return Served(None, None, miss_reason="this goal's recipe was demoted after a replay failed")
        return Served(None, None, miss_reason=f"recipe not promoted yet ({best.verified_runs} of {PROMOTE_AFTER} verified runs)")
    fingerprint = page_fingerprint(page)
    misses: list[Served] = []
    for recipe in promoted:
        served = serve(recipe, 0, goal, page, fingerprint=fingerprint)
        if served.hit:
            return served
        misses.append(served)
    # The reason worth telling is that of a recipe recorded on this very page, if any.
    on_this_page = [m for m in misses if m.miss_reason != _OTHER_PAGE]
    return (on_this_page or misses)[0]


def serve(recipe: Recipe, start: int, goal: str, page: PageState, *, fingerprint: str | None = None, limit: int = 10) -> Served:
    """Recipe steps from ``start`` that this page allows: the first must match (fingerprint,
    unique target, bound value); the following ones on the same page are added while they
    re-identify too (action validation decides which of them may be chained)."""
    bindings = GoalTemplate.parse(recipe.template).bind(goal)
    if bindings is None:
        return Served(recipe, start, miss_reason="the goal is not this recipe's")
    if start >= len(recipe.steps):
        return Served(recipe, start, miss_reason="every step of the recipe was served")
    fingerprint = fingerprint or page_fingerprint(page)
    while start + 1 < len(recipe.steps) and _already_holds(recipe.steps[start], fingerprint, page, bindings):
        start += 1  # a field that already shows the step's value: sending it changes nothing, so nothing verifies it
    first = recipe.steps[start]
    if first.get("fingerprint") != fingerprint:
        return Served(recipe, start, miss_reason=_OTHER_PAGE)
    actions: list[Action] = []
    for raw in recipe.steps[start : start + limit]:
        if raw.get("fingerprint") != fingerprint or (actions and _already_holds(raw, fingerprint, page, bindings)):
            break  # another page; or a step to pass over, which the next request does
        action, reason = _action(raw, page, bindings, used={a.target for a in actions if a.target})
        if action is None:
            if not actions:
                return Served(recipe, start, miss_reason=reason)
            break
        actions.append(action)
    return Served(recipe, start, tuple(actions))


def _already_holds(raw: Mapping[str, Any], fingerprint: str, page: PageState, bindings: Mapping[str, str]) -> bool:
    """A setValue / select step on this page whose field, re-identified, already shows the
    value (a list whose default option is the goal's): the policy would not send it, and
    sent it would change nothing — which the page-only verification of a replayed step
    reads as a failure, demoting the recipe for good."""
    if raw.get("action") not in ("setValue", "select") or raw.get("fingerprint") != fingerprint:
        return False
    action, _ = _action(raw, page, bindings, used=set())
    if action is None or action.target is None or action.value is None:
        return False
    element = page.element(action.target)
    current = element.value if element is not None else None
    return current is not None and " ".join(current.split()).casefold() == " ".join(action.value.split()).casefold()


def _action(raw: Mapping[str, Any], page: PageState, bindings: Mapping[str, str], used: set[str]) -> tuple[Action | None, str]:
    name = str(raw.get("action"))
    value: str | None = None
    spec = raw.get("value")
    if isinstance(spec, Mapping):
        value = bindings.get(str(spec["var"])) if "var" in spec else str(spec.get("text", ""))
        if value is None:
            return None, "a value of the recipe is not in the goal"
    target_id: str | None = None
    if raw.get("target"):
        found = reidentify(SemanticTarget.from_dict(raw["target"]), page, bindings)
        if found.element is None:
            return None, f"target not re-identified: {found.reason}"
        if found.element.id in used:
            return None, "two recipe steps resolve to one element"
        target_id = found.element.id
    try:
        return Action(name=name, target=target_id, value=value), ""  # type: ignore[arg-type]
    except ValueError as exc:
        return None, f"the recorded action no longer fits: {exc}"
