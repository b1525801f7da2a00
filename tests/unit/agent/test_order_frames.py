"""Item quantities: the readings of the goal (order_frames) and the stepper's moves
(steppers) — one click at a time toward the number, re-read each time, never past it."""

from __future__ import annotations

from typing import Any

import pytest

from agent.policy import understand
from agent.policy.refine import refine_step
from agent.policy.references import read_ref
from agent.policy.steppers import stepper_move
from planning import Plan, PlanStep
from verification import PageState, resolve_ref


def _read(goal: str) -> tuple[list[tuple[str, str | None, str | None]], tuple[str, ...]]:
    found = understand(goal)
    return [(s.kind, s.target, s.value) for s in found.plan.steps], found.contract.unaccounted


@pytest.mark.parametrize(
    ("goal", "items"),
    [
        ("Order one of each item: Garlic bread, Spaghetti and Meatballs", ["Garlic bread", "Spaghetti and Meatballs"]),
        ("Buy one of each: Tea, Cake, Cheese wheel", ["Tea", "Cake", "Cheese wheel"]),
        ("order 1 of each item: Tofu and Vegetable stone pot, Ice cream sundae.", ["Tofu and Vegetable stone pot", "Ice cream sundae"]),
    ],
)
def test_one_of_each_sets_every_quantity_to_one_then_orders(goal: str, items: list[str]) -> None:
    steps, unaccounted = _read(goal)
    assert unaccounted == ()
    assert steps[:-1] == [("fill", f'the quantity stepper in the item for "{i}"', "1") for i in items]
    assert steps[-1][0] == "submit"


@pytest.mark.parametrize(
    ("goal", "item", "count", "orders"),
    [
        ("Set the quantity of Cheese wheel to 3", "Cheese wheel", "3", False),
        ("change the quantity for Tea to four", "Tea", "4", False),
    ],
)
def test_a_quantity_of_one_item(goal: str, item: str, count: str, orders: bool) -> None:
    steps, unaccounted = _read(goal)
    assert unaccounted == ()
    assert steps[0] == ("fill", f'the quantity stepper in the item for "{item}"', count)
    assert (steps[-1][0] == "submit") is orders


@pytest.mark.parametrize("goal", ["Order 3 items that are vegan", "Order two pizzas", "Add 2 Chicken wings to the order"])
def test_a_property_to_choose_by_or_a_bare_count_is_not_read_yet(goal: str) -> None:
    _steps, unaccounted = _read(goal)
    assert unaccounted


def _shop(quantities: dict[str, str]) -> PageState:
    nodes: list[dict[str, Any]] = []
    for n, (name, value) in enumerate(quantities.items()):
        nodes += [
            {"i": f"d{n}", "r": "btn", "n": "-", "ctx": [f"item: {name} +"]},
            {"i": f"q{n}", "r": "spinbutton", "n": "quantity", "v": value, "ctx": [f"item: {name} - +"]},
            {"i": f"u{n}", "r": "btn", "n": "+", "ctx": [f"item: {name} -"]},
        ]
    nodes.append({"i": "order", "r": "btn", "n": "Order!"})
    return PageState.from_v3(nodes, url="https://shop.example/")


def _step(value: str) -> tuple[PlanStep, Plan]:
    step = PlanStep(index=0, kind="fill", description="q", target='the quantity stepper in the item for "Cake"', value=value, success_criterion="c")
    return step, Plan(goal="g", steps=[step], source="policy")


@pytest.mark.parametrize(("shown", "wanted", "click"), [("0", "2", "u1"), ("", "1", "u1"), ("3", "1", "d1")])
def test_the_stepper_is_clicked_toward_the_number_in_its_own_item(shown: str, wanted: str, click: str) -> None:
    page = _shop({"Tea": "0", "Cake": shown, "Pie": "0"})
    step, plan = _step(wanted)
    ref = read_ref(step.target or "").ref
    decision = refine_step(step, page, plan, ref)
    assert decision.action is not None and decision.action.target == click and not decision.completes_step


def test_the_number_shown_ends_the_step_and_a_stuck_stepper_is_reported() -> None:
    page = _shop({"Tea": "0", "Cake": "2"})
    step, plan = _step("2")
    assert refine_step(step, page, plan, read_ref(step.target or "").ref).satisfied
    readout = resolve_ref(read_ref(step.target or "").ref, page).element  # type: ignore[arg-type]
    assert readout is not None and readout.id == "q1"
    assert stepper_move(readout, "5", page, attempts=20).reason
    assert stepper_move(readout, "many", page, attempts=0).reason
