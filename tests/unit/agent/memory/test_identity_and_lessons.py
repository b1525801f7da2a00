"""A control's form name is identity a label cannot fake; skills and recipes built from
verified steps carry variables, never values; a skill steers only a known dead end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agent.memory.recipes import Recorded, build_recipe, choose, recorded, serve
from agent.memory.skills import applicable, lesson, steer_action
from agent.memory.targets import describe_target, reidentify, templated
from agent.memory.templates import GoalTemplate
from storage import Skill, TaskAction
from verification import Action, PageElement, PageState

URL = "https://clinic.test/patients/new"
NOW = datetime(2026, 11, 25, tzinfo=UTC)


def _form(first_label: str = "First name", last_label: str = "Last name", ids: tuple[str, str] = ("1", "2")) -> PageState:
    return PageState.from_elements(
        [
            PageElement(id=ids[0], role="textbox", name=first_label, field_name="first_name", container=("form: New patient",)),
            PageElement(id=ids[1], role="textbox", name=last_label, field_name="last_name", container=("form: New patient",)),
            PageElement(id="9", role="button", name="Save", field_name="save", container=("form: New patient",)),
        ],
        url=URL,
    )


def test_swapped_labels_are_a_miss_not_the_other_field() -> None:
    target = describe_target(_form().element("1"))  # type: ignore[arg-type]
    assert target.field == "first_name" and target.to_dict()["field"] == "first_name"
    assert reidentify(target, _form(ids=("7", "8"))).element.id == "7"  # type: ignore[union-attr]
    swapped = reidentify(target, _form("Last name", "First name"))
    assert swapped.element is None and swapped.candidates == 0


def test_v3_and_html_pages_carry_the_control_name() -> None:
    v3 = PageState.from_v3(url=URL, tree=[{"i": "a", "r": "inp", "n": "Email", "fn": " email "}, {"i": "b", "r": "btn", "n": "Go"}])
    html = PageState.from_html('<form><label for="e">Email</label><input id="e" name="email"><button name="go">Go</button><a href="/x" name="n">X</a></form>', url=URL)
    names = {e.name: e.field_name for e in html.elements}
    assert names["Email"] == "email" and names["Go"] == "go" and names["X"] is None
    assert [e.field_name for e in v3.elements] == ["email", None]
    with pytest.raises(ValueError, match="fn"):
        PageState.from_v3(url=URL, tree=[{"i": "a", "r": "inp", "n": "Email", "fn": 7}])


def test_templated_matches_describing_with_the_variables() -> None:
    element = PageElement(id="3", role="link", name="Edit Ada Lovelace", container=("row: Ada Lovelace · ada@x.org",), href="https://clinic.test/p/17")
    assert templated(describe_target(element), {"v1": "Ada Lovelace"}) == describe_target(element, {"v1": "Ada Lovelace"})


def test_a_stored_template_parses_back() -> None:
    template = GoalTemplate.parse('Type {v1} into First name and "{v2}" into Last name')
    assert template.variables == ("v1", "v2")
    assert template.bind('Type Alan into First name and "Turing" into Last name') == {"v1": "Alan", "v2": "Turing"}


def _home(ids: tuple[str, str] = ("d", "l")) -> PageState:
    return PageState.from_elements(
        [
            PageElement(id=ids[0], role="button", name="Add patient", container=("navigation: Menu",)),
            PageElement(id=ids[1], role="link", name="Add patient record", container=("section: Patients",)),
        ],
        url="https://clinic.test/",
    )


def _skill(**fields: object) -> Skill:
    home = _home()
    made = lesson(
        tenant_id="t", domain="clinic.test", goal="Add patient Ada", values=["Ada"],
        failed={"action": "click", "target": describe_target(home.element("d")).to_dict(), "error": "no_change"},  # type: ignore[arg-type]
        worked_action="click", worked_target=describe_target(home.element("l")).to_dict(),  # type: ignore[arg-type]
        strategy="ALTERNATIVE_SELECTOR", secrets=[], at=NOW,
    )  # fmt: skip
    assert made is not None
    return made.model_copy(update={"status": "admitted", "success_count": 2, **fields})


def test_a_skill_moves_only_its_failed_action_to_the_element_that_worked() -> None:
    skills = applicable([_skill()], "Add patient Grace", NOW)
    assert len(skills) == 1 and skills[0].skill.goal == "Add patient {v1}"
    moved, used, note = steer_action(Action(name="click", target="D"), _home(("D", "L")), skills)
    assert moved.target == "L" and used == (skills[0].skill.id,) and "did nothing" in note
    same, none, _ = steer_action(Action(name="click", target="L"), _home(("D", "L")), skills)
    assert same.target == "L" and none == ()
    hover, none, _ = steer_action(Action(name="hover", target="D"), _home(("D", "L")), skills)
    assert hover.target == "D" and none == ()


@pytest.mark.parametrize(
    ("fields", "kept"),
    [
        ({}, True),
        ({"status": "candidate"}, False),  # not confirmed yet
        ({"success_count": 2, "failure_count": 1}, False),  # under the 50 % gate
        ({"success_count": 1}, True),  # exactly at the gate (admission asks for two tasks anyway)
    ],
)
def test_only_admitted_skills_at_or_above_the_gate_apply(fields: dict[str, object], kept: bool) -> None:
    assert bool(applicable([_skill(**fields)], "Add patient Grace", NOW)) is kept


def test_older_skills_rank_lower() -> None:
    fresh, old = _skill(id="fresh"), _skill(id="old", last_used=NOW - timedelta(days=60), success_count=5)
    assert [a.skill.id for a in applicable([old, fresh], "Add patient Grace", NOW)] == ["fresh", "old"]


def test_a_lesson_with_a_secret_in_it_is_not_learned() -> None:
    home = _home()
    made = lesson(
        tenant_id="t", domain="clinic.test", goal="Add patient sk-live-51H8xY2eZvKYlo2CabcdEFGHijkl", values=[],
        failed={"action": "click", "target": describe_target(home.element("d")).to_dict()},  # type: ignore[arg-type]
        worked_action="click", worked_target=describe_target(home.element("l")).to_dict(),  # type: ignore[arg-type]
        strategy="ALTERNATIVE_SELECTOR", secrets=["sk-live-51H8xY2eZvKYlo2CabcdEFGHijkl"], at=NOW,
    )  # fmt: skip
    assert made is None


def _step(index: int, actions: list[str], targets: list[dict[str, object] | None], fingerprint: str, verdict: dict[str, object]) -> tuple[TaskAction, dict[str, object]]:
    step = TaskAction(
        tenant_id="t", task_id="task", step_index=index, thought="", action=actions[0],
        actions=[{"action": a} for a in actions] if len(actions) > 1 else None,
        metrics={"recall": {"fingerprint": fingerprint, "targets": targets}},
    )  # fmt: skip
    return step, verdict


def test_a_recipe_keeps_page_proven_actions_and_names_the_goals_values() -> None:
    form = _form()
    first, last, save = (describe_target(form.element(i)).to_dict() for i in ("1", "2", "9"))  # type: ignore[arg-type]
    steps = [
        _step(0, ['click("d")'], [{"role": "button", "name": "Add patient"}], "home", {"success": False, "decided_by": "rules"}),
        _step(1, ["wait(1)"], [None], "home", {"success": True, "decided_by": "rules"}),
        _step(2, ['click("l")'], [{"role": "link", "name": "Add patient record"}], "home", {"success": True, "decided_by": "model"}),
        _step(3, ['setValue("1", "Ada")', 'setValue("2", "Lovelace")', 'click("9")'], [first, last, save], "form",
              {"success": False, "decided_by": "rules", "chain": [{"index": 0, "status": "verified"}, {"index": 1, "status": "verified"}, {"index": 2, "status": "failed"}]}),
    ]  # fmt: skip
    actions = recorded(steps)
    assert [a.action.value for a in actions] == ["Ada", "Lovelace"]  # the dead end, the wait, a model-judged step and the failed commit are out
    recipe = build_recipe(tenant_id="t", domain="clinic.test", goal="Add patient Ada Lovelace", actions=actions, secrets=[], at=NOW, values=["Ada", "Lovelace"])
    assert recipe is not None and recipe.template == "Add patient {v1} {v2}"
    assert [s["value"] for s in recipe.steps] == [{"var": "v1"}, {"var": "v2"}] and "Ada" not in str(recipe.steps)

    promoted = recipe.model_copy(update={"status": "promoted", "verified_runs": 2})
    served = choose([promoted], "Add patient Grace Hopper", _form(ids=("5", "6")))
    assert served.miss_reason == "the page differs from the recorded one (fingerprint)"  # "form" is not this page's fingerprint


@pytest.mark.parametrize(("rules_success", "kept"), [(True, True), (False, False), (None, False)])
def test_a_model_judged_step_is_kept_only_where_the_rules_alone_agree(rules_success: bool | None, kept: bool) -> None:
    """A model's verdict is a claim: a step it judged is part of a recipe only when the rules,
    reading the same page, say it worked too — what its replay will be held to."""
    link = {"role": "link", "name": "Add patient record"}
    verdict = {"success": True, "decided_by": "model", "rules_success": rules_success, "url_changed": True}
    actions = recorded([_step(0, ['click("l")'], [link], "home", verdict)])
    assert [a.target for a in actions] == ([link] if kept else [])


def test_a_recipe_is_served_only_where_the_page_and_its_targets_match() -> None:
    form = _form()
    from agent.memory.fingerprint import page_fingerprint

    fp = page_fingerprint(form)
    actions = [
        Recorded(Action(name="setValue", target="1", value="Ada"), fp, describe_target(form.element("1")).to_dict()),  # type: ignore[arg-type]
        Recorded(Action(name="setValue", target="2", value="Lovelace"), fp, describe_target(form.element("2")).to_dict()),  # type: ignore[arg-type]
        Recorded(Action(name="click", target="9"), fp, describe_target(form.element("9")).to_dict()),  # type: ignore[arg-type]
    ]
    recipe = build_recipe(tenant_id="t", domain="clinic.test", goal='Register "Ada" "Lovelace"', actions=actions, secrets=[], at=NOW)
    assert recipe is not None
    promoted = recipe.model_copy(update={"status": "promoted", "verified_runs": 2})
    hit = choose([promoted], 'Register "Grace" "Hopper"', _form(ids=("5", "6")))
    assert [(a.name, a.target, a.value) for a in hit.actions] == [("setValue", "5", "Grace"), ("setValue", "6", "Hopper"), ("click", "9", None)]
    swapped = serve(promoted, 0, 'Register "Grace" "Hopper"', _form("Last name", "First name"))
    assert not swapped.hit and "not re-identified" in (swapped.miss_reason or "")
    assert choose([promoted], "Delete everything", form).miss_reason == "no recipe for this goal on this site"
    assert "not promoted" in (choose([recipe], 'Register "Grace" "Hopper"', form).miss_reason or "")


def test_a_typed_secret_the_goal_does_not_give_means_no_recipe() -> None:
    form = _form()
    from agent.memory.fingerprint import page_fingerprint

    actions = [Recorded(Action(name="setValue", target="1", value="hunter2-Secret!"), page_fingerprint(form), describe_target(form.element("1")).to_dict())]  # type: ignore[arg-type]
    assert build_recipe(tenant_id="t", domain="d", goal="Sign in", actions=actions, secrets=["hunter2-Secret!"], at=NOW) is None


def test_a_step_whose_field_already_shows_its_value_is_passed_over() -> None:
    def page(value: str | None) -> PageState:
        return PageState.from_elements(
            [
                PageElement(id="1", role="combobox", name="Country", value=value, container=("form: Pick",)),
                PageElement(id="2", role="button", name="Submit", container=("form: Pick",)),
            ],
            url=URL,
        )

    from agent.memory.fingerprint import page_fingerprint

    form = page("Peru")
    fp = page_fingerprint(form)
    actions = [
        Recorded(Action(name="select", target="1", value="Peru"), fp, describe_target(form.element("1")).to_dict()),  # type: ignore[arg-type]
        Recorded(Action(name="click", target="2"), fp, describe_target(form.element("2")).to_dict()),  # type: ignore[arg-type]
    ]
    recipe = build_recipe(tenant_id="t", domain="clinic.test", goal="Select Peru and click Submit", actions=actions, secrets=[], at=NOW, values=["Peru"])
    assert recipe is not None
    promoted = recipe.model_copy(update={"status": "promoted", "verified_runs": 2})
    shown = choose([promoted], "Select Chad and click Submit", page("Chad"))  # the list's default is the goal's
    assert shown.step == 1 and [(a.name, a.target) for a in shown.actions] == [("click", "2")]
    other = choose([promoted], "Select Chad and click Submit", page("Peru"))
    assert other.step == 0 and [(a.name, a.value) for a in other.actions] == [("select", "Chad"), ("click", None)]


def test_a_flow_that_used_none_of_a_goals_values_is_not_a_recipe() -> None:
    from agent.memory.fingerprint import page_fingerprint

    form = _form()
    fp = page_fingerprint(form)
    submit_only = [Recorded(Action(name="click", target="9"), fp, describe_target(form.element("9")).to_dict())]  # type: ignore[arg-type]
    # the list already showed "Peru": the run only clicked Save; replayed for "Chad" it would save the wrong value
    assert build_recipe(tenant_id="t", domain="d", goal="Select Peru and click Save", actions=submit_only, secrets=[], at=NOW, values=["Peru"], held=["Peru"]) is None
    assert build_recipe(tenant_id="t", domain="d", goal="Click Save", actions=submit_only, secrets=[], at=NOW) is not None
    # a quoted word that named the button by its look ("x" for Close): kept, literally
    closing = build_recipe(tenant_id="t", domain="d", goal='Close it by clicking the "x"', actions=submit_only, secrets=[], at=NOW, values=["x"])
    assert closing is not None and closing.template == 'Close it by clicking the "x"' and closing.variables == []
    assert GoalTemplate.parse(closing.template).bind('Close it by clicking the "y"') is None


def test_a_value_typed_that_the_goal_does_not_give_means_no_recipe() -> None:
    """The word a task copied off the page is another word on the next visit: replaying it
    would type the old one. Only a key pressed is the same every time."""
    form = _form()
    from agent.memory.fingerprint import page_fingerprint

    fp = page_fingerprint(form)
    copied = [Recorded(Action(name="setValue", target="1", value="Lorem"), fp, describe_target(form.element("1")).to_dict())]  # type: ignore[arg-type]
    assert build_recipe(tenant_id="t", domain="d", goal="Copy the word from the paragraph into the field", actions=copied, secrets=[], at=NOW) is None
    key = [Recorded(Action(name="press", target="1", value="Enter"), fp, describe_target(form.element("1")).to_dict())]  # type: ignore[arg-type]
    recipe = build_recipe(tenant_id="t", domain="d", goal="Submit the search from the keyboard", actions=key, secrets=[], at=NOW)
    assert recipe is not None and recipe.steps[0]["value"] == {"text": "Enter"}
