"""The plan and the contract a careful person writes for a gym goal, from its human solution:
each step as a plan step, and the clauses that prove the goal done (each value typed or
chosen, each box set, the press that submits them, the final press). Used by the oracle and
the noisy model (:mod:`bench.gym.models`)."""

from __future__ import annotations

import re
from typing import Any, Final

from bench.gym.spec import Goal, Step
from planning.model_planner import MAX_CONTRACT_CLAUSES, MAX_PLAN_STEPS

MARK: Final = re.compile(r"\(step (\d+) of the solution\)")  # in each plan step's description
_CONTAINER_KINDS: Final = {"row": "row", "dialog": "dialog", "alertdialog": "dialog", "listitem": "item", "article": "card",
                           "region": "section", "group": "section", "form": "form", "tabpanel": "section"}
_REF_ROLES: Final = frozenset({"button", "link", "textbox", "checkbox", "radio", "switch", "combobox", "option", "tab",
                               "menuitem", "treeitem", "slider", "spinbutton"})
_KINDS: Final = {"fill": "fill", "type": "fill", "select": "select", "check": "check", "uncheck": "uncheck", "press": "press",
                 "hover": "hover", "upload": "other", "click": "click"}


def plan_answer(goal: Goal) -> dict[str, Any]:
    steps = [
        {
            "description": f"{_describe(step)} (step {i} of the solution)",
            "kind": "submit" if i == len(goal.steps) - 1 and step.do in ("click", "press") else _KINDS[step.do],
            "target": label(step),
            "value": step.key if step.do == "press" else None if from_user(step.value or "", goal) else step.value,
            "success_criterion": "The page shows the step's effect.",
        }
        for i, step in enumerate(goal.steps)
    ]
    return {"steps": steps[:MAX_PLAN_STEPS], "contract": clauses(goal), "needs_user_input": [], "contingencies": [], "subtasks": []}


def clauses(goal: Goal) -> list[dict[str, Any]]:
    """What proves the goal done, as a careful person writes it: each value the solution
    types or chooses and each box it sets, the control pressed after them (which submits
    them), and the final control it presses (which commits)."""
    out: list[dict[str, Any]] = []
    filled = False
    for i, step in enumerate(goal.steps):
        ref = _ref(step)
        picked = i + 1 < len(goal.steps) and goal.steps[i + 1].role == "option"
        if step.do in ("fill", "type") and picked:
            continue  # typed to find an option: the option picked is the requirement, not the text typed
        if step.do == "click" and step.role == "option" and i > 0 and goal.steps[i - 1].do in ("fill", "type"):
            out.append({"kind": "activated", "target": ref, "action": "click", "effect": True, "description": f"{label(step)} was picked"})
            filled = True
        elif step.do in ("fill", "type") and not from_user(step.value or "", goal):
            out.append({"kind": "field_value", "target": ref, "value": step.value, "description": f"{label(step)} holds {step.value}"})
            filled = True
        elif step.do == "select":
            out.append({"kind": "choice", "target": ref, "value": step.value, "description": f"{label(step)} is {step.value}"})
            filled = True
        elif step.do == "click" and step.role == "radio":
            out.append({"kind": "control", "target": ref, "state": "checked", "description": f"{label(step)} is chosen"})
            filled = True
        elif step.do in ("check", "uncheck"):
            state = "checked" if step.do == "check" else "unchecked"
            out.append({"kind": "control", "target": ref, "state": state, "description": f"{label(step)} is {state}"})
            filled = True
        elif step.do in ("click", "press") and ((filled and step.role not in ("option", "radio", "tab", "link")) or i == len(goal.steps) - 1):
            filled = False
            out.append({"kind": "activated", "target": ref, "action": "click" if step.do == "click" else "press", "effect": True,
                        "description": f"{label(step)} was pressed and the page reacted"})
        elif step.do == "click" and step.role == "menuitem" and _says_the_goal(step, goal):
            # The menu item that does what the goal asks ("Mark as paid" for "mark … paid"): a
            # careful person names it, even where no field comes before it.
            out.append({"kind": "activated", "target": ref, "action": "click", "effect": True, "description": f"{label(step)} was pressed"})
    return out[:MAX_CONTRACT_CLAUSES]


def _says_the_goal(step: Step, goal: Goal) -> bool:
    """Does the control's name share a word of four letters or more with the goal's text?"""
    said = {w for w in re.findall(r"[a-z]+", goal.text.casefold()) if len(w) >= 4}
    return any(w in said for w in re.findall(r"[a-z]+", label(step).casefold()) if len(w) >= 4)


def _ref(step: Step) -> dict[str, Any]:
    ref: dict[str, Any] = {"name": label(step)[:200]}
    if step.role in _REF_ROLES:
        ref["role"] = step.role
    if step.within is not None and step.within.role in _CONTAINER_KINDS:
        # Only a kind of box a page shows as one (a row, a dialog, a card…): a competent model
        # names what it sees, and a toolbar is no container of the elements it is shown.
        ref["container"] = step.within.text[:200]
        ref["container_kind"] = _CONTAINER_KINDS[step.within.role]
    return ref


def label(step: Step) -> str:
    return step.name or step.label or ""


def _describe(step: Step) -> str:
    verb = {"fill": "Type", "type": "Type", "select": "Choose", "check": "Tick", "uncheck": "Untick", "press": "Press",
            "click": "Click", "hover": "Point at", "upload": "Upload"}[step.do]
    what = f"{verb} {label(step)!r}"
    if step.do in ("fill", "type", "select") and step.value is not None:
        what = f"{verb} {step.value!r} in {label(step)!r}"
    if step.within is not None:
        what += f" in the {step.within.role} of {step.within.text!r}"
    return what


def from_user(value: str, goal: Goal) -> bool:
    """A value only the user knows (a one-time code): the goal's answers hold it, its text does not."""
    return value in goal.answers.values() and value.casefold() not in goal.text.casefold()
