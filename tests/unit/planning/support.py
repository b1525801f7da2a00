"""Pages and plans the planning tests build: a clinic app's patient list and its form."""

from __future__ import annotations

from typing import Any

from planning import Plan, PlanStep
from verification import PageState

LIST_URL = "https://clinic.example.com/patients"
FORM_URL = "https://clinic.example.com/patients/new"


def list_tree(extra: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    return [
        {"i": "1", "r": "link", "n": "Patients"},
        {"i": "2", "r": "link", "n": "Settings"},
        {"i": "3", "r": "inp", "n": "Search patients"},
        {"i": "4", "r": "btn", "n": "New patient"},
        {"i": "5", "r": "link", "n": "Ada Lovelace"},
        {"i": "6", "r": "link", "n": "Alan Turing"},
        *(extra or []),
    ]


def form_tree() -> list[dict[str, Any]]:
    return [
        {"i": "1", "r": "link", "n": "Patients"},
        {"i": "2", "r": "link", "n": "Settings"},
        {"i": "10", "r": "inp", "n": "Name", "s": "required"},
        {"i": "11", "r": "inp", "n": "Date of birth"},
        {"i": "12", "r": "sel", "n": "Gender"},
        {"i": "13", "r": "chk", "n": "Send reminders"},
        {"i": "14", "r": "btn", "n": "Save"},
        {"i": "15", "r": "btn", "n": "Cancel"},
    ]


def list_page(**kwargs: Any) -> PageState:
    return PageState.from_v3(list_tree(kwargs.pop("extra", None)), url=kwargs.pop("url", LIST_URL), title="Patients", **kwargs)


def form_page(**kwargs: Any) -> PageState:
    return PageState.from_v3(form_tree(), url=kwargs.pop("url", FORM_URL), title="New patient", **kwargs)


def step(index: int, kind: str, target: str | None = None, value: str | None = None, **kwargs: Any) -> PlanStep:
    return PlanStep(
        index=index,
        kind=kind,  # type: ignore[arg-type]
        target=target,
        value=value,
        description=kwargs.pop("description", f"{kind} {target or ''} {value or ''}".strip()),
        success_criterion=kwargs.pop("success_criterion", "it worked"),
        **kwargs,
    )


def plan_of(*steps: PlanStep, goal: str = 'Add a new patient with name "Jas"', **kwargs: Any) -> Plan:
    return Plan(goal=goal, steps=list(steps), source="model", **kwargs)


def good_patient_plan(goal: str = 'Add a new patient with name "Jas"') -> Plan:
    return plan_of(
        step(0, "open", "New patient"),
        step(1, "fill", "Name", "Jas"),
        step(2, "submit", "Save"),
        goal=goal,
    )
