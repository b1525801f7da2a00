"""The skills bench's pure parts: the seeded stream, the site's judgement, the figures."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import httpx

from bench.memory_decoy_site import Event, Record, Site, Task, record_home, signin_page
from bench.memory_skills_report import TaskResult, hit_rates, replay_summary, summarise, targets, write
from bench.memory_skills_stream import PHRASING_SETS, TENANTS, stream


def test_the_stream_is_seeded_balanced_and_names_the_decoy() -> None:
    items = stream(60, 7, PHRASING_SETS["tune"])
    assert items == stream(60, 7, PHRASING_SETS["tune"])
    assert [i.goal for i in items] != [i.goal for i in stream(60, 8, PHRASING_SETS["tune"])]
    cells = Counter((i.tenant, i.task.domain) for i in items)
    assert set(cells.values()) == {10} and {t for t, _ in cells} == set(TENANTS)
    assert all(f'"{i.task.words.dead}"' in i.goal for i in items)
    secrets = [i.secret for i in items if i.secret]
    assert len(secrets) == 30 and len(set(secrets)) == 30 and all(s in i.goal for i in items if (s := i.secret))
    assert {i.phrasing for i in stream(60, 7, PHRASING_SETS["heldout"])} == {"h0"}
    assert [i.position for i in stream(9, 7, PHRASING_SETS["tune"], broken_every=3) if i.task.broken] == [3, 6, 9]


def test_the_site_judges_done_and_decoy_clicks_after_a_time() -> None:
    task = Task("t1", "clinic-a.test", "record", ("Ada", "Lovelace"), 3)
    record = Record([Event("dead", 10.0), Event("form", 11.0), Event("saved", 12.0, "Ada | Lovelace"), Event("dead", 13.0)])
    assert record.done(task) and record.dead_clicks() == 2 and record.dead_clicks(after=12.5) == 1
    assert not Record([Event("saved", 1.0, "Ada | Hopper")]).done(task)
    signin = Task("t2", "shop-b.test", "signin", ("ada1", "pw"), 3)
    assert Record([Event("signin_ok", 1.0, "ada1")]).done(signin)
    assert "Add patient record" in record_home(task) and "onmousedown='event.preventDefault()'" in record_home(task)
    assert "<button type='button'" in signin_page(Task("t3", "shop-b.test", "signin", ("a", "b"), 1, focusable_decoy=True))


def test_the_site_serves_a_task_only_under_its_own_host() -> None:
    site = Site()
    base, stop = site.serve()
    try:
        path = site.add(Task("t9", "shop-b.test", "record", ("Acme", "a@acme.example"), 1))
        assert httpx.get(base + path, headers={"Host": "shop-b.test"}).status_code == 200
        assert httpx.get(base + path, headers={"Host": "clinic-a.test"}).status_code == 404
        httpx.get(base + path + "/save?a=Acme&b=a@acme.example", headers={"Host": "shop-b.test"})
        assert site.record("t9").done(site.tasks["t9"])
    finally:
        stop()


def result(position: int, *, skills: list[str] | None = None, done: bool = True, status: str = "completed", dead_after: int = 0,
           answers: int = 4, with_skill: int = 0) -> TaskResult:  # fmt: skip
    return TaskResult(
        position=position, tenant="tenant-1", domain="clinic-a.test", flow="record", layout="nav", phrasing="p0", goal="g",
        task_id=f"task-{position}", done=done, stepwise_status=status, error_code=None, answers=answers,
        answers_with_skill=with_skill, skills_used=skills or [], dead_clicks=2 if not skills else dead_after,
        dead_clicks_after_skill=dead_after, model_calls=0, elapsed_s=1.0,
    )  # fmt: skip


def test_the_figures_count_the_second_half_effectiveness_and_false_completions() -> None:
    results = [result(1), result(2), result(3, skills=["s"], with_skill=1), result(4, skills=["s"], dead_after=1, with_skill=1),
               result(5, done=False, status="completed")]  # fmt: skip
    assert hit_rates(results[:2])["task_hit_rate"] == 0.0
    summary = summarise(results, {"cross_tenant": [], "secrets_found": {"stepwise.db": 2}, "skills": {"tenant-1": {"admitted": 1}}})
    assert summary["second_half"]["tasks"] == 3 and summary["second_half_task_hit_rate"] == round(2 / 3, 4)
    assert summary["second_half"]["answer_hit_rate"] == round(2 / 12, 4)
    assert summary["skill_given_tasks"] == 2 and summary["effectiveness"] == 0.5
    assert summary["false_completions"] == 1 and summary["secrets_in_store"] == 2 and summary["admitted_skills"] == 1
    met = targets(summary)
    assert met["second_half_task_hit_rate"]["met"] and not met["effectiveness"]["met"] and not met["secrets_in_store"]["met"]
    assert set(targets(summary, lying=True)) == {"cross_tenant_retrievals", "secrets_in_store", "false_completions", "unproven_admitted"}


def test_the_report_is_written(tmp_path: Path) -> None:
    store = {"secrets_checked": 1, "control_values_found": {"stepwise.db": 3}}
    summary = summarise([result(1), result(2), result(3, skills=["s"], with_skill=1)], store)
    paths = write(tmp_path, {"main": {"description": "d", "summary": summary, "targets": targets(summary), "store": store}}, {"seed": 1})
    text = paths["markdown"].read_text()
    assert "user names found: 3" in text and "used one (100.0 %)" in text and "| effectiveness | 1.000 |" in text and paths["json"].exists()


def test_replay_round_trips_compare_wholly_replayed_tasks_with_the_done_others() -> None:
    learned = [dataclasses.replace(result(n, answers=6), replay=["MISS"] * 6) for n in (1, 2)]
    replayed = [dataclasses.replace(result(n, answers=3), replay=["HIT"] * 3) for n in (3, 4)]
    partly = dataclasses.replace(result(5, answers=5), replay=["HIT", "FALLBACK", "HIT", "HIT", "HIT"])
    figures = replay_summary([*learned, *replayed, partly])
    assert figures["tasks_fully_hit"] == 2 and (figures["second_half_fully_hit"], figures["second_half_tasks"]) == (2, 3)
    assert figures["median_answers_replayed"] == 3 and figures["median_answers_not_replayed_done"] == 6
    assert figures["round_trips_saved"] == 0.5 and figures["replayed_false_completions"] == 0
