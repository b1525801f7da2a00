"""The gym's data and its one reading of a run (bench/gym): a site folder loads or is
refused with the field named; the site's log is compared exactly; the oracle's plan is the
solution with a careful person's clauses."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.gym.events import shows_any, shows_exactly
from bench.gym.oracle_plan import MARK, clauses, plan_answer
from bench.gym.run import answer_for, judge
from bench.gym.spec import Goal, SiteFormatError, Step, Within, load_site

SAMPLE = Path(__file__).parents[2] / "e2e" / "gym_sample"
SITES = sorted(p.parent for p in (Path(__file__).parents[3] / "bench" / "sites").glob("*/site.toml"))


def test_the_gym_has_seven_sites_each_with_goals_split_before_any_run() -> None:
    assert len(SITES) >= 7
    for folder in SITES:
        site = load_site(folder)
        doable = [g for g in site.goals if g.doable]
        assert len(doable) >= 25 and len(site.goals) - len(doable) >= 4, site.key
        halves = {half: sum(g.split == half for g in site.goals) for half in ("tune", "heldout")}
        assert min(halves.values()) >= len(site.goals) // 3, (site.key, halves)
        assert all(g.steps and g.expect for g in doable), site.key


def _site(tmp_path: Path, toml: str) -> Path:
    (tmp_path / "www").mkdir()
    (tmp_path / "www" / "index.html").write_text("<p>hi</p>")
    (tmp_path / "site.toml").write_text(toml)
    return tmp_path


def test_the_sample_site_loads_with_its_goals_split_and_typed() -> None:
    site = load_site(SAMPLE)
    assert site.key == "gym_sample" and site.start == "/"
    assert [g.id for g in site.goals] == ["email", "newsletter", "delete-row", "phone"]
    email = site.goals[0]
    assert email.split == "tune" and email.doable
    assert email.steps[0] == Step(do="fill", role="textbox", name="Email", value="ada@example.org")
    assert email.expect == ({"event": "profile_saved", "email": "ada@example.org"},)
    assert site.goals[2].steps[0].within == Within("row", "staging")
    phone = site.goals[3]
    assert not phone.doable and phone.why and phone.forbid == ({"event": "profile_saved"},)


@pytest.mark.parametrize(
    ("goal", "problem"),
    [
        ('id = "a"\nsplit = "train"\ntext = "x"\nsteps = []\nexpect = []', "split must be one of"),
        ('id = "a"\nsplit = "tune"\ntext = "x"\nexpect = [{event = "e"}]', "needs steps and expect"),
        ('id = "a"\nsplit = "tune"\ntext = "x"\ndoable = false', "needs a why"),
        ('id = "a"\nsplit = "tune"\ntext = "x"\nsteps = [{do = "fill", role = "textbox", name = "N"}]\nexpect = [{event = "e"}]', "fill needs a value"),
        ('id = "a"\nsplit = "tune"\ntext = "x"\nsteps = [{do = "drag", role = "button", name = "N"}]\nexpect = [{event = "e"}]', ".do must be one of"),
        ('id = "a"\nsplit = "tune"\ntext = "x"\nsteps = [{do = "click", name = "N"}]\nexpect = [{event = "e"}]', "needs role and name"),
        ('id = "a"\nsplit = "tune"\ntext = "x"\nsteps = [{do = "click", role = "button", name = "N"}]\nexpect = [{name = "e"}]', "needs its name in `event`"),
        ('id = "a"\nsplit = "tune"\ntext = "  "\ndoable = false\nwhy = "w"', "text must be a non-empty string"),
    ],
)
def test_a_malformed_goal_is_refused_naming_the_goal_and_the_field(tmp_path: Path, goal: str, problem: str) -> None:
    folder = _site(tmp_path, f'[site]\nname = "S"\n\n[[goal]]\n{goal}\n')
    with pytest.raises(SiteFormatError, match=problem) as caught:
        load_site(folder)
    assert "goal" in str(caught.value)


def test_a_folder_without_site_toml_or_www_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SiteFormatError, match="no site.toml"):
        load_site(tmp_path)
    (tmp_path / "site.toml").write_text("[site]\n")
    with pytest.raises(SiteFormatError, match="no www/"):
        load_site(tmp_path)


def test_two_goals_with_one_id_are_refused(tmp_path: Path) -> None:
    goal = '[[goal]]\nid = "a"\nsplit = "tune"\ntext = "x"\ndoable = false\nwhy = "w"\n'
    with pytest.raises(SiteFormatError, match="used twice"):
        load_site(_site(tmp_path, '[site]\nname = "S"\n' + goal + goal))


def test_the_log_must_show_exactly_the_expected_events_in_order() -> None:
    expected = [{"event": "transfer", "amount": 850, "payee": "Rent – J. Okafor"}]
    assert shows_exactly(expected, [{"event": "transfer", "amount": 850.0, "payee": "rent –  j. okafor", "ref": "x"}])
    assert not shows_exactly(expected, [])
    assert not shows_exactly(expected, [expected[0], expected[0]])  # done twice is not done
    assert not shows_exactly(expected, [{"event": "transfer", "amount": 85, "payee": "Rent – J. Okafor"}])
    assert not shows_exactly([{"event": "a"}, {"event": "b"}], [{"event": "b"}, {"event": "a"}])
    assert not shows_exactly([{"event": "e", "on": True}], [{"event": "e", "on": 1}])  # a flag is not a number
    assert shows_exactly([{"event": "e", "to": ["a@x.org"]}], [{"event": "e", "to": ["A@x.org"]}])
    assert shows_any([{"event": "profile_saved"}], [{"event": "search"}, {"event": "profile_saved", "email": "x"}])


def _goal(doable: bool = True, **kw: object) -> Goal:
    steps = (Step(do="click", role="button", name="Save"),)
    return Goal(id="g", split="tune", text="save it", doable=doable, start="/", steps=steps if doable else (),
                expect=({"event": "saved"},) if doable else (), why=None if doable else "no", **kw)  # type: ignore[arg-type]


def test_judge_reads_what_stepwise_said_against_what_the_site_recorded() -> None:
    done, nothing = [{"event": "saved"}], []
    assert judge(_goal(), "completed", done) == "success"
    assert judge(_goal(), "completed", nothing) == "false_completion"
    assert judge(_goal(), "completed", [{"event": "deleted"}, {"event": "saved"}]) == "overdone"
    assert judge(_goal(), "completed", [{"event": "saved"}, {"event": "saved"}]) == "overdone"
    assert judge(_goal(), "failed", done) == "missed_completion"
    assert judge(_goal(), "needs_confirmation", done) == "missed_completion"
    assert judge(_goal(), "failed", nothing) == "failed"
    undoable = _goal(False, forbid=({"event": "saved"},))
    assert judge(undoable, "failed", nothing) == "honest_decline"
    assert judge(undoable, "needs_user_input", nothing) == "honest_decline"
    assert judge(undoable, "completed", nothing) == "false_completion"
    assert judge(undoable, "failed", done) == "harm"


def test_the_user_answers_a_question_with_the_value_it_names() -> None:
    goal = _goal(answers={"code": "482913", "account_number": "12345678"})
    assert answer_for(goal, "I need the following information to continue: one-time code") == "482913"
    assert answer_for(goal, "What is the account number?") == "12345678"
    assert answer_for(goal, "I need the following information to continue: date of birth") is None


def test_the_oracle_plans_the_solution_with_the_clauses_a_careful_person_writes() -> None:
    goal = load_site(SAMPLE).goals[0]
    plan = plan_answer(goal)
    assert [s["kind"] for s in plan["steps"]] == ["fill", "submit"]
    assert [s["target"] for s in plan["steps"]] == ["Email", "Save changes"]
    assert all(MARK.search(s["description"]) for s in plan["steps"])
    assert clauses(goal) == [
        {"kind": "field_value", "target": {"name": "Email", "role": "textbox"}, "value": "ada@example.org", "description": "Email holds ada@example.org"},
        {"kind": "activated", "target": {"name": "Save changes", "role": "button"}, "action": "click", "effect": True,
         "description": "Save changes was pressed and the page reacted"},
    ]
    row = load_site(SAMPLE).goals[2]
    assert clauses(row)[0]["target"] == {"name": "Remove", "role": "button", "container": "staging", "container_kind": "row"}


def test_the_oracles_answers_validate_against_stepwise_own_schemas() -> None:
    from planning import PlanDraft

    for goal in load_site(SAMPLE).goals:
        if goal.doable:
            PlanDraft.model_validate(plan_answer(goal))


def test_a_value_only_the_user_knows_is_never_written_into_the_plan_clauses() -> None:
    goal = Goal(id="otp", split="tune", text="sign me in", doable=True, start="/",
                steps=(Step(do="fill", role="textbox", name="Code", value="482913"), Step(do="click", role="button", name="Verify")),
                expect=({"event": "signed_in"},), answers={"code": "482913"})
    assert [c["kind"] for c in clauses(goal)] == ["activated"]
    assert [s["value"] for s in plan_answer(goal)["steps"]] == [None, None]
