"""The overlay bench's schedule (seeded, every layout on every task) and its figures."""

from __future__ import annotations

from typing import Any

from bench.overlays import LAYOUTS, init_script, schedule, specs
from bench.overlays_report import extra_requests, summary


def test_the_schedule_is_seeded_and_rotates_every_layout_through_each_task() -> None:
    assert schedule("miniwob", "click-button", 3, 0) == schedule("miniwob", "click-button", 3, 0)
    firsts = {schedule("miniwob", "click-button", seed, 0)[0]["layout"] for seed in range(len(LAYOUTS))}
    assert firsts == set(LAYOUTS)
    for events in (schedule("miniwob", t, s, i) for i, t in enumerate(["a", "b", "c"]) for s in range(6)):
        assert 1 <= len(events) <= 2 and events[0]["after"] in (0, 1) and all(e["layout"] in LAYOUTS for e in events)


def test_specs_and_the_init_script_carry_the_episodes_schedule() -> None:
    made = specs(["click-button"], 2, 3)
    assert [(s.site, s.seed) for s in made] == [("miniwob", 0), ("miniwob", 1), ("clinic", 0), ("clinic", 1), ("clinic", 2)]
    assert all(s.goal for s in made if s.site == "clinic") and len({s.goal for s in made if s.site == "clinic"}) == 3
    script = init_script(made[0], auto=False)
    assert script.startswith("window.__stepwiseOverlays = {") and '"auto": false' in script.splitlines()[0]


def _episode(seed: int, *, success: bool = True, requests: int = 2, shown: int = 0, way: int = 0, fired: list[int] | None = None,
             corrections: list[int] | None = None) -> dict[str, Any]:  # fmt: skip
    return {"site": "miniwob", "task": "t", "seed": seed, "success": success, "status": "completed", "error_code": None,
            "requests": requests, "shown": shown, "in_the_way": way, "dismissed": len(fired or []), "contingency_steps": fired or [],
            "traps": [], "false_completion": False, "layouts": ["modal"] * shown, "model_calls": {}, "correction_steps": corrections or []}  # fmt: skip


def test_resolved_before_a_correction_model_call_counts_only_contingencies_that_came_first() -> None:
    rows = [_episode(0, shown=1, way=1, fired=[0]), _episode(1, shown=1, way=1, fired=[2], corrections=[1]), _episode(2, shown=1, way=0)]
    figures = summary(rows, {"miniwob": 2})
    assert figures["resolved_before_correction_model"] == (1, 2)
    assert figures["tune"] == (2, 2) and figures["held_out"] == (1, 1)


def test_extra_requests_per_overlay_compare_the_same_episodes_that_succeeded_twice() -> None:
    base = [_episode(0, requests=2), _episode(1, requests=3), _episode(2, requests=2)]
    over = [_episode(0, requests=3, shown=1), _episode(1, requests=5, shown=2), _episode(2, requests=9, shown=1, success=False)]
    assert extra_requests(base, over) == {"episodes": 2, "shown": 3, "extra": 3, "per_overlay": 1.0}
