"""The sub-task bench: a 4-part flow (search → open a record → edit 5 fields → save) on the
local records site (``bench.subtask_site``), run through the reference client in Chromium
against a local Stepwise server and a scripted model that plans sub-tasks
(``bench.subtask_model``). ``python -m bench.subtasks``.

Runs, per site layout (list, table):

* ``hier`` — sub-tasks on: must complete with every sub-task verified on the page, and the
  site must really hold the new values;
* ``hier-drop`` — the site silently does not store one field (the save's effect does not
  show): must NOT complete;
* ``flat`` — the same plan, sub-tasks off (``STEPWISE_SUBTASKS=false``): the baseline for
  the worker prompt size;
* ``policy`` — no model at all: the deterministic decomposition of the same goal;
* ``flat-drop``, ``policy-drop`` — the dropped field without model sub-tasks (what a flat
  plan's contract says about it).

Measured at the fake model: the characters of every action-generation prompt, whole and
without the page's own blocks (the context: plan, history, inputs). The worker prompt ratio
is max/min over a run's worker calls (target ≤ 1.3 with sub-tasks). Results go to
``bench/results/subtasks.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx

from bench.subtask_model import ScriptedGemini
from bench.subtask_site import Layout, RecordsSite
from client import launch_browser, new_context, run_task
from client.local_server import local_server

NAME: Final = "Ana Silva"
VALUES: Final = {"email": "ana.silva@example.org", "phone": "555-0142", "city": "Oslo", "role": "Manager", "notes": "Prefers e-mail"}
GOAL: Final = (
    f"Search for {NAME}, then open {NAME}, then set the email to {VALUES['email']}, the phone to {VALUES['phone']}, "
    f"the city to {VALUES['city']}, the role to {VALUES['role']} and the notes to \"{VALUES['notes']}\", then click Save"
)
# The same work said the way people write it ("open it" after the search), for the no-model run.
GOAL_SPOKEN: Final = (
    f'Search for "{NAME}", open it, change the email to {VALUES["email"]}, the phone to {VALUES["phone"]}, the city to {VALUES["city"]}, '
    f'the role to {VALUES["role"]} and the notes to "{VALUES["notes"]}" and save'
)
RESULTS: Final = Path("bench/results/subtasks.json")
MAX_STEPS: Final = 30
KINDS: Final = ("hier", "hier-drop", "flat", "policy", "policy-spoken", "flat-drop", "policy-drop")


def _step(kind: str, target: str, value: str | None, what: str) -> dict[str, Any]:
    return {"description": what, "kind": kind, "target": target, "value": value, "success_criterion": what}


def _check(kind: str, description: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, "description": description, **fields}


def scripted_plan(subtasks: bool = True) -> dict[str, Any]:
    """The model's plan for :data:`GOAL`: nine steps, and (``subtasks``) four parts."""
    steps = [
        _step("fill", "Search records", NAME, "Type the name into the search box"),
        _step("press", "Search records", "Enter", "Run the search"),
        _step("open", NAME, None, "Open the record"),
        _step("fill", "Email", VALUES["email"], "Set the email"),
        _step("fill", "Phone", VALUES["phone"], "Set the phone"),
        _step("fill", "City", VALUES["city"], "Set the city"),
        _step("select", "Role", VALUES["role"], "Choose the role"),
        _step("fill", "Notes", VALUES["notes"], "Set the notes"),
        _step("submit", "Save", None, "Save the record"),
    ]
    parts = [
        {"goal": f"Search the records for {NAME}", "first_step": 0, "last_step": 1, "inputs": [], "outputs": [f"record: {NAME}"],
         "success": [_check("presence", f"a link to {NAME} is listed", target={"name": NAME, "role": "link"}, appear=True)]},
        {"goal": f"Open the record of {NAME}", "first_step": 2, "last_step": 2, "inputs": ["record"], "outputs": [f"record page: {NAME}"],
         "success": [_check("presence", "the record's Email field is shown", target={"name": "Email", "role": "textbox"}, appear=True)]},
        {"goal": "Change the five fields of the record", "first_step": 3, "last_step": 7, "inputs": ["record page"], "outputs": [],
         "success": [_check("field_value", f"{f} holds {v!r}", target={"name": f.title()}, value=v) for f, v in VALUES.items() if f != "role"]
         + [_check("choice", f"Role is {VALUES['role']!r}", target={"name": "Role"}, value=VALUES["role"])]},
        {"goal": "Save the record and see it saved", "first_step": 8, "last_step": 8, "inputs": [], "outputs": [],
         "success": [_check("message", "the page says the record was saved", value="saved")]
         + [_check("shown", f"the saved record shows {v!r}", value=v) for f, v in VALUES.items() if f != "role"]},
    ]  # fmt: skip
    return {"steps": steps, "contract": [], "needs_user_input": [], "subtasks": parts if subtasks else []}


