"""The replay bench's judge and figures (fully HIT, wrong-element actions, overlay check,
round-trip reduction), its seeding, its episode plans and its report — no server, no browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.memory_episodes import Answer, Episode
from bench.memory_perturb import KINDS, Perturbation, init_script, perturb_seed
from bench.memory_replay import later_specs, perturb_specs
from bench.memory_replay_metrics import Reference, figures, fully_hit, overlay_check, reduction, wrong_events
from bench.memory_replay_report import write


def answer(replay: str, *actions: str, events: list[dict[str, object]] | None = None, calls: int = 0) -> Answer:
    return Answer(replay=replay, miss_reason=None if replay == "HIT" else "why", model_calls=calls, actions=list(actions), events=events or [])


def episode(answers: list[Answer], *, phase: str = "later", regime: str = "same", kind: str = "none", success: bool = True, seed: int = 0) -> Episode:
    return Episode(
        suite="miniwob", task="login-user", seed=seed, phase=phase, regime=regime, kind=kind, goal="g", success=success,
        status="completed", error_code=None, false_completion=not success, answers=answers, layer={}, elapsed_s=1.0,
    )  # fmt: skip


CLEAN = episode([
    answer("HIT", 'setValue("1", "ada")', 'setValue("2", "pw")', 'click("3")', events=[
        {"type": "input", "key": "k8", "value": "ada"}, {"type": "input", "key": "k11", "value": "pw"}, {"type": "click", "key": "k12"},
    ]),
    answer("HIT", "finish()"),
])  # fmt: skip


def test_an_episode_is_fully_hit_only_when_every_action_answer_is() -> None:
    assert fully_hit(CLEAN)
    mixed = episode([answer("HIT", 'click("1")'), answer("FALLBACK", 'click("2")'), answer("FALLBACK", "finish()")])
    assert not fully_hit(mixed)
    assert fully_hit(episode([answer("HIT", 'click("1")'), answer("FALLBACK", "finish()")]))  # finish is not an action
    assert not fully_hit(episode([answer("HIT", "finish()")]))  # no action at all


def test_a_value_in_another_field_or_a_click_elsewhere_is_a_wrong_element_action() -> None:
    ref = Reference.of(CLEAN)
    swapped = answer("HIT", 'setValue("1", "ada")', events=[{"type": "input", "key": "k11", "value": "ada"}])
    assert len(wrong_events(swapped, ref)) == 1
    elsewhere = answer("HIT", 'click("9")', events=[{"type": "click", "key": "k40"}])
    assert len(wrong_events(elsewhere, ref)) == 1
    typing = answer("HIT", 'setValue("1", "ada")', events=[{"type": "input", "key": "k8", "value": "ad"}, {"type": "input", "key": "k8", "value": "ada"}])
    overlay = answer("FALLBACK", 'click("4")', events=[{"type": "click", "key": "n3", "overlay": True}])
    assert wrong_events(typing, ref) == [] and wrong_events(overlay, ref) == [] and wrong_events(CLEAN.answers[0], ref) == []


def test_figures_count_model_calls_in_hit_answers_and_round_trips() -> None:
    base = episode([answer("DISABLED", 'click("1")', calls=3), answer("DISABLED", 'click("2")', calls=2), answer("DISABLED", "finish()", calls=1)], phase="baseline")
    f, b = figures([CLEAN]), figures([base])
    assert (f.fully_hit, f.hit_answers, f.model_calls_in_hit, f.answers_per_episode) == (1.0, 1.0, 0, 2)
    assert b.model_calls_per_episode == 6 and reduction(f.answers_per_episode, b.answers_per_episode) == pytest.approx(1 / 3)
    assert reduction(None, 3) is None and reduction(2, 0) is None
    resumed = episode([answer("HIT", 'click("1")'), answer("FALLBACK", 'click("7")', calls=2), answer("HIT", 'click("2")', calls=1)])
    r = figures([resumed])
    assert (r.model_calls_in_hit, r.model_calls_in_hit_after_planner) == (0, 1)  # verifying the planner's step


def test_the_overlay_check_wants_the_fallback_at_the_overlay_only_and_a_hit_after_it() -> None:
    close = {"type": "click", "key": "n1", "overlay": True}
    good = episode([answer("HIT", 'click("1")'), answer("FALLBACK", 'click("7")', events=[close]), answer("HIT", 'click("2")'), answer("HIT", "finish()")])
    assert overlay_check(good) == overlay_check(good).__class__(seen=True, fallback_only_there=True, resumed=True)
    stuck = episode([answer("HIT", 'click("1")'), answer("FALLBACK", 'click("7")', events=[close]), answer("FALLBACK", 'click("2")')])
    check = overlay_check(stuck)
    assert check.seen and not check.fallback_only_there and not check.resumed


def test_perturbations_are_seeded_per_task_kind_and_instance() -> None:
    assert perturb_seed(15, "login-user", "wrap", 0) == perturb_seed(15, "login-user", "wrap", 0)
    seeds = {perturb_seed(15, t, k, s) for t in ("a", "b") for k in KINDS for s in (0, 1)}
    assert len(seeds) == 2 * len(KINDS) * 2 and all(0 <= s < 2**31 for s in seeds)
    script = init_script(Perturbation(seed=7, kinds=("swap",), auto=True))
    config = json.loads(script.split("=", 1)[1].split(";\n", 1)[0])
    assert config == {"seed": 7, "kinds": ["swap"], "auto": True, "overlayAfter": 1} and "__stepwisePerturbApply" in script
    with pytest.raises(ValueError):
        init_script(Perturbation(seed=1, kinds=("explode",)))
    specs = perturb_specs(["login-user", "demo"], "rename", 15)
    assert [(s.suite, s.seed, s.kind) for s in specs] == [("miniwob", 0, "rename"), ("miniwob", 1, "rename"), ("demo", 0, "rename"), ("demo", 1, "rename")]


def test_later_episodes_reuse_the_learning_instances_then_fresh_ones() -> None:
    specs = later_specs(["click-button"], 3)
    assert [(s.regime, s.seed) for s in specs] == [("same", 0), ("same", 1), ("same", 0), ("new", 100), ("new", 101), ("new", 102)]


def test_the_report_is_written(tmp_path: Path) -> None:
    base = episode([answer("DISABLED", 'click("1")', calls=3), answer("DISABLED", "finish()")], phase="baseline")
    swap = episode([answer("MISS", 'setValue("1", "ada")', events=[{"type": "input", "key": "k8", "value": "ada"}])], phase="perturb", kind="swap")
    meta = {"started": "s", "finished": "f", "tasks": ["login-user"], "tasks_file": "x", "learn_seeds": [0, 1], "later": 1,
            "new_seeds": [100], "model": "lying", "learn_model": "none", "model_requests": {}, "hit_tasks": ["login-user"]}  # fmt: skip
    paths = write(tmp_path, [episode([], phase="learn", regime="learn"), CLEAN, base, swap], meta)
    data = json.loads(paths["json"].read_text())
    assert data["perturbations"][0]["kind"] == "swap" and data["perturbations"][0]["wrong_element_hit"] == 0
    assert "Memory: replay and perturbations" in paths["markdown"].read_text()
