"""What a goal chooses becomes a recipe variable: the control it sets ("Select GDKkQ") and the
ordinal it names ("the 2nd textbox") — and nothing else does."""

from __future__ import annotations

from datetime import UTC, datetime

from agent.contracts import contract_for_new_task
from agent.memory import goal_values
from agent.memory.fingerprint import page_fingerprint
from agent.memory.recipes import Recorded, build_recipe, choose
from agent.memory.targets import SemanticTarget, describe_target, reidentify, templated
from verification import Action, PageElement, PageState

URL = "https://forms.test/pick"
NOW = datetime(2026, 11, 27, tzinfo=UTC)


def _boxes(*names: str, role: str = "checkbox", checked: str | None = None) -> PageState:
    elements = [PageElement(id=f"c{i}", role=role, name=name, states=frozenset({"checked"}) if name == checked else frozenset()) for i, name in enumerate(names)]
    return PageState.from_elements([*elements, PageElement(id="s", role="button", name="Submit")], url=URL)


def _textboxes(count: int = 3, prefix: str = "t") -> PageState:
    return PageState.from_elements([PageElement(id=f"{prefix}{i}", role="textbox", name="", input_type="text") for i in range(count)], url=URL)


def _promoted(goal: str, page: PageState, *steps: tuple[str, str], values: list[str] | None = None, held: list[str] | None = None):  # type: ignore[no-untyped-def]
    fp = page_fingerprint(page)
    actions = [Recorded(Action(name=name, target=target), fp, describe_target(page.element(target), page=page).to_dict()) for name, target in steps]  # type: ignore[arg-type]
    if values is None:
        values, held = goal_values(contract_for_new_task(goal, page)[0])
    recipe = build_recipe(tenant_id="t", domain="forms.test", goal=goal, actions=actions, secrets=[], at=NOW, values=values, held=held or [])
    assert recipe is not None
    return recipe.model_copy(update={"status": "promoted", "verified_runs": 2})


def test_the_control_a_goal_sets_is_a_variable_and_a_clicked_button_is_not() -> None:
    page = _boxes("GDKkQ", "AU")
    values, held = goal_values(contract_for_new_task("Select GDKkQ and click Submit.", page)[0])
    assert [v.casefold() for v in values] == ["gdkkq"] and [h.casefold() for h in held] == ["gdkkq"]
    recipe = _promoted("Select GDKkQ and click Submit.", page, ("click", "c0"), ("click", "s"))
    assert recipe.template == "Select {v1} and click Submit."
    assert "GDKkQ" not in str(recipe.steps)
    # Another instance of the page: another box, named by the new goal; Submit stays literal.
    other = _boxes("Eh", "JJl")
    served = choose([recipe], "Select JJl and click Submit.", other)
    assert [(a.name, a.target) for a in served.actions] == [("click", "c1"), ("click", "s")]
    assert choose([recipe], "Select JJl and click Cancel.", other).miss_reason == "no recipe for this goal on this site"
    assert not choose([recipe], "Select Nope and click Submit.", other).hit  # no such box: a miss, never a guess


def test_a_box_the_goal_wants_checked_that_no_step_checked_makes_no_recipe() -> None:
    page = _boxes("GDKkQ", "AU", checked="GDKkQ")
    values, held = goal_values(contract_for_new_task("Select GDKkQ and click Submit.", page)[0])
    fp = page_fingerprint(page)
    submit = Recorded(Action(name="click", target="s"), fp, describe_target(page.element("s"), page=page).to_dict())  # type: ignore[arg-type]
    assert build_recipe(tenant_id="t", domain="d", goal="Select GDKkQ and click Submit.", actions=[submit], secrets=[], at=NOW, values=values, held=held) is None


def test_look_alikes_are_recorded_with_their_place_and_it_is_kept_only_as_the_goals_ordinal() -> None:
    page = _textboxes()
    target = describe_target(page.element("t1"), page=page)  # type: ignore[arg-type]
    assert target.nth == "2"
    assert templated(target, {"v1": "2nd"}).nth == "{v1}"
    assert templated(target, {"v1": "3rd"}).nth is None  # the goal named another one: position is not identity
    assert templated(target, {"v1": "2"}).nth is None  # a bare number is a count or an amount, not "the 2nd"
    assert templated(target, {}).nth is None
    alone = PageState.from_elements([PageElement(id="x", role="textbox", name="Email")], url=URL)
    assert describe_target(alone.element("x"), page=alone).nth is None  # type: ignore[arg-type]


def test_an_ordinal_goal_replays_on_the_element_its_new_ordinal_names() -> None:
    page = _textboxes()
    recipe = _promoted("Focus into the 2nd input textbox.", page, ("click", "t1"))
    assert recipe.template == "Focus into the {v1} input textbox."
    later = _textboxes(prefix="n")
    assert [a.target for a in choose([recipe], "Focus into the 3rd input textbox.", later).actions] == ["n2"]
    assert [a.target for a in choose([recipe], "Focus into the 1st input textbox.", later).actions] == ["n0"]
    miss = choose([recipe], "Focus into the 7th input textbox.", later)
    assert not miss.hit and "no number 7" in (miss.miss_reason or "")


def test_an_ordinal_target_counts_among_look_alikes_only() -> None:
    target = SemanticTarget(role="textbox", name="", input_type="text", nth="{v1}")
    page = PageState.from_elements(
        [
            PageElement(id="a", role="textbox", name="", input_type="text"),
            PageElement(id="b", role="button", name=""),
            PageElement(id="c", role="textbox", name="", input_type="text"),
        ],
        url=URL,
    )
    assert reidentify(target, page, {"v1": "2nd"}).element.id == "c"  # type: ignore[union-attr]
    assert reidentify(target, page, {}).reason == "no value bound to {v1}"
    assert SemanticTarget.from_dict(target.to_dict()) == target