@dataclass
class Run:
    name: str
    layout: str
    status: str
    expected: str
    error_code: str | None
    steps: int
    seconds: float
    stored: bool  # the site really holds every new value
    subtasks: list[dict[str, Any]] = field(default_factory=list)
    worker_prompts: list[tuple[str, int, int]] = field(default_factory=list)
    purposes: dict[str, int] = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        sizes = [n for _, n, _ in self.worker_prompts]
        return round(max(sizes) / min(sizes), 3) if sizes else None

    @property
    def context_ratio(self) -> float | None:
        sizes = [c for _, _, c in self.worker_prompts]
        return round(max(sizes) / min(sizes), 3) if sizes else None

    @property
    def per_part(self) -> dict[str, list[int]]:
        """Mean (whole, context) characters per sub-task (or plan step, for a flat plan)."""
        groups: dict[str, list[tuple[int, int]]] = {}
        for label, size, context in self.worker_prompts:
            groups.setdefault(label, []).append((size, context))
        return {label: [round(statistics.mean(s for s, _ in v)), round(statistics.mean(c for _, c in v))] for label, v in groups.items()}

    @property
    def false_completion(self) -> bool:
        """Said completed, but the site does not hold the new values."""
        return self.status == "completed" and not self.stored

    @property
    def ok(self) -> bool:
        if self.expected == "measured":
            return True
        if self.expected == "completed":
            return self.status == "completed" and self.stored and all(s["status"] == "completed" for s in self.subtasks)
        return self.status != "completed"

    def row(self) -> dict[str, Any]:
        return {**asdict(self), "falseCompletion": self.false_completion, "ratio": self.ratio, "contextRatio": self.context_ratio, "perPart": self.per_part, "ok": self.ok}


def _stored(site: RecordsSite) -> bool:
    record = site.record_of(NAME)
    return all(record.values[f] == v for f, v in VALUES.items())


async def _task_detail(server_url: str, api_key: str, task_id: str | None) -> dict[str, Any]:
    if task_id is None:
        return {}
    async with httpx.AsyncClient(base_url=server_url, headers={"Authorization": f"Bearer {api_key}"}) as http:
        response = await http.get(f"/api/tasks/{task_id}")
        return response.json() if response.status_code == 200 else {}


async def run_one(name: str, layout: Layout, *, model: ScriptedGemini | None, subtasks: bool, drop: str | None, browser: Any, expected: str, goal: str = GOAL) -> Run:
    """One run of ``goal`` on a fresh site and a fresh server."""
    env = {"STEPWISE_SUBTASKS": "true" if subtasks else "false", "GEMINI_API_KEY": "", "TAVILY_API_KEY": ""}
    if model is not None:
        env.update(model.env())
    with RecordsSite(layout=layout, drop=drop) as site, local_server(env=env) as server:
        context = await new_context(browser)
        page = await context.new_page()
        started = time.perf_counter()
        try:
            result = await run_task(goal, site.url, server=server.url, api_key=server.api_key, page=page, max_steps=MAX_STEPS)
        finally:
            await context.close()
        seconds = time.perf_counter() - started
        detail = await _task_detail(server.url, server.api_key, result.task_id)
        plan = detail.get("plan") or {}
        return Run(
            name=name, layout=layout, status=result.status, expected=expected, error_code=result.error_code, steps=len(result.steps),
            seconds=round(seconds, 2), stored=_stored(site),
            subtasks=[{"goal": s["goal"], "status": s["status"], "actionsUsed": s.get("actionsUsed"), "evidence": s.get("evidence", [])[:3], "failure": s.get("failure")} for s in plan.get("subtasks", [])],
            worker_prompts=list(model.worker_prompts) if model is not None else [],
            purposes={k: (model.purposes if model else []).count(k) for k in sorted(set(model.purposes if model else []))},
        )  # fmt: skip


async def run_all(layouts: Sequence[Layout] = ("list", "table"), kinds: Sequence[str] = KINDS) -> list[Run]:
    runs: list[Run] = []
    async with launch_browser() as browser:
        for layout in layouts:
            for kind in kinds:
                model = None if kind.startswith("policy") else ScriptedGemini(scripted_plan(subtasks=not kind.startswith("flat")))
                if model is not None:
                    model.start()
                try:
                    run = await run_one(
                        kind, layout, model=model, subtasks=not kind.startswith("flat"), drop="city" if kind.endswith("-drop") else None, browser=browser,
                        expected=_expected(kind), goal=GOAL_SPOKEN if kind == "policy-spoken" else GOAL,
                    )  # fmt: skip
                finally:
                    if model is not None:
                        model.stop()
                runs.append(run)
                print(f"{layout:5} {kind:9} status={run.status:18} code={run.error_code or '-':24} steps={run.steps:2} stored={run.stored!s:5} "
                      f"subtasks={[s['status'] for s in run.subtasks]} worker_calls={len(run.worker_prompts)} ratio={run.ratio} context_ratio={run.context_ratio} false_completion={run.false_completion} ok={run.ok}")  # fmt: skip
    return runs


def _expected(kind: str) -> str:
    """With model sub-tasks the dropped field must block completion; without them the run is
    a measurement of what a flat contract says (it checks the fields when Save is pressed)."""
    if kind == "hier-drop":
        return "not completed"
    return "measured" if kind.endswith("-drop") else "completed"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layouts", nargs="*", default=["list", "table"])
    parser.add_argument("--runs", nargs="*", default=list(KINDS))
    args = parser.parse_args(argv)
    runs = asyncio.run(run_all(args.layouts, args.runs))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps([r.row() for r in runs], indent=2))
    for run in runs:
        print(f"{run.layout:5} {run.name:11} mean worker prompt chars [whole, context]: {run.per_part}")
    print(f"all ok: {all(r.ok for r in runs)}  ({sum(r.ok for r in runs)}/{len(runs)})  -> {RESULTS}")


if __name__ == "__main__":
    main()
