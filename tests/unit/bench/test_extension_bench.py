"""bench/extension.py's summary: medians per client, success only when the site agrees, the
ratio of the medians, and the table it prints."""

from __future__ import annotations

from bench.extension import TASKS, Measure, summarise, table


def test_medians_success_and_ratio() -> None:
    clinic = TASKS[0]
    measures = [
        Measure("clinic", "extension", 0, "completed", True, 5, 4.0),
        Measure("clinic", "extension", 1, "completed", True, 5, 5.0),
        Measure("clinic", "extension", 2, "completed", False, 5, 6.0),  # the site does not show it: no success
        Measure("clinic", "python", 0, "completed", True, 4, 2.0),
        Measure("clinic", "python", 1, "failed", False, 4, 3.0),
        Measure("clinic", "python", 2, "completed", True, 4, 2.5),
    ]
    [row] = summarise(measures, [clinic])
    assert row["extension_runs"] == 3 and row["extension_ok"] == 2
    assert row["python_runs"] == 3 and row["python_ok"] == 2
    assert row["extension_steps"] == 5 and row["python_steps"] == 4
    assert row["extension_wall_s"] == 5.0 and row["python_wall_s"] == 2.5
    assert row["ratio"] == 2.0
    assert row["extension_s_per_step"] == 1.0 and row["python_s_per_step"] == 0.62
    text = table([row])
    assert "| clinic | 3 / 3 | 2 / 2 | 5 / 4 | 5.0 / 2.5 | 2.0 | 1.0 / 0.62 |" in text


def test_a_task_with_no_runs_has_no_ratio() -> None:
    [row] = summarise([], [TASKS[1]])
    assert row["extension_runs"] == 0 and row["ratio"] is None and row["extension_wall_s"] is None


def test_the_tasks_are_the_clinic_and_both_fixture_sites() -> None:
    assert [t.name for t in TASKS] == ["clinic", "prefs", "people"]
    assert {t.site for t in TASKS} == {"clinic", "fixtures"}
